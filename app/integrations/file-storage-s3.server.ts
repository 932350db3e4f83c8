import { createHash } from "node:crypto";
import { createReadStream, createWriteStream } from "node:fs";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Transform } from "node:stream";
import { pipeline } from "node:stream/promises";
import {
  DeleteObjectsCommand,
  GetObjectCommand,
  HeadObjectCommand,
  PutObjectCommand,
  S3Client,
  type S3ClientConfig,
} from "@aws-sdk/client-s3";
import { getSignedUrl } from "@aws-sdk/s3-request-presigner";
import { S3Store } from "@tus/s3-store";
import { ERRORS } from "@tus/server";
import {
  checkedKey,
  type FileStorage,
  UPLOAD_EXPIRY_MS,
} from "#app/integrations/file-storage.server";

/** Its own remove leaves the kept-aside `<key>.part` of a terminated upload behind. */
class SessionFilesS3Store extends S3Store {
  override async remove(id: string): Promise<void> {
    try {
      await super.remove(id);
    } finally {
      await this.deleteIncompletePart(id);
    }
  }
}

export type S3Settings = {
  bucket: string;
  endpoint?: string;
  region: string;
  accessKeyId: string;
  secretAccessKey: string;
};

/** Long enough to start, short enough not to share. */
export const SIGNED_URL_SECONDS = 5 * 60;

/** 8 MiB (S3's least is 5; @tus/s3-store grows it past 10,000 parts). */
const PART_SIZE = 8 * 1024 * 1024;

/** Downloads are short-lived signed URLs: the bytes never pass through this server. */
export function s3FileStorage(settings: S3Settings): FileStorage {
  const config: S3ClientConfig = {
    endpoint: settings.endpoint,
    region: settings.region,
    credentials: {
      accessKeyId: settings.accessKeyId,
      secretAccessKey: settings.secretAccessKey,
    },
    forcePathStyle: Boolean(settings.endpoint),
    // The SDK's default aws-chunked uploads with a CRC trailer are refused by emulators and Tigris.
    requestChecksumCalculation: "WHEN_REQUIRED",
    responseChecksumValidation: "WHEN_REQUIRED",
  };
  const client = new S3Client(config);
  const bucket = settings.bucket;
  const datastore = new SessionFilesS3Store({
    partSize: PART_SIZE,
    // No object tags: expiry is our sweep (ListMultipartUploads), not a bucket lifecycle rule.
    useTags: false,
    expirationPeriodInMilliseconds: UPLOAD_EXPIRY_MS,
    s3ClientConfig: { ...config, bucket },
  });

  return {
    kind: "s3",
    datastore,

    async freeBytes() {
      return null;
    },

    async finishUpload(key) {
      const head = await client.send(
        new HeadObjectCommand({ Bucket: bucket, Key: checkedKey(key) }),
      );
      await client.send(
        new DeleteObjectsCommand({
          Bucket: bucket,
          Delete: { Objects: [{ Key: `${key}.info` }, { Key: `${key}.part` }], Quiet: true },
        }),
      );
      return { size: head.ContentLength ?? 0, sha256: null };
    },

    // An object's length must be known before its PUT: the form's file is spooled to disk first.
    async saveStream(key, source, contentType) {
      const folder = await mkdtemp(join(tmpdir(), "studio-upload-"));
      const spool = join(folder, "file");
      try {
        const hash = createHash("sha256");
        let size = 0;
        const count = new Transform({
          transform(chunk: Buffer, _encoding, done) {
            hash.update(chunk);
            size += chunk.length;
            done(null, chunk);
          },
        });
        await pipeline(source, count, createWriteStream(spool));
        await client.send(
          new PutObjectCommand({
            Bucket: bucket,
            Key: checkedKey(key),
            Body: createReadStream(spool),
            ContentLength: size,
            ContentType: contentType,
          }),
        );
        return { size, sha256: hash.digest("hex") };
      } finally {
        await rm(folder, { recursive: true, force: true });
      }
    },

    async remove(key) {
      await datastore.remove(checkedKey(key)).catch((error: unknown) => {
        if (error !== ERRORS.FILE_NOT_FOUND) throw error;
      });
      await client.send(
        new DeleteObjectsCommand({
          Bucket: bucket,
          Delete: {
            Objects: [{ Key: key }, { Key: `${key}.info` }, { Key: `${key}.part` }],
            Quiet: true,
          },
        }),
      );
    },

    sweepAbandonedUploads() {
      return datastore.deleteExpired();
    },

    download: {
      kind: "signed",
      url(key, { contentType, disposition }) {
        return getSignedUrl(
          client,
          new GetObjectCommand({
            Bucket: bucket,
            Key: checkedKey(key),
            ResponseContentDisposition: disposition,
            ResponseContentType: contentType,
          }),
          { expiresIn: SIGNED_URL_SECONDS },
        );
      },
    },
  };
}
