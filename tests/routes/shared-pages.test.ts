import { brotliDecompressSync, gunzipSync } from "node:zlib";
import { eq } from "drizzle-orm";
import { afterEach, describe, expect, it, vi } from "vitest";
import { blockedTimes, services } from "#db/schema";
import { earliestBookableDate } from "#app/domain/availability";
import { addStudioDays, studioDateOf, studioInstant } from "#app/domain/studio-time";
import { openDatabaseFile } from "#tests/factories/database";
import { createBooking } from "#tests/factories/booking";
import { createService } from "#tests/factories/catalog";
import { createSignIn, SIGN_IN_COOKIE_NAME, signInCookieValue } from "#tests/factories/sign-in";
import { createUser } from "#tests/factories/user";
import { appForThisFile } from "#tests/setup/app-in-process";
import { inlineScriptHashes, scriptSources } from "#tests/setup/csp";

/**
 * A visitor's page is rendered once and served again while its data stays the same
 * (app/web/shared-pages.server.ts), before any loader runs. What a visitor sees must still
 * change the moment the data or the clock does, and a page of one person must never reach another.
 */
const server = appForThisFile();
/** A second connection, as staff or another process would write. */
const writer = () => openDatabaseFile(server.dbPath);

async function page(path = "/", headers: Record<string, string> = {}) {
  const response = await fetch(`${server.url}${path}`, { headers });
  expect(response.status).toBe(200);
  const csp = response.headers.get("Content-Security-Policy") ?? "";
  return { html: await response.text(), csp, etag: response.headers.get("ETag") };
}

/** A write as a process would make it without the data version's triggers: invisible to the store. */
function writeUnseen(statement: string) {
  const db = writer();
  const { version } = db.$client.prepare("SELECT version FROM data_version").get() as {
    version: number;
  };
  db.$client.transaction(() => {
    db.$client.exec(statement);
    db.$client.prepare("UPDATE data_version SET version = ?").run(version);
  })();
}

/** The latest start the page offers. */
function lastFreeTime(html: string): string {
  // Before the waitlist's list of booked times, which follows the start times.
  const startTimes = html.split('name="waitlistTime"')[0] ?? "";
  const time = [...startTimes.matchAll(/<option value="(\d\d:\d\d)">/g)].map((m) => m[1]).at(-1);
  if (!time) throw new Error("The landing page offers no free start time");
  return time;
}

function startTimeOption(html: string, time: string) {
  return new RegExp(`<option value="${time}"[^>]*>.*?</option>`).exec(html)?.[0] ?? "";
}

async function signedIn(firstName: string) {
  const db = writer();
  const user = await createUser(db, { firstName });
  const signIn = createSignIn(db, { userId: user.id });
  const value = signInCookieValue(signIn.id);
  return { Cookie: `${SIGN_IN_COOKIE_NAME}=${value}` };
}

/** A morning, so the earliest bookable day has free starts whatever the hour of the run. */
function onAMorning() {
  const tomorrow = addStudioDays(studioDateOf(Date.now()), 1);
  vi.useFakeTimers({ toFake: ["Date"], now: studioInstant(tomorrow, "09:00") + 60_000 });
}

afterEach(() => {
  vi.useRealTimers();
});

describe("a visitor's landing page, rendered once", () => {
  it("is the same bytes for each visitor, its own scripts allowed by their hashes", async () => {
    const first = await page();
    const second = await page();
    expect(second.html).toBe(first.html);
    expect(second.csp).toBe(first.csp);
    expect(second.etag).toBe(first.etag);
    const hashes = inlineScriptHashes(second.html);
    expect(hashes.length).toBeGreaterThan(0);
    expect(new Set(scriptSources(second.csp).slice(1, -1))).toEqual(new Set(hashes));
  });

  it("is answered from the store, no loader run, while no write bumps the data version", async () => {
    const service = createService(writer(), { name: "Stored Page Editing", price: 41 });
    expect((await page()).html).toContain("$41");
    writeUnseen(`UPDATE services SET price = 42 WHERE id = ${service.id}`);
    expect((await page()).html).toContain("$41");
    writer().update(services).set({ price: 43 }).where(eq(services.id, service.id)).run();
    expect((await page()).html).toContain("$43");
  });

  it("shows a new service and a new price at once", async () => {
    await page();
    const service = createService(writer(), { name: "Shared Page Mastering", price: 77 });
    const added = (await page()).html;
    expect(added).toContain("Shared Page Mastering");
    expect(added).toContain("$77");
    writer().update(services).set({ price: 88 }).where(eq(services.id, service.id)).run();
    const repriced = (await page()).html;
    expect(repriced).toContain("$88");
    expect(repriced).not.toContain("$77");
  });

  it("marks a start time booked as soon as a booking takes it", async () => {
    onAMorning();
    const date = earliestBookableDate(Date.now());
    const before = (await page()).html;
    const time = lastFreeTime(before);
    expect(startTimeOption(before, time)).not.toContain("disabled");
    const owner = await createUser(writer());
    createBooking(writer(), { user: owner, date, time, hours: 2 });
    const after = (await page()).html;
    expect(startTimeOption(after, time)).toContain("disabled");
    expect(startTimeOption(after, time)).toContain("(booked)");
  });

  it("marks a start time blocked as soon as staff block it", async () => {
    onAMorning();
    const date = earliestBookableDate(Date.now());
    const time = lastFreeTime((await page()).html);
    const startsAt = studioInstant(date, time);
    writer()
      .insert(blockedTimes)
      .values({ startsAt, endsAt: startsAt + 3_600_000, reason: "Maintenance" })
      .run();
    expect(startTimeOption((await page()).html, time)).toContain("disabled");
  });

  it("answers a conditional GET for the page it has with 304, and a changed page whole", async () => {
    const { etag } = await page();
    expect(etag).toMatch(/^"[\w-]+"$/);
    const again = await fetch(`${server.url}/`, { headers: { "If-None-Match": etag as string } });
    expect(again.status).toBe(304);
    expect(await again.text()).toBe("");
    expect(again.headers.get("ETag")).toBe(etag);
    createService(writer(), { name: "Conditional Mastering", price: 61 });
    const changed = await fetch(`${server.url}/`, { headers: { "If-None-Match": etag as string } });
    expect(changed.status).toBe(200);
    expect(changed.headers.get("ETag")).not.toBe(etag);
    expect(await changed.text()).toContain("Conditional Mastering");
  });

  it("is compressed once per coding, chosen by Accept-Encoding", async () => {
    const plain = await page();
    const answer = async (acceptEncoding: string) => {
      const response = await fetch(`${server.url}/`, {
        headers: { "Accept-Encoding": acceptEncoding },
      });
      const body = Buffer.from(await response.arrayBuffer());
      expect(response.headers.get("Vary")).toBe("Accept-Encoding");
      expect(Number(response.headers.get("Content-Length"))).toBe(body.length);
      return {
        coding: response.headers.get("Content-Encoding"),
        body,
        etag: response.headers.get("ETag"),
      };
    };
    const br = await answer("gzip, deflate, br, zstd");
    expect(br.coding).toBe("br");
    expect(brotliDecompressSync(br.body).toString()).toBe(plain.html);
    const gzip = await answer("gzip, br;q=0.5");
    expect(gzip.coding).toBe("gzip");
    expect(gunzipSync(gzip.body).toString()).toBe(plain.html);
    expect((await answer("*")).coding).toBe("br");
    for (const none of ["identity", "gzip;q=0, br;q=0", "deflate"]) {
      const identity = await answer(none);
      expect(identity.coding).toBeNull();
      expect(identity.body.toString()).toBe(plain.html);
      expect(identity.etag).toBe(plain.etag);
    }
    expect(new Set([br.etag, gzip.etag, plain.etag]).size).toBe(3);
  });

  it("never serves a signed-in customer's page to a visitor, nor the visitor's to a customer", async () => {
    await page();
    const customer = await signedIn("Zebedee");
    const theirs = (await page("/", customer)).html;
    expect(theirs).toContain('value="Zebedee"');
    expect(theirs).toContain('id="dashboard"');
    const visitor = (await page()).html;
    expect(visitor).not.toContain("Zebedee");
    expect(visitor).not.toContain('id="dashboard"');
    const again = await page("/", await signedIn("Yolanda"));
    expect(again.html).toContain('value="Yolanda"');
    expect(again.etag).toBeNull();
  });

  it("keeps a flashed toast to the visitor it was meant for", async () => {
    await page();
    const loggedOut = await fetch(`${server.url}/logout`, {
      method: "POST",
      redirect: "manual",
      headers: { Origin: server.url, ...(await signedIn("Xavier")) },
    });
    const flash = loggedOut.headers.get("Set-Cookie")?.match(/toast-session=[^;]+/)?.[0];
    expect(flash).toBeDefined();
    const toasted = await page("/", { Cookie: flash as string });
    expect(toasted.etag).toBeNull();
    const withToast = toasted.html;
    const plain = (await page()).html;
    const toastText = /Logged out[^<]*/.exec(withToast)?.[0];
    expect(toastText).toBeDefined();
    expect(plain).not.toContain(toastText as string);
  });
});

describe("availability, answered once for everyone", () => {
  type Availability = { times: { time: string; available: boolean; reason: string | null }[] };
  const date = addStudioDays(earliestBookableDate(Date.now()), 3);
  const canonical = `/api/availability?date=${date}&hours=2`;
  const ask = async (path = canonical, headers: Record<string, string> = {}) => {
    const response = await fetch(`${server.url}${path}`, { headers });
    expect(response.status).toBe(200);
    return {
      etag: response.headers.get("ETag"),
      times: ((await response.json()) as Availability).times,
    };
  };
  const at = (times: Availability["times"], time: string) => times.find((t) => t.time === time);
  /** Blocks `time` on `date` without bumping the data version: only a fresh read sees it. */
  const blockUnseen = (time: string) => {
    const startsAt = studioInstant(date, time);
    writeUnseen(
      `INSERT INTO blocked_times (starts_at, ends_at, reason) VALUES (${startsAt}, ${startsAt + 3_600_000}, 'Unseen')`,
    );
  };

  it("is answered from the store while nothing it reads changes, and anew the moment a start is taken", async () => {
    expect(at((await ask()).times, "10:00")?.available).toBe(true);
    blockUnseen("10:00");
    const stored = await ask();
    expect(stored.etag).toMatch(/^"[\w-]+"$/);
    expect(at(stored.times, "10:00")?.available).toBe(true);
    createBooking(writer(), { user: await createUser(writer()), date, time: "14:00", hours: 2 });
    const fresh = (await ask()).times;
    expect(at(fresh, "10:00")?.reason).toBe("taken");
    expect(at(fresh, "14:00")?.reason).toBe("taken");
  });

  it("goes out as it is, stored or not: it fits one TCP segment", async () => {
    const asBrowsers = { "Accept-Encoding": "gzip, deflate, br, zstd" };
    const first = await fetch(`${server.url}${canonical}`, { headers: asBrowsers });
    const stored = await fetch(`${server.url}${canonical}`, { headers: asBrowsers });
    expect(stored.headers.get("ETag")).toMatch(/^"[\w-]+"$/);
    expect(stored.headers.get("Content-Encoding")).toBeNull();
    expect(stored.headers.get("Cache-Control")).toBe("no-store");
    const body = await stored.text();
    expect(body.length).toBeLessThan(1400);
    expect(body).toBe(await first.text());
  });

  it("is a signed-in customer's answer too, whoever asked first", async () => {
    const customer = await signedIn("Wanda");
    await ask();
    blockUnseen("16:00");
    const theirs = await ask(canonical, customer);
    expect(theirs.etag).toMatch(/^"[\w-]+"$/);
    expect(at(theirs.times, "16:00")?.available).toBe(true);

    const longer = `/api/availability?date=${date}&hours=3`;
    const first = await fetch(`${server.url}${longer}`, { headers: customer });
    expect(first.headers.get("Set-Cookie")).toBeNull();
    const firstTimes = ((await first.json()) as Availability).times;
    blockUnseen("22:00");
    const visitors = await ask(longer);
    expect(visitors.etag).toMatch(/^"[\w-]+"$/);
    expect(visitors.times).toEqual(firstTimes);
    expect(at(visitors.times, "21:00")?.available).toBe(true);
  });

  it("is never stored at a URL with more in its query", async () => {
    await ask();
    blockUnseen("18:00");
    expect(at((await ask()).times, "18:00")?.available).toBe(true);
    const extra = await ask(`${canonical}&utm_source=ad`);
    expect(extra.etag).toBeNull();
    expect(at(extra.times, "18:00")?.reason).toBe("taken");
    const reordered = await ask(`/api/availability?hours=2&date=${date}`, await signedIn("Vera"));
    expect(reordered.etag).toBeNull();
    expect(at(reordered.times, "18:00")?.reason).toBe("taken");
  });
});

describe("a visitor's page with a query", () => {
  it("is rendered for each request, never stored", async () => {
    const service = createService(writer(), { name: "Click Id Editing", price: 31 });
    expect((await page("/?gclid=1")).html).toContain("$31");
    writeUnseen(`UPDATE services SET price = 32 WHERE id = ${service.id}`);
    const again = await page("/?gclid=1");
    expect(again.html).toContain("$32");
    expect(again.etag).toBeNull();
  });
});

/** Last in the file: a page stored in a faked future stands over the real time until a write. */
describe("a visitor's landing page, as the clock turns", () => {
  it("is rendered again at the next quarter hour, when the day or a start time may turn", async () => {
    vi.useFakeTimers({ toFake: ["Date"], now: Date.now() });
    const service = createService(writer(), { name: "Quarter Hour Mixing", price: 51 });
    expect((await page()).html).toContain("$51");
    writeUnseen(`UPDATE services SET price = 52 WHERE id = ${service.id}`);
    vi.setSystemTime(Math.floor(Date.now() / 900_000) * 900_000 + 900_000);
    expect((await page()).html).toContain("$52");
  });

  it("offers a start time again the moment the hold on it runs out", async () => {
    onAMorning();
    const date = earliestBookableDate(Date.now());
    const time = lastFreeTime((await page()).html);
    createBooking(writer(), {
      user: await createUser(writer()),
      date,
      time,
      hours: 1,
      status: "PENDING_PAYMENT",
      holdMinutes: 5,
    });
    expect(startTimeOption((await page()).html, time)).toContain("disabled");
    vi.setSystemTime(Date.now() + 6 * 60_000);
    expect(startTimeOption((await page()).html, time)).not.toContain("disabled");
  });
});
