import { and, eq, isNull } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { bookingFiles, emailOutbox } from "#db/schema";
import type { BookingStatus } from "#app/domain/booking-status";
import { SESSION_FILE_MESSAGES } from "#app/domain/session-files";
import { addStudioDays, studioDateOf } from "#app/domain/studio-time";
import { createBooking } from "#tests/factories/booking";
import type { Actor } from "#tests/setup/actors";
import { actorsFor } from "#tests/setup/actors";
import { serverForThisFile } from "#tests/setup/server-for-this-file";

/**
 * The pages of session files (docs/product.md "Booking page", "Session Details", "Session
 * files"): the admin booking page's Files section and its three forms (`file-rename`,
 * `file-delete`, `files-deliver`), and "Your files" on the customer's Session Details, against
 * the production build: every refusal with its status and message, and that it wrote nothing.
 * Files are uploaded through the JSON side of the upload URL, as an API client would.
 */
const server = serverForThisFile({ MAX_FORM_UPLOAD_MB: "1" });
const { db, signUp, signUpAdmin, snapshot } = actorsFor(server);

let day = 0;
function sessionOf(customer: Actor, status: BookingStatus): number {
  day += 1;
  return createBooking(db(), {
    user: { id: customer.id },
    date: addStudioDays(studioDateOf(Date.now()), -30 - day),
    status,
  }).id;
}

async function upload(
  admin: Actor,
  bookingId: number,
  name: string,
  type = "audio/wav",
  bytes: Buffer = Buffer.from("RIFF fake wave bytes"),
): Promise<number> {
  const form = new FormData();
  form.append("file", new Blob([new Uint8Array(bytes)], { type }), name);
  const response = await fetch(`${server.url}/api/admin/bookings/${bookingId}/files`, {
    method: "POST",
    headers: { Origin: server.url, Cookie: admin.cookie, Accept: "application/json" },
    body: form,
  });
  expect(response.status, await response.clone().text()).toBe(201);
  return ((await response.json()) as { file: { id: number } }).file.id;
}

function page(path: string, cookie: string) {
  return fetch(`${server.url}${path}`, { headers: { Cookie: cookie }, redirect: "manual" });
}

function post(bookingId: number | string, cookie: string, fields: Record<string, string>) {
  return fetch(`${server.url}/admin/bookings/${bookingId}`, {
    method: "POST",
    redirect: "manual",
    headers: { Origin: server.url, Cookie: cookie },
    body: new URLSearchParams(fields),
  });
}

/** A refused post: its status and page, and proof that it changed nothing. */
async function refused(send: () => Promise<Response>) {
  const before = snapshot();
  const response = await send();
  const body = await response.text();
  expect(snapshot()).toEqual(before);
  return { status: response.status, body };
}

function namesOf(bookingId: number): string[] {
  return db()
    .select({ name: bookingFiles.name })
    .from(bookingFiles)
    .where(and(eq(bookingFiles.bookingId, bookingId), isNull(bookingFiles.deletedAt)))
    .all()
    .map((row) => row.name)
    .sort();
}

/** HTML-escaped, as the page writes text. */
function html(text: string): string {
  return text.replaceAll("&", "&amp;").replaceAll("'", "&#x27;").replaceAll('"', "&quot;");
}

describe("the booking page's Files section", () => {
  it("lists every file and offers the form upload with its limit", async () => {
    const admin = await signUpAdmin();
    const customer = await signUp();
    const bookingId = sessionOf(customer, "RECORDED");
    const fileId = await upload(admin, bookingId, "take1.wav");
    const response = await page(`/admin/bookings/${bookingId}`, admin.cookie);
    expect(response.status).toBe(200);
    const body = await response.text();
    expect(body).toContain("take1.wav");
    expect(body).toContain("Audio (WAV)");
    expect(body).toContain(`href="/api/bookings/${bookingId}/files/${fileId}"`);
    expect(body).toContain(`action="/api/admin/bookings/${bookingId}/files"`);
    // HTML attribute names are case-insensitive; React writes this one `encType`.
    expect(body).toMatch(/<form[^>]* enctype="multipart\/form-data"/i);
    expect(body).toContain("One file at a time, up to 1 MB");
    expect(body).toContain("Mark files delivered");
  });

  it("says why a booking not yet recorded takes no files, and offers no form", async () => {
    const admin = await signUpAdmin();
    const customer = await signUp();
    for (const status of ["PENDING_PAYMENT", "CONFIRMED"] as const) {
      const bookingId = sessionOf(customer, status);
      const body = await (await page(`/admin/bookings/${bookingId}`, admin.cookie)).text();
      expect(body).toContain("Files can be added once the session is recorded.");
      expect(body).not.toContain(`action="/api/admin/bookings/${bookingId}/files"`);
    }
    const cancelled = sessionOf(customer, "CANCELLED");
    const body = await (await page(`/admin/bookings/${cancelled}`, admin.cookie)).text();
    expect(body).toContain("This booking is cancelled, so no new files can be added.");
  });
});

describe("file-rename", () => {
  it("renames, and comes back to the page", async () => {
    const admin = await signUpAdmin();
    const bookingId = sessionOf(await signUp(), "POST_PRODUCTION");
    const fileId = await upload(admin, bookingId, "take1.wav");
    const response = await post(bookingId, admin.cookie, {
      intent: "file-rename",
      fileId: String(fileId),
      name: "  Episode 12 – raw.wav ",
    });
    expect(response.status).toBe(302);
    expect(response.headers.get("Location")).toBe(`/admin/bookings/${bookingId}`);
    expect(namesOf(bookingId)).toEqual(["Episode 12 – raw.wav"]);
  });

  it("refuses a bad name at its field and changes nothing", async () => {
    const admin = await signUpAdmin();
    const bookingId = sessionOf(await signUp(), "RECORDED");
    const fileId = await upload(admin, bookingId, "take1.wav");
    const cases: [string, string][] = [
      ["show/notes.wav", SESSION_FILE_MESSAGES.nameSeparator],
      ["show\\notes.wav", SESSION_FILE_MESSAGES.nameSeparator],
      ["take\u0007.wav", SESSION_FILE_MESSAGES.nameControl],
      ["..", SESSION_FILE_MESSAGES.nameReserved],
      ["   ", SESSION_FILE_MESSAGES.nameRequired],
      ["x".repeat(201), SESSION_FILE_MESSAGES.nameTooLong],
    ];
    for (const [name, message] of cases) {
      const { status, body } = await refused(() =>
        post(bookingId, admin.cookie, { intent: "file-rename", fileId: String(fileId), name }),
      );
      expect(status, name).toBe(400);
      expect(body, name).toContain(html(message));
      expect(body, name).toContain("File not renamed");
    }
    // No name at all.
    const { status, body } = await refused(() =>
      post(bookingId, admin.cookie, { intent: "file-rename", fileId: String(fileId) }),
    );
    expect(status).toBe(400);
    expect(body).toContain(html(SESSION_FILE_MESSAGES.nameRequired));
    expect(namesOf(bookingId)).toEqual(["take1.wav"]);
  });

  it("refuses an unknown file, and another booking's file, changing nothing", async () => {
    const admin = await signUpAdmin();
    const customer = await signUp();
    const bookingId = sessionOf(customer, "RECORDED");
    const otherBooking = sessionOf(customer, "RECORDED");
    const othersFile = await upload(admin, otherBooking, "other.wav");
    for (const fileId of ["999999", "abc", "", String(othersFile)]) {
      const { status, body } = await refused(() =>
        post(bookingId, admin.cookie, { intent: "file-rename", fileId, name: "new.wav" }),
      );
      expect(status, fileId).toBe(400);
      expect(body, fileId).toContain(html(SESSION_FILE_MESSAGES.fileNotFound));
    }
    expect(namesOf(otherBooking)).toEqual(["other.wav"]);
  });

  it("answers 404 for an unknown booking", async () => {
    const admin = await signUpAdmin();
    for (const id of ["999999", "abc"]) {
      const { status } = await refused(() =>
        post(id, admin.cookie, { intent: "file-rename", fileId: "1", name: "x.wav" }),
      );
      expect(status, id).toBe(404);
    }
  });
});

describe("file-delete", () => {
  it("deletes the file: gone from the page and from the download URL", async () => {
    const admin = await signUpAdmin();
    const bookingId = sessionOf(await signUp(), "COMPLETED");
    const keep = await upload(admin, bookingId, "keep.wav");
    const drop = await upload(admin, bookingId, "drop.wav");
    const response = await post(bookingId, admin.cookie, {
      intent: "file-delete",
      fileId: String(drop),
    });
    expect(response.status).toBe(302);
    expect(namesOf(bookingId)).toEqual(["keep.wav"]);
    const download = await page(`/api/bookings/${bookingId}/files/${drop}`, admin.cookie);
    expect(download.status).toBe(404);
    const kept = await page(`/api/bookings/${bookingId}/files/${keep}`, admin.cookie);
    expect(kept.status).toBe(200);

    // Deleting it again is refused, and changes nothing.
    const { status, body } = await refused(() =>
      post(bookingId, admin.cookie, { intent: "file-delete", fileId: String(drop) }),
    );
    expect(status).toBe(400);
    expect(body).toContain(html(SESSION_FILE_MESSAGES.fileNotFound));
  });

  it("refuses a file id that is not one", async () => {
    const admin = await signUpAdmin();
    const bookingId = sessionOf(await signUp(), "RECORDED");
    await upload(admin, bookingId, "keep.wav");
    for (const fileId of ["-1", "1.5", "0x10"]) {
      const { status } = await refused(() =>
        post(bookingId, admin.cookie, { intent: "file-delete", fileId }),
      );
      expect(status, fileId).toBe(400);
    }
    expect(namesOf(bookingId)).toEqual(["keep.wav"]);
  });
});

describe("files-deliver", () => {
  it("delivers every file once, e-mails the customer once; the customer then sees them", async () => {
    const admin = await signUpAdmin();
    const customer = await signUp();
    const stranger = await signUp();
    const bookingId = sessionOf(customer, "RECORDED");
    const fileId = await upload(admin, bookingId, "take1.wav");

    // Before delivery the customer's page says the files are coming, and shows none.
    const before = await (await page(`/dashboard/sessions/${bookingId}`, customer.cookie)).text();
    expect(before).toContain("Your files");
    expect(before).toContain("The studio is preparing your files.");
    expect(before).not.toContain("take1.wav");

    const response = await post(bookingId, admin.cookie, { intent: "files-deliver" });
    expect(response.status).toBe(302);
    const mails = () =>
      server.db
        .select()
        .from(emailOutbox)
        .where(and(eq(emailOutbox.bookingId, bookingId), eq(emailOutbox.kind, "files-ready")))
        .all();
    expect(mails()).toHaveLength(1);

    // Nothing new to deliver: refused, no second e-mail.
    const { status, body } = await refused(() =>
      post(bookingId, admin.cookie, { intent: "files-deliver" }),
    );
    expect(status).toBe(400);
    expect(body).toContain(html(SESSION_FILE_MESSAGES.nothingToDeliver));
    expect(mails()).toHaveLength(1);

    const after = await (await page(`/dashboard/sessions/${bookingId}`, customer.cookie)).text();
    expect(after).toContain("take1.wav");
    expect(after).toContain(`href="/api/bookings/${bookingId}/files/${fileId}"`);
    expect(after).toContain("Available until");
    expect(after).toMatch(/<audio[^>]*preload="none"/);

    // Another customer gets the not-found page, not the files.
    const foreign = await page(`/dashboard/sessions/${bookingId}`, stranger.cookie);
    expect(foreign.status).toBe(404);
    expect(await foreign.text()).not.toContain("take1.wav");
  });

  it("shows the customer only delivered files, and nothing before the session is recorded", async () => {
    const admin = await signUpAdmin();
    const customer = await signUp();
    const upcoming = sessionOf(customer, "CONFIRMED");
    const body = await (await page(`/dashboard/sessions/${upcoming}`, customer.cookie)).text();
    expect(body).not.toContain("Your files");

    const bookingId = sessionOf(customer, "RECORDED");
    await upload(admin, bookingId, "first.wav");
    expect((await post(bookingId, admin.cookie, { intent: "files-deliver" })).status).toBe(302);
    await upload(admin, bookingId, "second.wav");
    const page2 = await (await page(`/dashboard/sessions/${bookingId}`, customer.cookie)).text();
    expect(page2).toContain("first.wav");
    expect(page2).not.toContain("second.wav");
  });
});

describe("who may post the file forms", () => {
  it("sends a customer, even the booking's owner, to the dashboard and changes nothing", async () => {
    const admin = await signUpAdmin();
    const customer = await signUp();
    const bookingId = sessionOf(customer, "RECORDED");
    const fileId = await upload(admin, bookingId, "take1.wav");
    const forms: Record<string, string>[] = [
      { intent: "file-rename", fileId: String(fileId), name: "mine.wav" },
      { intent: "file-delete", fileId: String(fileId) },
      { intent: "files-deliver" },
    ];
    for (const fields of forms) {
      const before = snapshot();
      const response = await post(bookingId, customer.cookie, fields);
      expect(snapshot()).toEqual(before);
      expect(response.status, fields.intent).toBe(302);
      expect(response.headers.get("Location"), fields.intent).toBe("/dashboard");
    }
    expect(namesOf(bookingId)).toEqual(["take1.wav"]);
    // A visitor is sent to sign in.
    const visitor = await post(bookingId, "", { intent: "files-deliver" });
    expect(visitor.status).toBe(302);
    expect(visitor.headers.get("Location")).toBe("/auth");
  });
});
