import { createCipheriv, createHash } from "node:crypto";
import { createReadStream, mkdtempSync, rmSync } from "node:fs";
import http from "node:http";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Readable } from "node:stream";
import { pipeline } from "node:stream/promises";
import { eq } from "drizzle-orm";
import { afterAll, expect, it } from "vitest";
import { bookingFiles } from "#db/schema";
import { createBooking } from "#tests/factories/booking";
import { openDatabaseFile } from "#tests/factories/database";
import { createSignIn } from "#tests/factories/sign-in";
import { createUser } from "#tests/factories/user";
import { databaseForThisFile } from "#tests/reliability/support";
import { tusMetadata } from "#tests/setup/tus";

/**
 * The issue's proof for session files (docs/product.md "Session files"): 2 GB through the tus
 * endpoint of a real server process (`node server.js`), the connection cut twice in the middle
 * of a PATCH, resumed each time as tus-js-client does (HEAD for the offset, PATCH from there).
 * The stored bytes' sha256 must equal the source's, and the server's peak memory (VmHWM) must
 * stay flat: the body is streamed to disk, never held.
 *
 * The source is a deterministic stream (AES-128-CTR over zeros: fast, incompressible, and
 * startable at any offset), so no 2 GB source file is written. The stored file is removed after.
 */
const SIZE = 2 * 1024 ** 3;
const CUTS = [Math.floor(SIZE * 0.31), Math.floor(SIZE * 0.67)];
/** Resident memory may grow this much over the warmed-up server's while 2 GB pass through it. */
const FLAT_MB = 64;

const KEY = Buffer.alloc(16, 7);
const BLOCK = 16;

/** The source's bytes from `start` to the end, as a stream of 1 MiB chunks. */
function source(start: number, end = SIZE): Readable {
  const firstBlock = Math.floor(start / BLOCK);
  const iv = Buffer.alloc(16);
  iv.writeBigUInt64BE(BigInt(firstBlock), 8);
  const cipher = createCipheriv("aes-128-ctr", KEY, iv);
  const zeros = Buffer.alloc(1024 * 1024);
  let skip = start - firstBlock * BLOCK;
  let left = end - start;
  return new Readable({
    read() {
      if (left <= 0) {
        this.push(null);
        return;
      }
      let chunk = cipher.update(zeros);
      if (skip > 0) {
        chunk = chunk.subarray(skip);
        skip = 0;
      }
      if (chunk.length > left) chunk = chunk.subarray(0, left);
      left -= chunk.length;
      this.push(chunk);
    },
  });
}

async function sha256Of(stream: Readable): Promise<string> {
  const hash = createHash("sha256");
  await pipeline(stream, async (chunks: AsyncIterable<Buffer>) => {
    for await (const chunk of chunks) hash.update(chunk);
  });
  return hash.digest("hex");
}

type Answer = { status: number; headers: http.IncomingHttpHeaders };

/**
 * PATCH from `offset`, streaming the source; with `cutAt`, the socket is destroyed once the
 * body has passed that absolute offset (a dropped connection), and the promise says so.
 */
function patch(
  url: string,
  path: string,
  cookie: string,
  offset: number,
  cutAt?: number,
): Promise<Answer | "cut"> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve, reject) => {
    const req = http.request({
      host: hostname,
      port,
      method: "PATCH",
      path,
      agent: false,
      headers: {
        "Tus-Resumable": "1.0.0",
        Cookie: cookie,
        "Upload-Offset": String(offset),
        "Content-Type": "application/offset+octet-stream",
        "Content-Length": String(SIZE - offset),
      },
    });
    let sent = offset;
    let cut = false;
    req.on("response", (res) => {
      res.resume();
      res.on("end", () => resolve({ status: res.statusCode ?? 0, headers: res.headers }));
    });
    req.on("error", (error) => (cut ? resolve("cut") : reject(error)));
    req.on("close", () => {
      if (cut) resolve("cut");
    });
    const body = source(offset);
    body.on("data", (chunk: Buffer) => {
      sent += chunk.length;
      if (cutAt !== undefined && sent >= cutAt && !cut) {
        cut = true;
        body.destroy();
        req.destroy();
      }
    });
    body.pipe(req);
  });
}

async function tusRequest(
  url: string,
  path: string,
  method: "POST" | "HEAD",
  headers: Record<string, string>,
) {
  const response = await fetch(`${url}${path}`, {
    method,
    headers: { "Tus-Resumable": "1.0.0", ...headers },
  });
  await response.arrayBuffer();
  return response;
}

const filesDir = mkdtempSync(join(tmpdir(), "studio-large-upload-"));
const { dbPath, launch } = databaseForThisFile("large-upload");
afterAll(() => rmSync(filesDir, { recursive: true, force: true }));

it(
  "stores 2 GB uploaded through tus with the connection cut twice, byte for byte, in flat memory",
  async () => {
    const server = await launch({ FILES_DIR: filesDir, FILES_RESERVE_MB: "512" });
    const db = openDatabaseFile(dbPath);
    const admin = await createUser(db, { isAdmin: true });
    const cookie = `__session=${createSignIn(db, { userId: admin.id }).id}`;
    const booking = createBooking(db, { user: admin, status: "RECORDED" });

    // Warm the server up (a small upload end to end) before taking its baseline memory.
    const warm = await tusRequest(server.url, `/api/admin/bookings/${booking.id}/files`, "POST", {
      Cookie: cookie,
      "Upload-Length": "1",
      "Upload-Metadata": tusMetadata({ filename: "warm.txt", filetype: "text/plain" }),
    });
    expect(warm.status).toBe(201);
    await fetch(`${server.url}${warm.headers.get("Location")}`, {
      method: "PATCH",
      headers: {
        "Tus-Resumable": "1.0.0",
        Cookie: cookie,
        "Upload-Offset": "0",
        "Content-Type": "application/offset+octet-stream",
      },
      body: "x",
    });
    const baselineKb = server.peakRssKb();

    const started = Date.now();
    const created = await tusRequest(
      server.url,
      `/api/admin/bookings/${booking.id}/files`,
      "POST",
      {
        Cookie: cookie,
        "Upload-Length": String(SIZE),
        "Upload-Metadata": tusMetadata({ filename: "two gigabytes.wav", filetype: "audio/wav" }),
      },
    );
    expect(created.status).toBe(201);
    const location = created.headers.get("Location") ?? "";

    let offset = 0;
    const offsetsAfterCuts: number[] = [];
    let finished: Answer | undefined;
    for (const cutAt of [...CUTS, undefined]) {
      const answer = await patch(server.url, location, cookie, offset, cutAt);
      // As a tus client resumes: ask the server where it stands, go on from there.
      const head = await tusRequest(server.url, location, "HEAD", { Cookie: cookie });
      if (answer === "cut") {
        expect(head.status).toBe(200);
        offset = Number(head.headers.get("Upload-Offset"));
        offsetsAfterCuts.push(offset);
        continue;
      }
      finished = answer;
    }
    const seconds = (Date.now() - started) / 1000;
    expect(finished?.status).toBe(204);
    expect(finished?.headers["upload-offset"]).toBe(String(SIZE));
    // Each cut lost at most what was in flight, and the upload went on from where it stood.
    expect(offsetsAfterCuts).toHaveLength(2);
    expect(offsetsAfterCuts[0]).toBeGreaterThan(0);
    expect(offsetsAfterCuts[0]).toBeLessThanOrEqual(CUTS[0] ?? 0);
    expect(offsetsAfterCuts[1]).toBeGreaterThan(offsetsAfterCuts[0] ?? 0);
    expect(offsetsAfterCuts[1]).toBeLessThanOrEqual(CUTS[1] ?? 0);

    const peakKb = server.peakRssKb();
    const file = db
      .select()
      .from(bookingFiles)
      .where(eq(bookingFiles.bookingId, booking.id))
      .all()
      .find((row) => row.name === "two gigabytes.wav");
    expect(file?.size).toBe(SIZE);
    const storedPath = join(filesDir, "files", file?.storageKey ?? "");
    const [expected, stored] = await Promise.all([
      sha256Of(source(0)),
      sha256Of(createReadStream(storedPath)),
    ]);
    rmSync(storedPath, { force: true });
    db.$client.close();

    console.log(
      `2 GB tus upload, cut at ${offsetsAfterCuts.map((n) => (n / 1024 ** 2).toFixed(0)).join(" and ")} MiB: ` +
        `${seconds.toFixed(1)} s (${(SIZE / 1024 ** 2 / seconds).toFixed(0)} MiB/s), ` +
        `server peak RSS ${(baselineKb / 1024).toFixed(0)} MiB before, ${(peakKb / 1024).toFixed(0)} MiB after`,
    );
    expect(stored).toBe(expected);
    expect((peakKb - baselineKb) / 1024).toBeLessThan(FLAT_MB);
  },
  15 * 60_000,
);
