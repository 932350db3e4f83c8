import { createHash, randomBytes } from "node:crypto";
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { connect } from "node:net";
import { join } from "node:path";
import { eq } from "drizzle-orm";
import * as tus from "tus-js-client";
import { describe, expect, it } from "vitest";
import { bookingFiles, bookings } from "#db/schema";
import type { BookingStatus } from "#app/domain/booking-status";
import { SESSION_FILE_MESSAGES } from "#app/domain/session-files";
import { createBooking } from "#tests/factories/booking";
import { createBookingFile } from "#tests/factories/booking-file";
import { type Actor, actorsFor } from "#tests/setup/actors";
import { serverForThisFile } from "#tests/setup/server-for-this-file";
import { tusClient, tusMetadata, TUS } from "#tests/setup/tus";

/**
 * Session files against the production build with local storage (docs/product.md "Session
 * files"): staff upload with tus and with the plain form, every refusal leaves nothing stored,
 * and downloads answer the owner (delivered files) and staff only, with Range. The S3 path has
 * its own file (session-files-s3.test.ts).
 */
const MAX_FILE_BYTES = Math.floor(0.001 * 1024 ** 3); // MAX_FILE_GB=0.001: about 1 MB
const FORM_LIMIT_BYTES = 1024 * 1024; // MAX_FORM_UPLOAD_MB=1
const server = serverForThisFile({ MAX_FILE_GB: "0.001", MAX_FORM_UPLOAD_MB: "1" });
const people = actorsFor(server);

function seedBooking(owner: Actor, status: BookingStatus = "RECORDED") {
  return createBooking(people.db(), { user: owner, status });
}

const uploadsDir = () => join(server.filesDir, "uploads");
const storedDir = () => join(server.filesDir, "files");
const listDir = (dir: string) => (existsSync(dir) ? readdirSync(dir) : []);

function filesOf(bookingId: number) {
  return people.db().select().from(bookingFiles).where(eq(bookingFiles.bookingId, bookingId)).all();
}

const sha256 = (bytes: Uint8Array) => createHash("sha256").update(bytes).digest("hex");

async function message(response: Response) {
  return ((await response.json()) as { message: string }).message;
}

async function setup(status: BookingStatus = "RECORDED") {
  const admin = await people.signUpAdmin();
  const owner = await people.signUp();
  const booking = seedBooking(owner, status);
  return { admin, owner, booking, client: tusClient(server.url, admin.cookie) };
}

describe("tus uploads", () => {
  it("stores the whole file once its last byte arrives, under our key, with its name and type", async () => {
    const { booking, client } = await setup();
    const bytes = randomBytes(300_000);
    const created = await client.create(booking.id, {
      size: bytes.length,
      name: "Café take 1.wav",
      type: "audio/wav",
    });
    expect(created.status).toBe(201);
    const location = created.headers.get("Location") ?? "";
    expect(location).toMatch(
      new RegExp(`^/api/admin/bookings/${booking.id}/files/b${booking.id}-[0-9a-f]{32}$`),
    );
    expect(created.headers.get("Access-Control-Allow-Origin")).toBeNull();

    const first = await client.patch(location, 0, bytes.subarray(0, 100_000));
    expect(first.status).toBe(204);
    expect(first.headers.get("Upload-Offset")).toBe("100000");
    // Nothing visible before the last byte.
    expect(filesOf(booking.id)).toEqual([]);

    const head = await client.head(location);
    expect(head.status).toBe(200);
    expect(head.headers.get("Upload-Offset")).toBe("100000");
    expect(head.headers.get("Upload-Length")).toBe(String(bytes.length));

    const last = await client.patch(location, 100_000, bytes.subarray(100_000));
    expect(last.status).toBe(204);
    expect(last.headers.get("Upload-Offset")).toBe(String(bytes.length));

    const [file] = filesOf(booking.id);
    expect(file).toMatchObject({
      name: "Café take 1.wav",
      contentType: "audio/wav",
      size: bytes.length,
      deliveredAt: null,
      expiresAt: null,
      deletedAt: null,
    });
    expect(last.headers.get("Studio-File-Id")).toBe(String(file?.id));
    const key = location.split("/").pop() ?? "";
    expect(file?.storageKey).toBe(key);
    expect(sha256(readFileSync(join(storedDir(), key)))).toBe(sha256(bytes));
    // Its upload's bookkeeping is gone: the expiry sweep can never touch a stored file.
    expect(listDir(uploadsDir()).filter((name) => name.startsWith(key))).toEqual([]);
    // A finished upload is no longer a tus resource.
    expect((await client.head(location)).status).toBe(404);
    expect((await client.terminate(location)).status).toBe(404);
    expect(existsSync(join(storedDir(), key))).toBe(true);
  });

  it("works with tus-js-client, the browser's uploader, in Node", async () => {
    const { admin, booking } = await setup("POST_PRODUCTION");
    const bytes = randomBytes(250_000);
    await new Promise<void>((resolve, reject) => {
      const upload = new tus.Upload(bytes, {
        endpoint: `${server.url}/api/admin/bookings/${booking.id}/files`,
        headers: { Cookie: admin.cookie },
        metadata: { filename: "episode.mp3", filetype: "audio/mpeg" },
        chunkSize: 100_000,
        retryDelays: [],
        onError: reject,
        onSuccess: () => resolve(),
      });
      upload.start();
    });
    const [file] = filesOf(booking.id);
    expect(file).toMatchObject({ name: "episode.mp3", contentType: "audio/mpeg", size: 250_000 });
    expect(sha256(readFileSync(join(storedDir(), file?.storageKey ?? "")))).toBe(sha256(bytes));
  });

  it("takes the type from the extension when the browser sends none", async () => {
    const { booking, client } = await setup("COMPLETED");
    const created = await client.create(booking.id, { size: 3, name: "take.flac", type: "" });
    expect(created.status).toBe(201);
    await client.patch(created.headers.get("Location") ?? "", 0, Buffer.from("abc"));
    expect(filesOf(booking.id)[0]?.contentType).toBe("audio/flac");
  });

  describe("refused at creation, with nothing stored", () => {
    const cases: [string, { size: number; name: string; type: string }, number, string][] = [
      [
        "too large",
        { size: MAX_FILE_BYTES + 1, name: "a.wav", type: "audio/wav" },
        413,
        "This file is too large. Files can be up to 1 MB.",
      ],
      ["empty", { size: 0, name: "a.wav", type: "audio/wav" }, 400, SESSION_FILE_MESSAGES.empty],
      [
        "a path in the name",
        { size: 5, name: "../../etc/passwd", type: "text/plain" },
        400,
        SESSION_FILE_MESSAGES.nameSeparator,
      ],
      [
        "a Windows path",
        { size: 5, name: "C:\\fakepath\\a.wav", type: "audio/wav" },
        400,
        SESSION_FILE_MESSAGES.nameSeparator,
      ],
      [
        "a control character",
        { size: 5, name: "take\u0007.wav", type: "audio/wav" },
        400,
        SESSION_FILE_MESSAGES.nameControl,
      ],
      [
        "a line break",
        { size: 5, name: "take\r\n.wav", type: "audio/wav" },
        400,
        SESSION_FILE_MESSAGES.nameControl,
      ],
      [
        "a reserved name",
        { size: 5, name: "..", type: "audio/wav" },
        400,
        SESSION_FILE_MESSAGES.nameReserved,
      ],
      [
        "no name",
        { size: 5, name: "", type: "audio/wav" },
        400,
        SESSION_FILE_MESSAGES.nameRequired,
      ],
      [
        "a name too long",
        { size: 5, name: `${"a".repeat(201)}.wav`, type: "audio/wav" },
        400,
        SESSION_FILE_MESSAGES.nameTooLong,
      ],
      [
        "HTML",
        { size: 5, name: "page.html", type: "text/html" },
        415,
        SESSION_FILE_MESSAGES.contentType,
      ],
      [
        "SVG",
        { size: 5, name: "logo.svg", type: "image/svg+xml" },
        415,
        SESSION_FILE_MESSAGES.contentType,
      ],
      [
        "a program",
        { size: 5, name: "setup.exe", type: "application/x-msdownload" },
        415,
        SESSION_FILE_MESSAGES.contentType,
      ],
      [
        "an unknown type",
        { size: 5, name: "blob", type: "application/octet-stream" },
        415,
        SESSION_FILE_MESSAGES.contentType,
      ],
    ];
    it.each(cases)("%s", async (_label, file, status, text) => {
      const { booking, client } = await setup();
      const before = people.snapshot();
      const uploadsBefore = listDir(uploadsDir());
      const response = await client.create(booking.id, file);
      expect(response.status).toBe(status);
      expect(response.headers.get("Content-Type")).toMatch(/^application\/json/);
      expect(await message(response)).toBe(text);
      expect(people.snapshot()).toEqual(before);
      expect(listDir(uploadsDir())).toEqual(uploadsBefore);
    });

    it("an unknown booking, and an id that is not one", async () => {
      const { client } = await setup();
      const unknown = await client.create(999_999, { size: 5, name: "a.wav", type: "audio/wav" });
      expect(unknown.status).toBe(404);
      expect(await message(unknown)).toBe(SESSION_FILE_MESSAGES.bookingNotFound);
      const junk = await client.create("1e3", { size: 5, name: "a.wav", type: "audio/wav" });
      expect(junk.status).toBe(404);
    });

    it.each(["PENDING_PAYMENT", "PENDING", "CONFIRMED", "CANCELLED"] as const)(
      "a booking %s (not recorded yet, or cancelled)",
      async (status) => {
        const { booking, client } = await setup(status);
        const before = people.snapshot();
        const response = await client.create(booking.id, {
          size: 5,
          name: "a.wav",
          type: "audio/wav",
        });
        expect(response.status).toBe(422);
        expect(await message(response)).toBe(SESSION_FILE_MESSAGES.notRecorded);
        expect(people.snapshot()).toEqual(before);
      },
    );

    it("a size that is not given (deferred length)", async () => {
      const { admin, booking } = await setup();
      const response = await fetch(`${server.url}/api/admin/bookings/${booking.id}/files`, {
        method: "POST",
        headers: {
          ...TUS,
          Cookie: admin.cookie,
          "Upload-Defer-Length": "1",
          "Upload-Metadata": tusMetadata({ filename: "a.wav", filetype: "audio/wav" }),
        },
      });
      expect(response.status).toBeGreaterThanOrEqual(400);
      expect(response.status).toBeLessThan(500);
      expect(await message(response)).not.toMatch(/tus|Upload-Defer/i);
    });

    it("another tus version, and a tus request without its version", async () => {
      const { admin, booking, client } = await setup();
      const response = await fetch(`${server.url}/api/admin/bookings/${booking.id}/files`, {
        method: "POST",
        headers: { "Tus-Resumable": "0.2.2", Cookie: admin.cookie, "Upload-Length": "5" },
      });
      expect(response.status).toBe(400);
      const versionMessage = "Uploads speak the tus protocol: send Tus-Resumable: 1.0.0.";
      expect(await message(response)).toBe(versionMessage);
      const created = await client.create(booking.id, {
        size: 5,
        name: "a.txt",
        type: "text/plain",
      });
      const unversioned = await fetch(`${server.url}${created.headers.get("Location")}`, {
        method: "PATCH",
        headers: {
          Cookie: admin.cookie,
          "Upload-Offset": "0",
          "Content-Type": "application/offset+octet-stream",
        },
        body: Buffer.from("abcde"),
      });
      expect(unversioned.status).toBe(412);
      expect(await message(unversioned)).toBe(versionMessage);
      expect(filesOf(booking.id)).toEqual([]);
    });
  });

  it("refuses bytes past the declared size and an offset that does not match", async () => {
    const { booking, client } = await setup();
    const created = await client.create(booking.id, {
      size: 10,
      name: "a.txt",
      type: "text/plain",
    });
    const location = created.headers.get("Location") ?? "";
    const tooMany = await client.patch(location, 0, Buffer.alloc(11));
    expect(tooMany.status).toBe(413);
    expect(await message(tooMany)).toBe("The upload sent more bytes than its size.");
    const wrongOffset = await client.patch(location, 5, Buffer.alloc(5));
    expect(wrongOffset.status).toBe(409);
    expect(await message(wrongOffset)).toMatch(/offset/);
    expect(filesOf(booking.id)).toEqual([]);
  });

  it("an upload's URL under another booking's path is not found", async () => {
    const { booking, client, owner } = await setup();
    const other = seedBooking(owner);
    const created = await client.create(booking.id, {
      size: 10,
      name: "a.txt",
      type: "text/plain",
    });
    const key = (created.headers.get("Location") ?? "").split("/").pop();
    const elsewhere = `/api/admin/bookings/${other.id}/files/${key}`;
    expect((await client.head(elsewhere)).status).toBe(404);
    expect((await client.patch(elsewhere, 0, Buffer.alloc(10))).status).toBe(404);
    expect((await client.terminate(elsewhere)).status).toBe(404);
    expect((await client.head(`/api/admin/bookings/${booking.id}/files/not-a-key`)).status).toBe(
      404,
    );
    expect(filesOf(other.id)).toEqual([]);
  });

  it("giving an upload up deletes its bytes", async () => {
    const { booking, client } = await setup();
    const created = await client.create(booking.id, {
      size: 10,
      name: "a.txt",
      type: "text/plain",
    });
    const location = created.headers.get("Location") ?? "";
    await client.patch(location, 0, Buffer.alloc(4));
    const key = location.split("/").pop() ?? "";
    expect(listDir(uploadsDir())).toContain(key);
    const terminated = await client.terminate(location);
    expect(terminated.status).toBe(204);
    expect(listDir(uploadsDir()).filter((name) => name.startsWith(key))).toEqual([]);
    expect((await client.head(location)).status).toBe(404);
    expect(filesOf(booking.id)).toEqual([]);
  });

  it("a booking cancelled before the last byte: the bytes are deleted, nothing recorded", async () => {
    const { booking, client } = await setup();
    const created = await client.create(booking.id, {
      size: 10,
      name: "a.txt",
      type: "text/plain",
    });
    const location = created.headers.get("Location") ?? "";
    await client.patch(location, 0, Buffer.alloc(4));
    people
      .db()
      .update(bookings)
      .set({ status: "CANCELLED" })
      .where(eq(bookings.id, booking.id))
      .run();
    const last = await client.patch(location, 4, Buffer.alloc(6));
    expect(last.status).toBe(422);
    expect(await message(last)).toBe(SESSION_FILE_MESSAGES.notRecorded);
    const key = location.split("/").pop() ?? "";
    expect(filesOf(booking.id)).toEqual([]);
    expect(listDir(storedDir())).not.toContain(key);
    expect(listDir(uploadsDir()).filter((name) => name.startsWith(key))).toEqual([]);
  });

  it("answers only staff: a visitor 401, a customer 403, on every tus method", async () => {
    const { booking, client, owner } = await setup();
    const created = await client.create(booking.id, {
      size: 10,
      name: "a.txt",
      type: "text/plain",
    });
    const location = created.headers.get("Location") ?? "";
    const collection = `/api/admin/bookings/${booking.id}/files`;
    for (const [who, cookie, status] of [
      ["visitor", "", 401],
      ["customer", owner.cookie, 403],
    ] as const) {
      const headers = { ...TUS, Cookie: cookie };
      const requests: [string, RequestInit][] = [
        [collection, { method: "POST", headers: { ...headers, "Upload-Length": "5" } }],
        [location, { method: "HEAD", headers }],
        [
          location,
          {
            method: "PATCH",
            headers: {
              ...headers,
              "Upload-Offset": "0",
              "Content-Type": "application/offset+octet-stream",
            },
            body: Buffer.alloc(10),
          },
        ],
        [location, { method: "DELETE", headers }],
      ];
      for (const [path, init] of requests) {
        const response = await fetch(`${server.url}${path}`, init);
        expect(response.status, `${who} ${init.method} ${path}`).toBe(status);
      }
    }
    // The upload was not touched by any of them.
    const head = await client.head(location);
    expect(head.headers.get("Upload-Offset")).toBe("0");
    expect(filesOf(booking.id)).toEqual([]);
  });

  it("refuses GET on an upload's URL and other methods on the collection", async () => {
    const { admin, booking, client } = await setup();
    const created = await client.create(booking.id, {
      size: 10,
      name: "a.txt",
      type: "text/plain",
    });
    const location = created.headers.get("Location") ?? "";
    const get = await fetch(`${server.url}${location}`, { headers: { Cookie: admin.cookie } });
    expect(get.status).toBe(405);
    expect(get.headers.get("Allow")).toBe("HEAD, PATCH, DELETE");
    const list = await fetch(`${server.url}/api/admin/bookings/${booking.id}/files`, {
      headers: { Cookie: admin.cookie },
    });
    expect(list.status).toBe(405);
    expect(list.headers.get("Allow")).toBe("POST");
  });
});

describe("hostile tus headers", () => {
  it.each([
    ["Upload-Length", "abc"],
    ["Upload-Length", "-5"],
    ["Upload-Length", "1e3"],
    ["Upload-Length", "99999999999999999999999"],
    ["Upload-Length", ""],
    ["Upload-Metadata", "filename !!!"],
    ["Upload-Metadata", "filename"],
    ["Upload-Metadata", "filename YS53YXY=,filename YS53YXY="],
    [
      "Upload-Metadata",
      `filename ${Buffer.from("a.wav").toString("base64")},filetype ${Buffer.from("audio/wav\r\nX: 1").toString("base64")}`,
    ],
    ["Upload-Concat", "final;/a /b"],
  ])("creation with %s: %j is refused in our words, nothing stored", async (header, value) => {
    const { admin, booking } = await setup();
    const before = people.snapshot();
    const uploadsBefore = listDir(uploadsDir());
    const response = await fetch(`${server.url}/api/admin/bookings/${booking.id}/files`, {
      method: "POST",
      headers: {
        ...TUS,
        Cookie: admin.cookie,
        "Upload-Length": "5",
        "Upload-Metadata": tusMetadata({ filename: "a.wav", filetype: "audio/wav" }),
        [header]: value,
      },
    });
    expect(response.status).toBeGreaterThanOrEqual(400);
    expect(response.status).toBeLessThan(500);
    const text = await message(response);
    expect(text).not.toMatch(/\n|Maximum size|Invalid |upload-/);
    expect(people.snapshot()).toEqual(before);
    expect(listDir(uploadsDir())).toEqual(uploadsBefore);
  });

  it.each(["abc", "-1", "1.5", "999999999999"])(
    "a PATCH with Upload-Offset %j is refused, the upload untouched",
    async (offset) => {
      const { admin, booking, client } = await setup();
      const created = await client.create(booking.id, {
        size: 5,
        name: "a.txt",
        type: "text/plain",
      });
      const location = created.headers.get("Location") ?? "";
      const response = await fetch(`${server.url}${location}`, {
        method: "PATCH",
        headers: {
          ...TUS,
          Cookie: admin.cookie,
          "Upload-Offset": offset,
          "Content-Type": "application/offset+octet-stream",
        },
        body: "abcde",
      });
      expect(response.status).toBeGreaterThanOrEqual(400);
      expect(response.status).toBeLessThan(500);
      await response.arrayBuffer();
      expect((await client.head(location)).headers.get("Upload-Offset")).toBe("0");
      expect(filesOf(booking.id)).toEqual([]);
    },
  );
});

describe("the no-JavaScript form", () => {
  function form(file?: { bytes: Buffer; name: string; type: string }) {
    const body = new FormData();
    body.set("intent", "file-upload");
    if (file)
      body.set("file", new Blob([new Uint8Array(file.bytes)], { type: file.type }), file.name);
    return body;
  }

  function post(
    bookingId: number,
    cookie: string,
    body: FormData | string,
    accept = "application/json",
  ) {
    return fetch(`${server.url}/api/admin/bookings/${bookingId}/files`, {
      method: "POST",
      headers: { Cookie: cookie, Accept: accept },
      body,
      redirect: "manual",
    });
  }

  it("streams one file to storage and answers a JSON client 201 { file }", async () => {
    const { admin, booking } = await setup();
    const bytes = randomBytes(500_000);
    const response = await post(
      booking.id,
      admin.cookie,
      form({ bytes, name: "Épisode clip.mp4", type: "video/mp4" }),
    );
    expect(response.status).toBe(201);
    const { file } = (await response.json()) as {
      file: { id: number; name: string; downloadUrl: string };
    };
    expect(file).toMatchObject({
      name: "Épisode clip.mp4",
      contentType: "video/mp4",
      size: 500_000,
      deliveredAt: null,
    });
    expect(file.downloadUrl).toBe(`/api/bookings/${booking.id}/files/${file.id}`);
    const [row] = filesOf(booking.id);
    expect(row?.sha256).toBe(sha256(bytes));
    expect(sha256(readFileSync(join(storedDir(), row?.storageKey ?? "")))).toBe(sha256(bytes));
  });

  it("sends a browser back to the booking's page with a toast (303)", async () => {
    const { admin, booking } = await setup();
    const ok = await post(
      booking.id,
      admin.cookie,
      form({ bytes: Buffer.from("hello"), name: "notes.txt", type: "text/plain" }),
      "text/html",
    );
    expect(ok.status).toBe(303);
    expect(ok.headers.get("Location")).toBe(`/admin/bookings/${booking.id}`);
    expect(ok.headers.get("Set-Cookie")).toMatch(/toast-session=/);
    const refused = await post(
      booking.id,
      admin.cookie,
      form({ bytes: Buffer.from("<p>"), name: "a.html", type: "text/html" }),
      "text/html",
    );
    expect(refused.status).toBe(303);
    expect(refused.headers.get("Set-Cookie")).toMatch(/toast-session=/);
    // The toast shows on the page it lands on.
    const cookie = `${admin.cookie}; ${(refused.headers.get("Set-Cookie") ?? "").split(";")[0]}`;
    const page = await fetch(`${server.url}/admin/bookings/${booking.id}`, {
      headers: { Cookie: cookie },
    });
    expect(await page.text()).toContain(SESSION_FILE_MESSAGES.contentType);
    expect(filesOf(booking.id).map((file) => file.name)).toEqual(["notes.txt"]);
  });

  it.each([
    [
      "too large",
      { bytes: Buffer.alloc(FORM_LIMIT_BYTES + 1), name: "big.wav", type: "audio/wav" },
      413,
      "This form takes files up to 1 MB. Use the uploader (with JavaScript on) for larger files.",
    ],
    [
      "a bad type",
      { bytes: Buffer.from("MZ"), name: "setup.exe", type: "application/x-msdownload" },
      415,
      SESSION_FILE_MESSAGES.contentType,
    ],
    [
      "a bad name",
      { bytes: Buffer.from("x"), name: "..", type: "text/plain" },
      400,
      SESSION_FILE_MESSAGES.nameReserved,
    ],
    [
      "an empty file",
      { bytes: Buffer.alloc(0), name: "empty.txt", type: "text/plain" },
      400,
      SESSION_FILE_MESSAGES.empty,
    ],
  ])("refuses %s with nothing stored", async (_label, file, status, text) => {
    const { admin, booking } = await setup();
    const before = people.snapshot();
    const storedBefore = listDir(storedDir());
    const response = await post(booking.id, admin.cookie, form(file));
    expect(response.status).toBe(status);
    expect(await message(response)).toBe(text);
    expect(people.snapshot()).toEqual(before);
    expect(listDir(storedDir())).toEqual(storedBefore);
    expect(listDir(uploadsDir()).filter((name) => name.endsWith(".form"))).toEqual([]);
  });

  it("refuses a form without a file, a body that is not a form, and an unrecorded booking", async () => {
    const { admin, booking, owner } = await setup();
    const none = await post(booking.id, admin.cookie, form());
    expect(none.status).toBe(400);
    expect(await message(none)).toBe(SESSION_FILE_MESSAGES.noFileChosen);
    const text = await post(booking.id, admin.cookie, "file=abc");
    expect(text.status).toBe(415);
    const confirmed = seedBooking(owner, "CONFIRMED");
    const early = await post(
      confirmed.id,
      admin.cookie,
      form({ bytes: Buffer.from("x"), name: "a.txt", type: "text/plain" }),
    );
    expect(early.status).toBe(422);
    expect(await message(early)).toBe(SESSION_FILE_MESSAGES.notRecorded);
    expect(filesOf(booking.id)).toEqual([]);
    expect(filesOf(confirmed.id)).toEqual([]);
  });

  it("a customer cannot post it (403), a visitor neither (401)", async () => {
    const { booking, owner } = await setup();
    const body = () => form({ bytes: Buffer.from("x"), name: "a.txt", type: "text/plain" });
    expect((await post(booking.id, owner.cookie, body())).status).toBe(403);
    expect((await post(booking.id, "", body())).status).toBe(401);
    expect(filesOf(booking.id)).toEqual([]);
  });

  it("a form cut midway leaves no file and no partial bytes", async () => {
    const { admin, booking } = await setup();
    const boundary = "----cut";
    const head = `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="cut.wav"\r\nContent-Type: audio/wav\r\n\r\n`;
    const declared = head.length + 600_000 + `\r\n--${boundary}--\r\n`.length;
    const { hostname, port } = new URL(server.url);
    const net = await import("node:net");
    await new Promise<void>((resolve, reject) => {
      const socket = net.connect(Number(port), hostname, () => {
        socket.write(
          `POST /api/admin/bookings/${booking.id}/files HTTP/1.1\r\nHost: ${hostname}:${port}\r\nCookie: ${admin.cookie}\r\nAccept: application/json\r\nContent-Type: multipart/form-data; boundary=${boundary}\r\nContent-Length: ${declared}\r\n\r\n${head}`,
        );
        socket.write(Buffer.alloc(200_000), () => {
          socket.destroy();
          resolve();
        });
      });
      socket.on("error", reject);
    });
    // The server notices the cut and deletes the partial file; ask until it has.
    await expect
      .poll(() => listDir(uploadsDir()).filter((name) => name.endsWith(".form")), {
        timeout: 10_000,
      })
      .toEqual([]);
    expect(filesOf(booking.id)).toEqual([]);
    // And it still answers.
    const after = await post(
      booking.id,
      admin.cookie,
      form({ bytes: Buffer.from("ok"), name: "ok.txt", type: "text/plain" }),
    );
    expect(after.status).toBe(201);
  });
});

describe("downloads", () => {
  async function seeded() {
    const admin = await people.signUpAdmin();
    const owner = await people.signUp();
    const stranger = await people.signUp();
    const booking = seedBooking(owner, "COMPLETED");
    const content = randomBytes(10_000);
    const delivered = createBookingFile(people.db(), {
      bookingId: booking.id,
      filesDir: server.filesDir,
      content,
      name: 'Ep 1 "final" — mix.wav',
      contentType: "audio/wav",
      delivered: true,
    });
    const draft = createBookingFile(people.db(), {
      bookingId: booking.id,
      filesDir: server.filesDir,
      name: "draft.txt",
    });
    return { admin, owner, stranger, booking, content, delivered, draft };
  }

  const get = (path: string, actor?: Actor, headers: Record<string, string> = {}) =>
    fetch(`${server.url}${path}`, {
      headers: { ...(actor ? { Cookie: actor.cookie } : {}), ...headers },
      redirect: "manual",
    });

  it("lists delivered files to the owner and every file to staff", async () => {
    const { admin, owner, booking, delivered, draft } = await seeded();
    const own = await get(`/api/bookings/${booking.id}/files`, owner);
    expect(own.status).toBe(200);
    const ownList = (await own.json()) as { id: number; downloadUrl: string; expiresAt: string }[];
    expect(ownList.map((file) => file.id)).toEqual([delivered.id]);
    expect(ownList[0]).toMatchObject({
      name: delivered.name,
      size: 10_000,
      contentType: "audio/wav",
      downloadUrl: `/api/bookings/${booking.id}/files/${delivered.id}`,
      expiresAt: new Date(delivered.expiresAt ?? 0).toISOString(),
    });
    const staff = (await (await get(`/api/bookings/${booking.id}/files`, admin)).json()) as {
      id: number;
    }[];
    expect(staff.map((file) => file.id)).toEqual([delivered.id, draft.id]);
  });

  it("gives the owner the bytes as an attachment with a clean name", async () => {
    const { owner, booking, content, delivered } = await seeded();
    const response = await get(`/api/bookings/${booking.id}/files/${delivered.id}`, owner);
    expect(response.status).toBe(200);
    expect(response.headers.get("Content-Type")).toBe("audio/wav");
    expect(response.headers.get("Content-Length")).toBe("10000");
    expect(response.headers.get("Accept-Ranges")).toBe("bytes");
    expect(response.headers.get("X-Content-Type-Options")).toBe("nosniff");
    expect(response.headers.get("Content-Disposition")).toBe(
      `attachment; filename="Ep 1 _final_ _ mix.wav"; filename*=UTF-8''Ep%201%20%22final%22%20%E2%80%94%20mix.wav`,
    );
    expect(response.headers.get("ETag")).toMatch(/^"f\d+-10000-\d+"$/);
    expect(response.headers.get("Last-Modified")).toBe(new Date(delivered.createdAt).toUTCString());
    expect(Buffer.from(await response.arrayBuffer()).equals(content)).toBe(true);
  });

  it("resumes with Range (206), checks If-Range, and refuses a range outside the file (416)", async () => {
    const { owner, booking, content, delivered } = await seeded();
    const path = `/api/bookings/${booking.id}/files/${delivered.id}`;
    const first = await get(path, owner, { Range: "bytes=0-3999" });
    expect(first.status).toBe(206);
    expect(first.headers.get("Content-Range")).toBe("bytes 0-3999/10000");
    const etag = first.headers.get("ETag") ?? "";
    const firstPart = Buffer.from(await first.arrayBuffer());
    const rest = await get(path, owner, { Range: "bytes=4000-", "If-Range": etag });
    expect(rest.status).toBe(206);
    expect(rest.headers.get("Content-Range")).toBe("bytes 4000-9999/10000");
    expect(rest.headers.get("Content-Length")).toBe("6000");
    const whole = Buffer.concat([firstPart, Buffer.from(await rest.arrayBuffer())]);
    expect(sha256(whole)).toBe(sha256(content));

    const suffix = await get(path, owner, { Range: "bytes=-10" });
    expect(suffix.status).toBe(206);
    expect(Buffer.from(await suffix.arrayBuffer()).equals(content.subarray(-10))).toBe(true);

    const stale = await get(path, owner, { Range: "bytes=4000-", "If-Range": '"f0-1-2"' });
    expect(stale.status).toBe(200);
    expect((await stale.arrayBuffer()).byteLength).toBe(10_000);

    const several = await get(path, owner, { Range: "bytes=0-1,5-6" });
    expect(several.status).toBe(200);
    await several.arrayBuffer();

    const outside = await get(path, owner, { Range: "bytes=10000-" });
    expect(outside.status).toBe(416);
    expect(outside.headers.get("Content-Range")).toBe("bytes */10000");
    expect(await message(outside)).toMatch(/part of the file/);

    const head = await fetch(`${server.url}${path}`, {
      method: "HEAD",
      headers: { Cookie: owner.cookie },
    });
    expect(head.status).toBe(200);
    expect(head.headers.get("Content-Length")).toBe("10000");
  });

  it("answers 404 to another customer on every file URL, and to the owner for an undelivered file", async () => {
    const { owner, stranger, booking, delivered, draft } = await seeded();
    for (const path of [
      `/api/bookings/${booking.id}/files`,
      `/api/bookings/${booking.id}/files/${delivered.id}`,
      `/api/bookings/${booking.id}/files/${draft.id}`,
    ]) {
      const response = await get(path, stranger);
      expect(response.status, path).toBe(404);
      await response.arrayBuffer();
    }
    expect((await get(`/api/bookings/${booking.id}/files/${draft.id}`, owner)).status).toBe(404);
    expect((await get(`/api/bookings/${booking.id}/files/999999`, owner)).status).toBe(404);
    expect((await get(`/api/bookings/${booking.id}/files/abc`, owner)).status).toBe(404);
    expect((await get(`/api/bookings/999999/files`, owner)).status).toBe(404);
  });

  it("a file id under another booking's path is not found, even for its owner", async () => {
    const { owner, delivered } = await seeded();
    const other = seedBooking(owner, "COMPLETED");
    expect((await get(`/api/bookings/${other.id}/files/${delivered.id}`, owner)).status).toBe(404);
  });

  it("a visitor gets 401; an expired file is gone from the list and the URL", async () => {
    const { owner, booking, delivered } = await seeded();
    expect((await get(`/api/bookings/${booking.id}/files`)).status).toBe(401);
    expect((await get(`/api/bookings/${booking.id}/files/${delivered.id}`)).status).toBe(401);
    people
      .db()
      .update(bookingFiles)
      .set({ expiresAt: Date.now() - 1 })
      .where(eq(bookingFiles.id, delivered.id))
      .run();
    expect(await (await get(`/api/bookings/${booking.id}/files`, owner)).json()).toEqual([]);
    expect((await get(`/api/bookings/${booking.id}/files/${delivered.id}`, owner)).status).toBe(
      404,
    );
  });

  it("a cancelled booking keeps its delivered files for their owner", async () => {
    const { owner, booking, delivered } = await seeded();
    people
      .db()
      .update(bookings)
      .set({ status: "CANCELLED" })
      .where(eq(bookings.id, booking.id))
      .run();
    const response = await get(`/api/bookings/${booking.id}/files/${delivered.id}`, owner);
    expect(response.status).toBe(200);
    await response.arrayBuffer();
  });
});

describe("the body limit", () => {
  it("lets an upload past 1 MB through to the files route while every other route keeps it", async () => {
    const { admin, booking, client } = await setup();
    const big = Buffer.alloc(1_500_000, 1);
    const elsewhere = await fetch(`${server.url}/api/admin/bookings/${booking.id}`, {
      method: "PUT",
      headers: { Cookie: admin.cookie, "Content-Type": "application/json" },
      body: new Uint8Array(big),
    });
    expect(elsewhere.status).toBe(413);
    expect(await message(elsewhere)).toBe("Request too large");
    const created = await client.create(booking.id, {
      size: 1_050_000,
      name: "a.wav",
      type: "audio/wav",
    });
    const patched = await client.patch(
      created.headers.get("Location") ?? "",
      0,
      big.subarray(0, 1_050_000),
    );
    expect(patched.status).toBe(204);
    expect(filesOf(booking.id)).toHaveLength(1);
  });
});

describe("an upload refused before its body is read", () => {
  /**
   * Streams `total` bytes as the body of a post to the upload URL, as fast as the connection
   * takes them, and reports how many the server took before it answered and closed.
   */
  function postHugeBody(bookingId: number, total: number) {
    const { hostname, port } = new URL(server.url);
    return new Promise<{ head: string; written: number; closed: boolean }>((resolve) => {
      const socket = connect(Number(port), hostname);
      let reply = "";
      let written = 0;
      let closed = false;
      socket.on("data", (chunk: Buffer) => {
        reply += chunk.toString("latin1");
      });
      socket.on("error", () => {});
      socket.on("close", () => {
        closed = true;
      });
      const chunk = Buffer.alloc(256 * 1024, 7);
      const pump = () => {
        while (!closed && written < total) {
          written += chunk.length;
          if (!socket.write(chunk)) return void socket.once("drain", pump);
        }
      };
      socket.write(
        `POST /api/admin/bookings/${bookingId}/files HTTP/1.1\r\nHost: ${hostname}\r\n` +
          `Tus-Resumable: 1.0.0\r\nContent-Type: application/offset+octet-stream\r\n` +
          `Content-Length: ${total}\r\n\r\n`,
      );
      pump();
      // Whatever happened, look after the server has had ample time to read it all.
      setTimeout(() => {
        socket.destroy();
        resolve({ head: reply.split("\r\n\r\n", 1)[0] ?? "", written, closed });
      }, 3_000);
    });
  }

  it("lets a client finish sending a body of some megabytes, so it reads its 401", async () => {
    const { booking } = await setup();
    // More than the connection's buffers hold: closed at once, the client's write would fail.
    const form = new FormData();
    form.append("file", new Blob([new Uint8Array(8 * 1024 ** 2)]), "take.wav");
    const response = await fetch(`${server.url}/api/admin/bookings/${booking.id}/files`, {
      method: "POST",
      body: form,
    });
    expect(response.status).toBe(401);
    expect(response.headers.get("Connection")).toBe("close");
  });

  it("answers a visitor 401 with Connection: close and stops reading the rest", async () => {
    const { booking } = await setup();
    const total = 2 * 1024 ** 3;
    const { head, written, closed } = await postHugeBody(booking.id, total);
    expect(head).toMatch(/^HTTP\/1\.1 401/);
    expect(head).toMatch(/\r\nConnection: close/i);
    expect(closed).toBe(true);
    // Socket buffers take some megabytes; drained, the 2 GiB would have gone through.
    expect(written).toBeLessThan(256 * 1024 ** 2);
  });
});
