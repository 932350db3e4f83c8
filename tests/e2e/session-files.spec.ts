import { readFile } from "node:fs/promises";
import type { Page, Route, TestInfo } from "@playwright/test";
import { and, eq, isNull } from "drizzle-orm";
import { bookingFiles, bookings, emailOutbox } from "#db/schema";
import type { BookingStatus } from "#app/domain/booking-status";
import { SESSION_FILE_MESSAGES } from "#app/domain/session-files";
import {
  addDays,
  db,
  expect,
  expectNoAxeViolations,
  jsOn,
  signIn,
  studioToday,
  type TestUser,
  test,
  toast,
} from "#tests/e2e/fixtures";
import { createBooking } from "#tests/factories/booking";

/**
 * Session files through the pages (docs/product.md "Session files", "Booking page", "Session
 * Details"): staff upload on a booking's admin page (tus with JavaScript, the plain form
 * without), rename, delete and mark the files delivered; the customer is e-mailed, sees the
 * files in My Sessions, downloads them (a download resumed with Range matches the bytes) and
 * plays the audio in the page. Runs with JavaScript on and off.
 */

/** A valid mono 16-bit PCM WAV of `seconds` of a 440 Hz tone. */
function wav(seconds: number, rate = 8000): Buffer {
  const samples = seconds * rate;
  const body = Buffer.alloc(samples * 2);
  for (let i = 0; i < samples; i += 1) {
    body.writeInt16LE(Math.round(Math.sin((2 * Math.PI * 440 * i) / rate) * 8000), i * 2);
  }
  const header = Buffer.alloc(44);
  header.write("RIFF", 0, "ascii");
  header.writeUInt32LE(36 + body.length, 4);
  header.write("WAVE", 8, "ascii");
  header.write("fmt ", 12, "ascii");
  header.writeUInt32LE(16, 16);
  header.writeUInt16LE(1, 20); // PCM
  header.writeUInt16LE(1, 22); // mono
  header.writeUInt32LE(rate, 24);
  header.writeUInt32LE(rate * 2, 28); // bytes per second
  header.writeUInt16LE(2, 32); // bytes per frame
  header.writeUInt16LE(16, 34); // bits per sample
  header.write("data", 36, "ascii");
  header.writeUInt32LE(body.length, 40);
  return Buffer.concat([header, body]);
}

type Upload = { name: string; mimeType: string; buffer: Buffer };

const TAKE: Upload = { name: "take1.wav", mimeType: "audio/wav", buffer: wav(2) };
const NOTES: Upload = {
  name: "notes.txt",
  mimeType: "text/plain",
  buffer: Buffer.from("Episode 12: intro at 0:00, guest at 1:10.\n"),
};
const SCRATCH: Upload = {
  name: "scratch.txt",
  mimeType: "text/plain",
  buffer: Buffer.from("a take nobody needs\n"),
};

/**
 * A past session of `customer`, on a day no other journey uses: apart per project and
 * journey, an hour per worker.
 */
function insertSession(
  customer: TestUser,
  testInfo: TestInfo,
  journey: number,
  status: BookingStatus,
): number {
  const projectDays = testInfo.project.name === "js-off" ? 40 : 0;
  return createBooking(db(), {
    user: customer,
    date: addDays(studioToday(), -(200 + projectDays + journey * 4)),
    time: `${10 + (testInfo.workerIndex % 4) * 2}:00`,
    status,
  }).id;
}

function filesSection(page: Page) {
  return page.getByRole("region", { name: "Files", exact: true });
}

function fileRow(page: Page, name: string) {
  return page.getByRole("table").getByRole("row").filter({ hasText: name });
}

/** Uploads with the page's form: the tus uploader with JavaScript, one form post per file without. */
async function uploadFiles(page: Page, files: Upload[]) {
  const section = filesSection(page);
  if (jsOn()) {
    await section.getByLabel("Files to upload").setInputFiles(files);
    await section.getByRole("button", { name: "Upload", exact: true }).click();
    for (const file of files) {
      const uploads = section.getByRole("list", { name: "Uploads" });
      await expect(
        uploads.getByRole("progressbar", { name: `Upload of ${file.name}` }),
      ).toBeVisible();
      await expect(uploads.getByRole("listitem").filter({ hasText: file.name })).toContainText(
        "Uploaded",
      );
      await expect(fileRow(page, file.name)).toBeVisible();
    }
    return;
  }
  for (const file of files) {
    await expect(section).toContainText("up to 200 MB");
    await section.getByLabel("File to upload").setInputFiles(file);
    await section.getByRole("button", { name: "Upload", exact: true }).click();
    await expect(page).toHaveURL(/\/admin\/bookings\/\d+$/);
    await expect(fileRow(page, file.name)).toBeVisible();
  }
}

/** The stored rows of a booking's visible files. */
function storedFiles(bookingId: number) {
  return db()
    .select()
    .from(bookingFiles)
    .where(and(eq(bookingFiles.bookingId, bookingId), isNull(bookingFiles.deletedAt)))
    .all();
}

/** Runs `expression` in the page: its own world with JavaScript, an isolated one without. */
async function inPage<T>(page: Page, expression: string): Promise<T> {
  if (jsOn()) return (await page.evaluate(expression)) as T;
  const cdp = await page.context().newCDPSession(page);
  try {
    const { frameTree } = await cdp.send("Page.getFrameTree");
    const { executionContextId: contextId } = await cdp.send("Page.createIsolatedWorld", {
      frameId: frameTree.frame.id,
      worldName: "e2e-media",
    });
    const { result, exceptionDetails } = await cdp.send("Runtime.evaluate", {
      expression,
      contextId,
      returnByValue: true,
    });
    if (exceptionDetails) throw new Error(`evaluate failed: ${JSON.stringify(exceptionDetails)}`);
    return result.value as T;
  } finally {
    await cdp.detach();
  }
}

test.describe("session files", () => {
  // Two roles, several uploads and downloads, and axe twice, on a two-core machine.
  test.describe.configure({ timeout: 120_000 });

  test("staff upload, rename, delete and deliver; the customer is e-mailed, downloads and plays", async ({
    page,
    admin,
    customer,
  }, testInfo) => {
    const bookingId = insertSession(customer, testInfo, 0, "RECORDED");

    // Staff: the booking's page, no files yet.
    await signIn(page, admin);
    await page.goto(`/admin/bookings/${bookingId}`);
    const section = filesSection(page);
    await expect(section.getByRole("heading", { name: "Files", level: 3 })).toBeVisible();
    await expect(section).toContainText("No files yet.");

    await uploadFiles(page, [TAKE, NOTES, SCRATCH]);
    const stored = storedFiles(bookingId);
    expect(stored.map((file) => file.name).sort()).toEqual([
      "notes.txt",
      "scratch.txt",
      "take1.wav",
    ]);
    await expect(fileRow(page, "take1.wav")).toContainText("Audio (WAV)");
    await expect(fileRow(page, "take1.wav")).toContainText("Not yet");

    // Rename: a name with a separator is refused at the field, nothing changes.
    const notes = fileRow(page, "notes.txt");
    await notes.getByText("Rename…").click();
    const newName = page.getByLabel("New name for notes.txt");
    await newName.fill("show/notes.txt");
    await notes.getByRole("button", { name: "Save name" }).click();
    await expect(toast(page)).toContainText("File not renamed");
    await expect(page.getByLabel("New name for notes.txt")).toHaveAttribute("aria-invalid", "true");
    await expect(fileRow(page, "notes.txt").getByRole("list")).toContainText(
      "A file name cannot contain / or \\",
    );
    expect(storedFiles(bookingId).map((file) => file.name)).toContain("notes.txt");
    await page.getByLabel("New name for notes.txt").fill("Episode 12 notes.txt");
    await fileRow(page, "notes.txt").getByRole("button", { name: "Save name" }).click();
    await expect(toast(page)).toContainText("File renamed");
    await expect(fileRow(page, "Episode 12 notes.txt")).toBeVisible();

    // Delete takes a second click: in the row's disclosure, or with JavaScript in a dialog.
    const scratch = fileRow(page, "scratch.txt");
    await scratch.getByText("Delete…").click();
    const confirm = jsOn()
      ? page.getByRole("alertdialog", { name: "Delete… scratch.txt" })
      : scratch;
    await confirm.getByRole("button", { name: "Delete file scratch.txt" }).click();
    await expect(toast(page)).toContainText("File deleted");
    await expect(fileRow(page, "scratch.txt")).toHaveCount(0);
    expect(
      storedFiles(bookingId)
        .map((file) => file.name)
        .sort(),
    ).toEqual(["Episode 12 notes.txt", "take1.wav"]);

    // Deliver: the client is e-mailed once, with a link to the session and no attachments.
    await expect(section).toContainText("2 files are not delivered yet");
    await section.getByRole("button", { name: "Mark files delivered" }).click();
    await expect(toast(page)).toContainText("Files delivered");
    await expect(section).toContainText("Every file is delivered");
    await expect(fileRow(page, "take1.wav")).not.toContainText("Not yet");
    const mails = db()
      .select()
      .from(emailOutbox)
      .where(eq(emailOutbox.bookingId, bookingId))
      .all()
      .filter((mail) => /files are ready/i.test(mail.subject));
    expect(mails).toHaveLength(1);
    expect(mails[0]?.toAddress).toBe(customer.email);
    expect(mails[0]?.text).toContain(`/dashboard/sessions/${bookingId}`);
    expect(mails[0]?.attachments ?? []).toEqual([]);
    await expectNoAxeViolations(page);

    // The customer: Session Details lists the delivered files.
    await page.context().clearCookies();
    await signIn(page, customer);
    await page.goto(`/dashboard/sessions/${bookingId}`);
    const yours = page.getByRole("region", { name: "Your files" });
    await expect(yours.getByRole("heading", { name: "Your files" })).toBeVisible();
    const take = yours.getByRole("listitem").filter({ hasText: "take1.wav" });
    await expect(take).toContainText("Audio (WAV)");
    await expect(take).toContainText("Available until");
    await expect(
      yours.getByRole("listitem").filter({ hasText: "Episode 12 notes.txt" }),
    ).toBeVisible();
    await expect(yours).not.toContainText("scratch.txt");

    // Downloads: the link's file is the uploaded bytes.
    const [download] = await Promise.all([
      page.waitForEvent("download"),
      take.getByRole("link", { name: "Download take1.wav" }).click(),
    ]);
    expect(download.suggestedFilename()).toBe("take1.wav");
    const downloaded = await readFile((await download.path()) ?? "");
    expect(downloaded.equals(TAKE.buffer)).toBe(true);

    // A download resumed: the first half, then the rest only if the file is still the same.
    const url = `/api/bookings/${bookingId}/files/${stored.find((f) => f.name === "take1.wav")?.id}`;
    const half = Math.floor(TAKE.buffer.length / 2);
    const first = await page.request.get(url, { headers: { Range: `bytes=0-${half - 1}` } });
    expect(first.status()).toBe(206);
    expect(first.headers()["content-range"]).toBe(`bytes 0-${half - 1}/${TAKE.buffer.length}`);
    const validator = first.headers().etag ?? first.headers()["last-modified"] ?? "";
    expect(validator).not.toBe("");
    const rest = await page.request.get(url, {
      headers: { Range: `bytes=${half}-`, "If-Range": validator },
    });
    expect(rest.status()).toBe(206);
    const joined = Buffer.concat([await first.body(), await rest.body()]);
    expect(joined.equals(TAKE.buffer)).toBe(true);

    // The audio plays in the page: its metadata loads, with the recording's two seconds.
    const player = take.getByLabel("Play take1.wav");
    await expect(player).toHaveAttribute("preload", "none");
    const selector = JSON.stringify('audio[aria-label="Play take1.wav"]');
    await player.scrollIntoViewIfNeeded();
    const box = await player.boundingBox();
    if (!box) throw new Error("The audio player is not on screen");
    // The native Play button sits at the player's left end.
    await page.mouse.click(box.x + 20, box.y + box.height / 2);
    await expect
      .poll(() => inPage<number>(page, `document.querySelector(${selector}).readyState`))
      .toBeGreaterThanOrEqual(1);
    const duration = await inPage<number>(page, `document.querySelector(${selector}).duration`);
    expect(duration).toBeCloseTo(2, 1);
    await expect
      .poll(() => inPage<number>(page, `document.querySelector(${selector}).currentTime`))
      .toBeGreaterThan(0);
    await expectNoAxeViolations(page);
  });

  test("a booking not yet recorded takes no files; its page says why", async ({
    page,
    admin,
    customer,
  }, testInfo) => {
    const bookingId = insertSession(customer, testInfo, 1, "CONFIRMED");
    await signIn(page, admin);
    await page.goto(`/admin/bookings/${bookingId}`);
    const section = filesSection(page);
    await expect(section).toContainText("Files can be added once the session is recorded.");
    await expect(section.getByLabel(/Files? to upload/)).toHaveCount(0);

    // The customer's page says nothing about files before the session is recorded.
    await page.context().clearCookies();
    await signIn(page, customer);
    await page.goto(`/dashboard/sessions/${bookingId}`);
    await expect(page.getByRole("heading", { name: "Session Details" })).toBeVisible();
    await expect(page.getByRole("region", { name: "Your files" })).toHaveCount(0);
  });

  test("the uploader pauses, resumes and carries on after a dropped connection; without JavaScript the form refuses a bad file in our words", async ({
    page,
    admin,
    customer,
  }, testInfo) => {
    const bookingId = insertSession(customer, testInfo, 2, "POST_PRODUCTION");
    await signIn(page, admin);
    await page.goto(`/admin/bookings/${bookingId}`);
    const section = filesSection(page);

    if (!jsOn()) {
      await expect(section).toContainText("One file at a time, up to 200 MB");
      await section.getByLabel("File to upload").setInputFiles({
        name: "page.html",
        mimeType: "text/html",
        buffer: Buffer.from("<p>not a recording</p>"),
      });
      await section.getByRole("button", { name: "Upload", exact: true }).click();
      await expect(page).toHaveURL(/\/admin\/bookings\/\d+$/);
      await expect(toast(page)).toContainText("This type of file cannot be uploaded.");
      expect(storedFiles(bookingId)).toEqual([]);
      return;
    }

    // A type outside the allow-list is refused before a byte is sent.
    await section.getByLabel("Files to upload").setInputFiles({
      name: "page.html",
      mimeType: "text/html",
      buffer: Buffer.from("<p>not a recording</p>"),
    });
    await section.getByRole("button", { name: "Upload", exact: true }).click();
    const uploads = section.getByRole("list", { name: "Uploads" });
    await expect(uploads.getByRole("listitem").filter({ hasText: "page.html" })).toContainText(
      "This type of file cannot be uploaded.",
    );

    // The first PATCH is held, so the upload is mid-way when Pause is pressed.
    const uploadUrl = /\/api\/admin\/bookings\/\d+\/files\/[^/?]+$/;
    let held: Route | undefined;
    await page.route(uploadUrl, async (route) => {
      if (route.request().method() === "PATCH" && !held) {
        held = route;
        return;
      }
      await route.fallback();
    });
    const episode: Upload = { name: "episode.wav", mimeType: "audio/wav", buffer: wav(3) };
    await section.getByLabel("Files to upload").setInputFiles(episode);
    await section.getByRole("button", { name: "Upload", exact: true }).click();
    const item = uploads.getByRole("listitem").filter({ hasText: "episode.wav" });
    await expect(item.getByRole("progressbar", { name: "Upload of episode.wav" })).toBeVisible();
    await expect.poll(() => held !== undefined).toBe(true);
    await item.getByRole("button", { name: "Pause upload of episode.wav" }).click();
    await expect(item).toContainText("Paused");
    await held?.abort().catch(() => undefined);
    await page.unroute(uploadUrl);

    // The connection drops under the next PATCH: the uploader tries again by itself.
    let dropped = 0;
    let patches = 0;
    await page.route(uploadUrl, async (route) => {
      if (route.request().method() === "PATCH") {
        patches += 1;
        if (dropped === 0) {
          dropped += 1;
          return route.abort("connectionreset");
        }
      }
      await route.fallback();
    });
    await item.getByRole("button", { name: "Resume upload of episode.wav" }).click();
    await expect(item).toContainText("Uploaded");
    expect(dropped).toBe(1);
    expect(patches).toBeGreaterThanOrEqual(2);
    await expect(item.getByRole("progressbar", { name: "Upload of episode.wav" })).toHaveAttribute(
      "aria-valuetext",
      /^100% /,
    );
    await expect(fileRow(page, "episode.wav")).toBeVisible();
    await page.unroute(uploadUrl);

    // The stored file is the whole recording.
    const [row] = storedFiles(bookingId);
    expect(row?.name).toBe("episode.wav");
    expect(row?.size).toBe(episode.buffer.length);
    const response = await page.request.get(`/api/bookings/${bookingId}/files/${row?.id}`);
    expect((await response.body()).equals(episode.buffer)).toBe(true);

    // A refusal from the server (the booking was cancelled meanwhile, in another tab) shows at
    // once in our words, with no retries and no Resume, and nothing is stored.
    db().update(bookings).set({ status: "CANCELLED" }).where(eq(bookings.id, bookingId)).run();
    await section.getByLabel("Files to upload").setInputFiles({
      name: "late.wav",
      mimeType: "audio/wav",
      buffer: wav(1),
    });
    await section.getByRole("button", { name: "Upload", exact: true }).click();
    const late = uploads.getByRole("listitem").filter({ hasText: "late.wav" });
    await expect(late).toContainText(SESSION_FILE_MESSAGES.notRecorded);
    await expect(late).toContainText("Not uploaded");
    await expect(late.getByRole("button", { name: /Resume/ })).toHaveCount(0);
    expect(storedFiles(bookingId).map((file) => file.name)).toEqual(["episode.wav"]);
  });
});
