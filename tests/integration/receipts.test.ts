import { and, eq } from "drizzle-orm";
import { afterAll, describe, expect, it } from "vitest";
import { payments, receipts } from "#db/schema";
import { receiptYear } from "#app/domain/receipts";
import { addStudioDays } from "#app/domain/studio-time";
import { earliestBookableDate } from "#app/domain/availability";
import { createBooking } from "#tests/factories/booking";
import { createPayment } from "#tests/factories/payment";
import { type Actor, actorsFor } from "#tests/setup/actors";
import { bookingPayload, cardBody } from "#tests/setup/payloads";
import { pdfWords } from "#tests/setup/pdf-text";
import { serverForThisFile } from "#tests/setup/server-for-this-file";
import { startSmtpSink, type SunkMail } from "#tests/setup/smtp-sink";

/**
 * Receipts and credit notes (docs/product.md "Receipts") against the production build: the
 * API's `payments`, who may download a document, the PDFs read back with pdftotext, the
 * e-mails as a real SMTP server receives them, and numbers taken by two processes at once.
 */

// --- a real SMTP server the site's outbox delivers to ----------------------------------------

const smtp = await startSmtpSink();
const mails = smtp.mails;
afterAll(() => smtp.close());

const server = serverForThisFile({ SMTP_URL: `smtp://127.0.0.1:${smtp.port}` });
const people = actorsFor(server);

/** The first e-mail to `address` whose subject matches, once the outbox has sent it. */
async function mailTo(address: string, subject: RegExp): Promise<SunkMail> {
  // The outbox sends every few seconds: wait for the message, not for a time.
  for (;;) {
    const mail = mails.find((m) => m.to.includes(address) && subject.test(subjectOf(m.raw)));
    if (mail) return mail;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

function subjectOf(raw: string): string {
  return /^Subject: (.*)$/m.exec(raw)?.[1] ?? "";
}

/** A MIME message's PDF attachment: its file name and bytes. */
function pdfAttachment(raw: string): { filename: string; bytes: Buffer } {
  const part = raw.split(/\r?\n--/).find((chunk) => /Content-Type: application\/pdf/i.test(chunk));
  if (!part) throw new Error("no PDF in the message");
  const filename = /filename="?([^"\r\n;]+)"?/.exec(part)?.[1] ?? "";
  const body = part
    .split(/\r?\n\r?\n/)
    .slice(1)
    .join("");
  return { filename, bytes: Buffer.from(body.replace(/\s+/g, ""), "base64") };
}

// --- the customer's side, through the API ------------------------------------------------------

type ApiPayment = {
  id: number;
  amount: number;
  paymentDate: string;
  kind: "payment" | "refund";
  receiptUrl: string | null;
};
type ApiBooking = { id: number; totalCost: number; payments: ApiPayment[] };

let slot = 0;
/** A booking by the customer through the API, on a day no other test uses. */
async function book(actor: Actor, overrides: Record<string, unknown> = {}): Promise<ApiBooking> {
  slot += 1;
  const date = addStudioDays(earliestBookableDate(Date.now()), 10 + slot);
  const response = await fetch(`${server.url}/api/bookings`, {
    method: "POST",
    headers: { "Content-Type": "application/json", Cookie: actor.cookie },
    body: JSON.stringify(
      bookingPayload(date, "10:00", 2, { businessName: "Lovelace Media", ...overrides }),
    ),
  });
  expect(response.status).toBe(201);
  return (await response.json()) as ApiBooking;
}

async function payByCard(actor: Actor, booking: ApiBooking) {
  const response = await fetch(`${server.url}/api/bookings/${booking.id}/payments/direct`, {
    method: "POST",
    headers: { "Content-Type": "application/json", Cookie: actor.cookie },
    body: JSON.stringify(cardBody(booking.totalCost)),
  });
  expect(response.status).toBe(200);
}

async function listed(actor: Actor, bookingId: number): Promise<ApiBooking> {
  const response = await fetch(`${server.url}/api/bookings`, {
    headers: { Cookie: actor.cookie },
  });
  expect(response.status).toBe(200);
  const found = ((await response.json()) as ApiBooking[]).find((b) => b.id === bookingId);
  if (!found) throw new Error(`booking ${bookingId} is not listed`);
  return found;
}

function get(path: string, actor?: Actor) {
  return fetch(`${server.url}${path}`, { headers: actor ? { Cookie: actor.cookie } : {} });
}

const YEAR = receiptYear(Date.now());
const receiptNumber = /\b(\d{4})-(\d{6})\b/;

describe("a card payment's receipt", () => {
  it("is listed by GET /api/bookings, downloads as a PDF for the owner and staff only, and comes by e-mail", async () => {
    const customer = await people.signUp({ email: "receipt-payer@example.com" });
    const other = await people.signUp();
    const admin = await people.signUpAdmin();
    const booking = await book(customer);
    await payByCard(customer, booking);

    const { payments: listedPayments } = await listed(customer, booking.id);
    expect(listedPayments).toHaveLength(1);
    const [payment] = listedPayments;
    if (!payment?.receiptUrl) throw new Error("no receipt URL");
    expect(payment).toMatchObject({ amount: booking.totalCost, kind: "payment" });
    expect(Date.parse(payment.paymentDate)).not.toBeNaN();
    expect(payment.receiptUrl).toBe(`/api/bookings/${booking.id}/payments/${payment.id}/receipt`);

    const response = await get(payment.receiptUrl, customer);
    expect(response.status).toBe(200);
    expect(response.headers.get("Content-Type")).toBe("application/pdf");
    const disposition = response.headers.get("Content-Disposition") ?? "";
    expect(disposition).toMatch(/^attachment; filename="receipt-\d{4}-\d{6}\.pdf"$/);
    const pdf = Buffer.from(await response.arrayBuffer());
    const text = pdfWords(pdf);
    const number = receiptNumber.exec(disposition)?.[0];
    expect(text).toContain(`Receipt ${number}`);
    expect(text).toContain("Ada Lovelace");
    expect(text).toContain("Lovelace Media");
    expect(text).toContain("2 hours × $");
    expect(text).toContain(`Amount paid $${booking.totalCost}.00`);
    expect(text).toMatch(/Method Visa .{1,6}4242/);

    // Staff get the same document; another customer and a visitor do not.
    const staff = await get(payment.receiptUrl, admin);
    expect(staff.status).toBe(200);
    expect(Buffer.from(await staff.arrayBuffer()).equals(pdf)).toBe(true);
    const stranger = await get(payment.receiptUrl, other);
    expect(stranger.status).toBe(404);
    expect(stranger.headers.get("Content-Type")).toContain("application/json");
    expect(await stranger.json()).toEqual({ message: "Receipt not found" });
    expect((await get(payment.receiptUrl)).status).toBe(401);

    // The e-mail carries the very same file.
    const mail = await mailTo("receipt-payer@example.com", /payment/i);
    const attached = pdfAttachment(mail.raw);
    expect(attached.filename).toBe(`receipt-${number}.pdf`);
    expect(attached.bytes.equals(pdf)).toBe(true);
  });

  it("answers 404 for a payment of another booking, an unknown payment and malformed ids", async () => {
    const customer = await people.signUp();
    const mine = createBooking(people.db(), { user: customer, date: "2027-03-01" });
    const theirs = createBooking(people.db(), { user: await people.signUp(), date: "2027-03-02" });
    const myPayment = createPayment(people.db(), { booking: mine });
    const theirPayment = createPayment(people.db(), { booking: theirs });
    expect(
      (await get(`/api/bookings/${mine.id}/payments/${myPayment.id}/receipt`, customer)).status,
    ).toBe(200);
    for (const path of [
      `/api/bookings/${mine.id}/payments/${theirPayment.id}/receipt`,
      `/api/bookings/${theirs.id}/payments/${theirPayment.id}/receipt`,
      `/api/bookings/${mine.id}/payments/999999/receipt`,
      `/api/bookings/${mine.id}/payments/0/receipt`,
      `/api/bookings/${mine.id}/payments/1e3/receipt`,
      `/api/bookings/abc/payments/${myPayment.id}/receipt`,
    ]) {
      const response = await get(path, customer);
      expect(response.status, path).toBe(404);
    }
    const post = await fetch(
      `${server.url}/api/bookings/${mine.id}/payments/${myPayment.id}/receipt`,
      {
        method: "POST",
        headers: { Cookie: customer.cookie, Origin: server.url },
      },
    );
    expect(post.status).toBe(405);
  });
});

describe("a refund's credit note", () => {
  it("is listed beside the payment, names the receipt it refunds, and comes with the cancellation e-mail", async () => {
    const customer = await people.signUp({ email: "refunded@example.com" });
    const booking = await book(customer);
    await payByCard(customer, booking);
    const cancel = await fetch(`${server.url}/api/bookings/${booking.id}/cancel`, {
      method: "POST",
      headers: { "Content-Type": "application/json", Cookie: customer.cookie, Origin: server.url },
      body: JSON.stringify({}),
    });
    expect(cancel.status).toBe(200);

    const { payments: listedPayments } = await listed(customer, booking.id);
    expect(listedPayments.map((p) => [p.kind, p.amount])).toEqual([
      ["payment", booking.totalCost],
      ["refund", -booking.totalCost],
    ]);
    const [charge, refund] = listedPayments;
    if (!charge?.receiptUrl || !refund?.receiptUrl) throw new Error("no receipt URLs");
    const receiptText = pdfWords(
      Buffer.from(await (await get(charge.receiptUrl, customer)).arrayBuffer()),
    );
    const receiptNo = receiptNumber.exec(receiptText)?.[0];
    const response = await get(refund.receiptUrl, customer);
    expect(response.status).toBe(200);
    expect(response.headers.get("Content-Disposition")).toMatch(
      /^attachment; filename="credit-note-CN-\d{4}-\d{6}\.pdf"$/,
    );
    const pdf = Buffer.from(await response.arrayBuffer());
    const text = pdfWords(pdf);
    expect(text).toMatch(/Credit note CN-\d{4}-\d{6}/);
    expect(text).toContain(`Refunds receipt ${receiptNo} for booking #${booking.id}`);
    expect(text).toContain(`Amount refunded $${booking.totalCost}.00`);
    expect(text).toMatch(/Refunded to Visa .{1,6}4242/);

    const mail = await mailTo("refunded@example.com", /cancel/i);
    expect(pdfAttachment(mail.raw).bytes.equals(pdf)).toBe(true);
  });
});

describe("numbers", () => {
  it("stay gap-free and unique when the site and another writer on the file record payments together", async () => {
    const customer = await people.signUp();
    const db = people.db();
    // Bookings paid through the site's API and, at the same time, by this process's own
    // connection to the file (a second writer, as a script or another machine would be).
    const viaSite = await Promise.all(Array.from({ length: 6 }, () => book(customer)));
    const direct = Array.from({ length: 6 }, (_, i) =>
      createBooking(db, {
        user: customer,
        date: addStudioDays("2027-06-01", i),
        status: "PENDING_PAYMENT",
      }),
    );
    const site = viaSite.map((booking) => payByCard(customer, booking));
    const local = (async () => {
      for (const [i, booking] of direct.entries()) {
        // As each of the site's payments is answered, this process records one while the site
        // goes on with its next ones: the two writers' transactions alternate and collide.
        await site[i];
        createPayment(db, { booking, paymentDate: Date.now() });
      }
    })();
    await Promise.all([...site, local]);

    const numbers = db
      .select({ number: receipts.number })
      .from(receipts)
      .where(and(eq(receipts.kind, "RECEIPT"), eq(receipts.year, YEAR)))
      .all()
      .map((row) => row.number)
      .sort((a, b) => a - b);
    const ours = db
      .select({ id: payments.id })
      .from(payments)
      .innerJoin(receipts, eq(receipts.paymentId, payments.id))
      .all();
    expect(ours.length).toBe(db.select().from(payments).all().length);
    expect(numbers).toEqual(Array.from({ length: numbers.length }, (_, i) => i + 1));
  });
});
