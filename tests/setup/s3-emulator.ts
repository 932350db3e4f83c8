import { mkdtempSync, rmSync } from "node:fs";
import { readdir, readFile, rm, stat } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import S3rver from "s3rver";
import { freePort } from "#tests/setup/server";

/**
 * A local S3 emulator for the S3 path of session files (docs/decisions/0099), the way MSW
 * stands in for Stripe: s3rver (a Koa app) in this test process, on its own port and folder,
 * with one bucket. The server under test talks to it over HTTP with the real AWS SDK.
 *
 * s3rver lacks three multipart calls that @tus/s3-store makes, so a middleware in front of its
 * router answers them from s3rver's own upload folder (one folder per upload id holding `key`,
 * `metadata`, and each part as a file named by its number with `<n>.md5` beside it; see
 * s3rver's lib/stores/filesystem.js):
 * - ListParts (GET /bucket/key?uploadId=): how a resumed upload learns its offset;
 * - AbortMultipartUpload (DELETE /bucket/key?uploadId=): a tus termination;
 * - ListMultipartUploads (GET /bucket?uploads): the expired-upload sweep.
 * Signatures are not checked on these three (s3rver checks them on the rest).
 */
export type S3Emulator = {
  endpoint: string;
  bucket: string;
  directory: string;
  /** The env of a server that stores its files here. */
  settings: Record<string, string>;
  /** The stored object's path on disk (s3rver's layout), to read the bytes back. */
  objectPath(key: string): string;
  close(): Promise<void>;
};

type Store = {
  getResourcePath(bucket: string, key: string | undefined, resource: string): string;
};
type Context = {
  method: string;
  path: string;
  query: Record<string, string | undefined>;
  status: number;
  type: string;
  body: unknown;
  app: { store: Store };
};

const xml = (value: string) => value.replace(/[<>&'"]/g, (char) => `&#${char.charCodeAt(0)};`);

function noSuchUpload(ctx: Context, uploadId: string) {
  ctx.status = 404;
  ctx.type = "application/xml";
  ctx.body = `<?xml version="1.0" encoding="UTF-8"?>\n<Error><Code>NoSuchUpload</Code><Message>The specified upload does not exist.</Message><UploadId>${xml(uploadId)}</UploadId></Error>`;
}

async function exists(path: string) {
  return stat(path).then(
    () => true,
    () => false,
  );
}

function multipartMiddleware() {
  return async (ctx: Context, next: () => Promise<unknown>) => {
    const [, bucket = "", ...rest] = ctx.path.split("/");
    const key = decodeURIComponent(rest.join("/"));
    const uploads = () => ctx.app.store.getResourcePath(bucket, undefined, "uploads");
    const uploadId = ctx.query.uploadId;

    if (ctx.method === "GET" && key !== "" && uploadId !== undefined) {
      const folder = join(uploads(), uploadId);
      if (!(await exists(folder))) return noSuchUpload(ctx, uploadId);
      const numbers = (await readdir(folder))
        .filter((name) => /^\d+$/.test(name))
        .map(Number)
        .sort((a, b) => a - b);
      const parts = await Promise.all(
        numbers.map(async (number) => {
          const info = await stat(join(folder, String(number)));
          const md5 = (await readFile(join(folder, `${number}.md5`), "utf8")).trim();
          return `<Part><PartNumber>${number}</PartNumber><LastModified>${info.mtime.toISOString()}</LastModified><ETag>"${md5}"</ETag><Size>${info.size}</Size></Part>`;
        }),
      );
      ctx.status = 200;
      ctx.type = "application/xml";
      ctx.body = `<?xml version="1.0" encoding="UTF-8"?>\n<ListPartsResult><Bucket>${xml(bucket)}</Bucket><Key>${xml(key)}</Key><UploadId>${xml(uploadId)}</UploadId><PartNumberMarker>0</PartNumberMarker><NextPartNumberMarker>${numbers.at(-1) ?? 0}</NextPartNumberMarker><MaxParts>10000</MaxParts><IsTruncated>false</IsTruncated>${parts.join("")}</ListPartsResult>`;
      return;
    }

    if (ctx.method === "DELETE" && key !== "" && uploadId !== undefined) {
      const folder = join(uploads(), uploadId);
      if (!(await exists(folder))) return noSuchUpload(ctx, uploadId);
      await rm(folder, { recursive: true, force: true });
      ctx.status = 204;
      ctx.body = null;
      return;
    }

    if (ctx.method === "GET" && key === "" && bucket !== "" && "uploads" in ctx.query) {
      const folder = uploads();
      const ids = (await exists(folder)) ? await readdir(folder) : [];
      const entries = await Promise.all(
        ids.map(async (id) => {
          const uploadKey = await readFile(join(folder, id, "key"), "utf8");
          const initiated = (await stat(join(folder, id, "key"))).mtime.toISOString();
          return `<Upload><Key>${xml(uploadKey)}</Key><UploadId>${xml(id)}</UploadId><Initiated>${initiated}</Initiated></Upload>`;
        }),
      );
      ctx.status = 200;
      ctx.type = "application/xml";
      ctx.body = `<?xml version="1.0" encoding="UTF-8"?>\n<ListMultipartUploadsResult><Bucket>${xml(bucket)}</Bucket><KeyMarker></KeyMarker><UploadIdMarker></UploadIdMarker><MaxUploads>1000</MaxUploads><IsTruncated>false</IsTruncated>${entries.join("")}</ListMultipartUploadsResult>`;
      return;
    }
    await next();
  };
}

export async function startS3Emulator(): Promise<S3Emulator> {
  const directory = mkdtempSync(join(tmpdir(), "studio-s3-"));
  const port = await freePort();
  const bucket = "session-files";
  const emulator = new S3rver({
    address: "127.0.0.1",
    port,
    directory,
    silent: true,
    configureBuckets: [{ name: bucket, configs: [] }],
  });
  // In front of s3rver's own router (Koa composes its list when the server starts).
  (emulator as unknown as { middleware: unknown[] }).middleware.unshift(multipartMiddleware());
  await emulator.run();
  const endpoint = `http://127.0.0.1:${port}`;
  const store = (emulator as unknown as { store: Store }).store;
  return {
    endpoint,
    bucket,
    directory,
    settings: {
      S3_BUCKET: bucket,
      S3_ENDPOINT: endpoint,
      S3_REGION: "us-east-1",
      S3_ACCESS_KEY_ID: "S3RVER",
      S3_SECRET_ACCESS_KEY: "S3RVER",
    },
    objectPath: (key) => store.getResourcePath(bucket, key, "object"),
    async close() {
      await emulator.close();
      rmSync(directory, { recursive: true, force: true });
    },
  };
}
