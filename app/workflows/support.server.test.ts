import { Refusal, type RefusalKind } from "#app/domain/refusal";
import { eq } from "drizzle-orm";
import { beforeEach, describe, expect, it } from "vitest";
import { emailOutbox, technicalAssistanceRequests, users } from "#db/schema";
import { db } from "#app/db.server";
import type { BookingRequest } from "#app/domain/booking-form";
import { studioInstant } from "#app/domain/studio-time";
import { SUPPORT_UPDATE_MESSAGES, type SupportRequestInput } from "#app/domain/support";
import { listSupportRequestsPage } from "#app/models/support.server";
import { toPublicUser } from "#app/models/user.server";
import { type BookingSettings, bookSession } from "#app/workflows/book-session.server";
import { createSupportRequest, updateSupportRequest } from "#app/workflows/support.server";

/**
 * The support workflow against a real, freshly migrated SQLite file: a customer files a
 * request (about their own booking only), staff move it through its statuses, and resolving it
 * writes the customer's e-mail in the same transaction.
 */
const APP_URL = "https://studio.test";
const NOW = studioInstant("2027-01-04", "09:00");
const HOUR = 60 * 60_000;
const SETTINGS: BookingSettings = { holdMinutes: 30, bufferMinutes: 0, appUrl: APP_URL };

let counter = 0;
let customer: ReturnType<typeof toPublicUser>;

function makeUser() {
  counter += 1;
  const row = db
    .insert(users)
    .values({
      username: `support_${counter}`,
      passwordHash: "x",
      firstName: "Ada",
      lastName: "Lovelace",
      phoneNumber: "404-555-0100",
      email: `support${counter}@example.com`,
    })
    .returning()
    .get();
  return toPublicUser(row);
}

beforeEach(() => {
  customer = makeUser();
});

const filed: SupportRequestInput = {
  issueType: "EQUIPMENT",
  description: "The second microphone crackles whenever the guest moves.",
  preferredContactMethod: "EMAIL",
  name: "Ada <Lovelace>",
  email: "ada@example.com",
};

function bookingRequest(recordingDate: string): BookingRequest {
  return {
    firstName: "Ada",
    lastName: "Lovelace",
    phoneNumber: "404-555-0100",
    email: "ada@example.com",
    stakeholder: "no",
    recordingDate,
    recordingTime: "10:00",
    guestCount: 1,
    hoursNeeded: 2,
    isRetainer: false,
    selectedServices: [],
  };
}

function fileRequest(overrides: { email?: string } = {}) {
  const created = createSupportRequest(customer.id, filed, NOW);
  if (overrides.email !== undefined) {
    db.update(technicalAssistanceRequests)
      .set({ email: overrides.email })
      .where(eq(technicalAssistanceRequests.id, created.id))
      .run();
  }
  return created;
}

const requestRow = (id: number) =>
  db.select().from(technicalAssistanceRequests).where(eq(technicalAssistanceRequests.id, id)).get();

const outboxOf = (to: string) =>
  db.select().from(emailOutbox).where(eq(emailOutbox.toAddress, to)).all();

function expectRefused(run: () => unknown, kind: RefusalKind, message?: string) {
  try {
    run();
  } catch (error) {
    expect(error).toBeInstanceOf(Refusal);
    expect((error as Refusal).kind).toBe(kind);
    if (message) expect((error as Refusal).message).toBe(message);
    return;
  }
  expect.fail("the update was not refused");
}

describe("filing a support request", () => {
  it("about one of the customer's own bookings, or none", () => {
    const own = bookSession(customer, bookingRequest("2027-02-01"), NOW, SETTINGS);
    const about = createSupportRequest(customer.id, { ...filed, bookingId: own.id }, NOW);
    expect(about).toMatchObject({ userId: customer.id, bookingId: own.id, status: "PENDING" });
    expect(fileRequest()).toMatchObject({ bookingId: null, status: "PENDING" });
  });

  it("refuses another customer's booking exactly like a missing one, writing nothing", () => {
    const stranger = makeUser();
    const theirs = bookSession(stranger, bookingRequest("2027-02-02"), NOW, SETTINGS);
    const before = db.select().from(technicalAssistanceRequests).all().length;
    for (const bookingId of [theirs.id, 987_654]) {
      const file = () => createSupportRequest(customer.id, { ...filed, bookingId }, NOW);
      expect(file).toThrow(Refusal);
      expect(file).toThrow("Please choose one of your own bookings");
    }
    expect(db.select().from(technicalAssistanceRequests).all()).toHaveLength(before);
  });
});

describe("working a support request", () => {
  it("moves PENDING -> IN_PROGRESS -> RESOLVED, storing resolvedAt and e-mailing the account", () => {
    // The form's contact address is someone else's: the resolution goes to the account only.
    const stranger = `stranger${counter}@example.com`;
    const request = fileRequest({ email: stranger });
    const email = customer.email;

    const started = updateSupportRequest(
      request.id,
      { status: "IN_PROGRESS", resolution: null },
      NOW,
      APP_URL,
    );
    expect(started).toMatchObject({ status: "IN_PROGRESS", resolvedAt: null, resolution: null });
    expect(outboxOf(email)).toEqual([]);

    const resolved = updateSupportRequest(
      request.id,
      { status: "RESOLVED", resolution: "Replaced the XLR cable." },
      NOW + HOUR,
      APP_URL,
    );
    expect(resolved).toMatchObject({
      status: "RESOLVED",
      resolution: "Replaced the XLR cable.",
      resolvedAt: NOW + HOUR,
    });
    const [sent, ...more] = outboxOf(email);
    expect(more).toEqual([]);
    expect(sent).toMatchObject({
      kind: "support-resolved",
      status: "PENDING",
      subject: `Your support request #${request.id} is resolved`,
    });
    expect(sent?.text).toContain("Replaced the XLR cable.");
    expect(sent?.text).toContain(`${APP_URL}/dashboard?tab=support`);
    expect(sent?.html).toContain("Hi Ada &lt;Lovelace&gt;,");
    expect(outboxOf(stranger)).toEqual([]);
  });

  it("refuses a resolve without details and changes nothing", () => {
    const request = fileRequest();
    updateSupportRequest(request.id, { status: "IN_PROGRESS", resolution: null }, NOW, APP_URL);
    expectRefused(
      () =>
        updateSupportRequest(request.id, { status: "RESOLVED", resolution: "  " }, NOW, APP_URL),
      "resolution-required",
      SUPPORT_UPDATE_MESSAGES.resolutionRequired,
    );
    expect(requestRow(request.id)).toMatchObject({ status: "IN_PROGRESS", resolvedAt: null });
    expect(
      outboxOf(customer.email).filter((row) => row.subject.includes(`#${request.id} `)),
    ).toEqual([]);
  });

  it("of two admins pressing buttons on one request, the second is told what happened", () => {
    const request = fileRequest();
    updateSupportRequest(request.id, { status: "IN_PROGRESS", resolution: null }, NOW, APP_URL);
    expectRefused(
      () =>
        updateSupportRequest(request.id, { status: "IN_PROGRESS", resolution: null }, NOW, APP_URL),
      "support-move-refused",
      `Request #${request.id} is In Progress: it cannot move to In Progress.`,
    );
    updateSupportRequest(request.id, { status: "CANCELLED", resolution: null }, NOW, APP_URL);
    expectRefused(
      () =>
        updateSupportRequest(request.id, { status: "RESOLVED", resolution: "Done" }, NOW, APP_URL),
      "support-move-refused",
      `Request #${request.id} is already Cancelled: it cannot be changed any more.`,
    );
    expect(requestRow(request.id)).toMatchObject({ status: "CANCELLED", resolution: null });
  });

  it("refuses skipping a step and an unknown request", () => {
    const request = fileRequest();
    expectRefused(
      () =>
        updateSupportRequest(request.id, { status: "RESOLVED", resolution: "Done" }, NOW, APP_URL),
      "support-move-refused",
    );
    expectRefused(
      () => updateSupportRequest(987_654, { status: "CANCELLED", resolution: null }, NOW, APP_URL),
      "not-found",
    );
  });

  it("rolls the status back when its e-mail cannot be written: one transaction", () => {
    const request = fileRequest();
    db.update(users).set({ email: "   " }).where(eq(users.id, customer.id)).run();
    updateSupportRequest(request.id, { status: "IN_PROGRESS", resolution: null }, NOW, APP_URL);
    const outboxBefore = db.select().from(emailOutbox).all().length;
    expect(() =>
      updateSupportRequest(request.id, { status: "RESOLVED", resolution: "Fixed" }, NOW, APP_URL),
    ).toThrow(/no recipient/);
    expect(requestRow(request.id)).toMatchObject({
      status: "IN_PROGRESS",
      resolution: null,
      resolvedAt: null,
    });
    expect(db.select().from(emailOutbox).all().length).toBe(outboxBefore);
  });

  it("lists requests newest first, by status, a page at a time, with the requester", () => {
    const first = fileRequest();
    const second = fileRequest();
    updateSupportRequest(second.id, { status: "IN_PROGRESS", resolution: null }, NOW, APP_URL);

    const all = listSupportRequestsPage({ status: null }, 1);
    const ids = all.rows.map((row) => row.id);
    expect(ids.indexOf(second.id)).toBeLessThan(ids.indexOf(first.id));
    expect(all.rows.find((row) => row.id === first.id)).toMatchObject({
      username: customer.username,
      bookingId: null,
      bookingStartsAt: null,
    });
    const inProgress = listSupportRequestsPage({ status: "IN_PROGRESS" }, 1).rows;
    expect(inProgress.every((row) => row.status === "IN_PROGRESS")).toBe(true);
    expect(inProgress.some((row) => row.id === second.id)).toBe(true);
    expect(inProgress.some((row) => row.id === first.id)).toBe(false);
  });
});
