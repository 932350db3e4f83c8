import { existsSync, readdirSync, statfsSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { noSpaceForFormMessage, noSpaceMessage } from "#app/domain/session-files";
import { uploadReservations } from "#db/schema";
import { createBooking } from "#tests/factories/booking";
import { actorsFor } from "#tests/setup/actors";
import { serverForThisFile } from "#tests/setup/server-for-this-file";
import { tusClient } from "#tests/setup/tus";

/**
 * Free space is checked before an upload is accepted (docs/product.md "Session files"): with
 * a reserve larger than any disk (FILES_RESERVE_MB, kept free for the database on the same
 * volume), every upload is refused 507 with our message, by tus and by the form, and nothing
 * is stored.
 */
const server = serverForThisFile({ FILES_RESERVE_MB: "100000000" });
const people = actorsFor(server);

const listDir = (dir: string) => (existsSync(dir) ? readdirSync(dir) : []);

describe("no space left", () => {
  it("refuses a tus upload and a form upload that would not fit, storing nothing", async () => {
    const admin = await people.signUpAdmin();
    const owner = await people.signUp();
    const booking = createBooking(people.db(), { user: owner, status: "RECORDED" });
    const before = people.snapshot();

    const tus = await tusClient(server.url, admin.cookie).create(booking.id, {
      size: 1000,
      name: "take.wav",
      type: "audio/wav",
    });
    expect(tus.status).toBe(507);
    expect(((await tus.json()) as { message: string }).message).toBe(noSpaceMessage(1000));

    const body = new FormData();
    body.set("file", new Blob([new Uint8Array(10)], { type: "text/plain" }), "notes.txt");
    const form = await fetch(`${server.url}/api/admin/bookings/${booking.id}/files`, {
      method: "POST",
      headers: { Cookie: admin.cookie, Accept: "application/json" },
      body,
    });
    expect(form.status).toBe(507);
    // The form's size is known only as it arrives: its limit is what must fit.
    expect(((await form.json()) as { message: string }).message).toBe(
      noSpaceForFormMessage(200 * 1024 * 1024),
    );

    expect(people.snapshot()).toEqual(before);
    expect(listDir(join(server.filesDir, "uploads"))).toEqual([]);
    expect(listDir(join(server.filesDir, "files"))).toEqual([]);
  });
});

/**
 * Two uploads at once (docs/product.md "Session files"): the free space after the reserve is
 * set to hold one upload of SIZE but not two. Each creation only declares its size (no byte is
 * written), so without reservations both would pass the free-space check and then fill the
 * volume together. The servers' files live in the temporary directory, whose free space is
 * read here; a quarter of it is a margin no other writer on the machine comes near meanwhile.
 */
const MB = 1024 * 1024;
const disk = statfsSync(tmpdir());
const FREE = disk.bavail * disk.bsize;
const SIZE = Math.floor(FREE / 4);
const tight = serverForThisFile({
  FILES_RESERVE_MB: String(Math.floor((FREE - 1.5 * SIZE) / MB)),
  MAX_FILE_GB: String(Math.ceil(SIZE / 1024 ** 3) + 1),
});
const staff = actorsFor(tight);

describe("uploads under way reserve their space", () => {
  const reservations = () => staff.db().select().from(uploadReservations).all();

  it("of two uploads that fit alone but not together, started at once, refuses one", async () => {
    const admin = await staff.signUpAdmin();
    const owner = await staff.signUp();
    const booking = createBooking(staff.db(), { user: owner, status: "RECORDED" });
    const tus = tusClient(tight.url, admin.cookie);
    const start = (name: string) => tus.create(booking.id, { size: SIZE, name, type: "audio/wav" });

    const answers = await Promise.all([start("take-1.wav"), start("take-2.wav")]);
    const statuses = answers.map((answer) => answer.status).sort();
    expect(statuses).toEqual([201, 507]);
    const [accepted, refused] = answers[0]?.status === 201 ? answers : [...answers].reverse();
    expect(await refused?.json()).toEqual({ message: noSpaceMessage(SIZE) });
    const uploadPath = accepted?.headers.get("Location") ?? "";
    expect(reservations()).toEqual([
      expect.objectContaining({ id: uploadPath.split("/").at(-1), bytes: SIZE }),
    ]);

    // Given up by its uploader: the space is free again for the next one.
    expect((await tus.terminate(uploadPath)).status).toBe(204);
    expect(reservations()).toEqual([]);
    const next = await start("take-3.wav");
    expect(next.status).toBe(201);

    // A finished upload is a stored file: its promise ends with it.
    const small = await tus.create(booking.id, { size: 4, name: "notes.txt", type: "text/plain" });
    const smallPath = small.headers.get("Location") ?? "";
    expect(reservations()).toHaveLength(2);
    expect((await tus.patch(smallPath, 0, Buffer.from("done"))).status).toBe(204);
    expect(reservations().map((row) => row.bytes)).toEqual([SIZE]);
  });
});
