import { existsSync, readdirSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { noSpaceForFormMessage, noSpaceMessage } from "#app/domain/session-files";
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
