import { createHash, randomBytes } from "node:crypto";
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { bookingFiles } from "#db/schema";
import { createBooking } from "#tests/factories/booking";
import { type Actor, actorsFor } from "#tests/setup/actors";
import { type S3Emulator, startS3Emulator } from "#tests/setup/s3-emulator";
import { startServer, type TestServer } from "#tests/setup/server";
import { tusClient } from "#tests/setup/tus";

/**
 * Session files in S3-compatible storage (S3_BUCKET set), against s3rver in this process
 * (tests/setup/s3-emulator.ts): a resumable upload in parts, resumed from the offset S3 reports,
 * the form's upload, a signed download URL with our Content-Disposition, and a termination
 * that leaves no parts behind.
 */
let emulator: S3Emulator;
let server: TestServer;
const handle = { url: "", dbPath: "" };

// Before actorsFor's own beforeAll, which opens the server's database.
beforeAll(async () => {
  emulator = await startS3Emulator();
  server = await startServer(emulator.settings);
  handle.url = server.url;
  handle.dbPath = server.dbPath;
});
const people = actorsFor(handle);

afterAll(async () => {
  await server?.stop();
  await emulator?.close();
});

const MiB = 1024 * 1024;
const sha256 = (bytes: Uint8Array) => createHash("sha256").update(bytes).digest("hex");
const filesOf = (bookingId: number) =>
  people.db().select().from(bookingFiles).where(eq(bookingFiles.bookingId, bookingId)).all();

/** Everything in the bucket's folder, s3rver's bookkeeping folders left out. */
function bucketEntries(): string[] {
  const folder = join(emulator.directory, emulator.bucket);
  return existsSync(folder)
    ? readdirSync(folder).filter((name) => !name.startsWith("._S3rver_uploads"))
    : [];
}

function openUploads(): string[] {
  const folder = join(emulator.directory, emulator.bucket, "._S3rver_uploads");
  return existsSync(folder) ? readdirSync(folder) : [];
}

async function setup() {
  const admin = await people.signUpAdmin();
  const owner = await people.signUp();
  const booking = createBooking(people.db(), { user: owner, status: "RECORDED" });
  return { admin, owner, booking, client: tusClient(server.url, admin.cookie) };
}

describe("session files in S3", () => {
  it("uploads in parts, resumes from the offset S3 reports, and stores the whole object", async () => {
    const { booking, client } = await setup();
    const bytes = randomBytes(10 * MiB);
    const created = await client.create(booking.id, {
      size: bytes.length,
      name: "raw tracks.zip",
      type: "application/zip",
    });
    expect(created.status).toBe(201);
    const location = created.headers.get("Location") ?? "";
    const key = location.split("/").pop() ?? "";

    // One whole 8 MiB part and a 1 MiB piece kept aside until more arrives.
    const first = await client.patch(location, 0, bytes.subarray(0, 9 * MiB));
    expect(first.status).toBe(204);
    expect(filesOf(booking.id)).toEqual([]);
    // The offset comes from S3 itself (ListParts plus the piece), as after a restart.
    const head = await client.head(location);
    expect(head.headers.get("Upload-Offset")).toBe(String(9 * MiB));

    const last = await client.patch(location, 9 * MiB, bytes.subarray(9 * MiB));
    expect(last.status).toBe(204);
    const [file] = filesOf(booking.id);
    expect(file).toMatchObject({ name: "raw tracks.zip", size: bytes.length, storageKey: key });
    expect(sha256(readFileSync(emulator.objectPath(key)))).toBe(sha256(bytes));
    // No bookkeeping left beside it: no .info, no .part, no open multipart upload.
    expect(
      bucketEntries().some(
        (name) => name.startsWith(`${key}.info`) || name.startsWith(`${key}.part`),
      ),
    ).toBe(false);
    expect(openUploads()).toEqual([]);
  });

  it("stores the form's file and downloads through a short-lived signed URL", async () => {
    const { admin, owner, booking } = await setup();
    const bytes = randomBytes(200_000);
    const body = new FormData();
    body.set("file", new Blob([new Uint8Array(bytes)], { type: "audio/mpeg" }), "Épisode 3.mp3");
    const posted = await fetch(`${server.url}/api/admin/bookings/${booking.id}/files`, {
      method: "POST",
      headers: { Cookie: admin.cookie, Accept: "application/json" },
      body,
    });
    expect(posted.status, await posted.clone().text()).toBe(201);
    const { file } = (await posted.json()) as { file: { id: number; downloadUrl: string } };
    const [row] = filesOf(booking.id);
    expect(row?.sha256).toBe(sha256(bytes));
    expect(sha256(readFileSync(emulator.objectPath(row?.storageKey ?? "")))).toBe(sha256(bytes));

    // Staff (the file is not delivered yet) get a redirect to storage, valid a few minutes.
    const download = await fetch(`${server.url}${file.downloadUrl}`, {
      headers: { Cookie: admin.cookie },
      redirect: "manual",
    });
    expect(download.status).toBe(302);
    const signed = new URL(download.headers.get("Location") ?? "");
    expect(signed.origin).toBe(emulator.endpoint);
    expect(signed.searchParams.get("X-Amz-Expires")).toBe("300");
    expect(signed.searchParams.get("response-content-disposition")).toBe(
      `attachment; filename="Episode 3.mp3"; filename*=UTF-8''%C3%89pisode%203.mp3`,
    );
    const fetched = await fetch(signed);
    expect(fetched.status).toBe(200);
    expect(fetched.headers.get("Content-Disposition")).toBe(
      signed.searchParams.get("response-content-disposition"),
    );
    expect(sha256(Buffer.from(await fetched.arrayBuffer()))).toBe(sha256(bytes));
    // A resumed download asks storage itself for the rest.
    const rest = await fetch(signed, { headers: { Range: "bytes=150000-" } });
    expect(rest.status).toBe(206);
    expect(rest.headers.get("Content-Range")).toBe("bytes 150000-199999/200000");
    expect(Buffer.from(await rest.arrayBuffer()).equals(bytes.subarray(150_000))).toBe(true);

    // The owner gets nothing until it is delivered, another customer never.
    const stranger: Actor = await people.signUp();
    for (const who of [owner, stranger]) {
      const refused = await fetch(`${server.url}${file.downloadUrl}`, {
        headers: { Cookie: who.cookie },
        redirect: "manual",
      });
      expect(refused.status).toBe(404);
    }
  });

  it("a terminated upload leaves no parts, no piece and no bookkeeping", async () => {
    const { booking, client } = await setup();
    const created = await client.create(booking.id, {
      size: 10 * MiB,
      name: "a.wav",
      type: "audio/wav",
    });
    const location = created.headers.get("Location") ?? "";
    const key = location.split("/").pop() ?? "";
    await client.patch(location, 0, randomBytes(9 * MiB));
    expect(openUploads()).toHaveLength(1);
    const terminated = await client.terminate(location);
    expect(terminated.status).toBe(204);
    expect(openUploads()).toEqual([]);
    expect(bucketEntries().filter((name) => name.startsWith(key))).toEqual([]);
    expect((await client.head(location)).status).toBe(404);
    expect(filesOf(booking.id)).toEqual([]);
  });

  it("refuses an upload to a booking not recorded yet, with nothing in the bucket", async () => {
    const admin = await people.signUpAdmin();
    const owner = await people.signUp();
    const booking = createBooking(people.db(), { user: owner, status: "CONFIRMED" });
    const before = bucketEntries();
    const response = await tusClient(server.url, admin.cookie).create(booking.id, {
      size: 5,
      name: "a.wav",
      type: "audio/wav",
    });
    expect(response.status).toBe(422);
    expect(bucketEntries()).toEqual(before);
    expect(openUploads()).toEqual([]);
  });
});
