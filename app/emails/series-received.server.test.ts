import { afterEach, describe, expect, it } from "vitest";
import { type EmailBooking, seriesReceivedEmail } from "#app/emails/templates.server";
import { emailSession } from "#tests/factories/email-booking";

/**
 * The one booking-received e-mail of a weekly series (docs/product.md "Weekly series"): every
 * session at its studio wall time, the total still to pay and the series' pay link.
 */
const PAY_URL = "https://studio.example/checkout/series/7";

/** An unpaid session of the series; the first name is what a customer typed, markup and all. */
const session = (id: number, date: string, overrides: Partial<EmailBooking> = {}) =>
  emailSession(id, date, { status: "PENDING_PAYMENT", firstName: "Ada <b>", ...overrides });

const originalTz = process.env.TZ;
afterEach(() => {
  if (originalTz === undefined) delete process.env.TZ;
  else process.env.TZ = originalTz;
});

describe("seriesReceivedEmail", () => {
  it("lists every session at 7 PM across the November clock change, with one pay link", () => {
    for (const zone of ["UTC", "Pacific/Auckland"]) {
      process.env.TZ = zone;
      const email = seriesReceivedEmail({
        bookings: [
          session(1, "2026-10-25"),
          session(2, "2026-11-01", { retainerHoursDrawn: 2, totalCost: 0, status: "CONFIRMED" }),
          session(3, "2026-11-08"),
        ],
        payUrl: PAY_URL,
        holdExpiresAt: Date.parse("2026-10-20T16:30:00Z"),
      });
      expect(email.subject).toBe("Complete your booking: pay $800.00 to keep your 3 sessions");
      for (const body of [email.text, email.html]) {
        expect(body).toContain("Sunday, October 25, 2026, 7:00 PM – 9:00 PM EDT");
        expect(body).toContain("Sunday, November 1, 2026, 7:00 PM – 9:00 PM EST");
        expect(body).toContain("Sunday, November 8, 2026, 7:00 PM – 9:00 PM EST");
        expect(body).toContain("Session 1 of 3");
        expect(body).toContain("Session 3 of 3");
        expect(body).toContain("held for you until Oct 20, 2026, 12:30 PM EDT");
        expect(body).toContain(PAY_URL);
      }
      expect(email.text.match(/checkout\/series\/7/g)).toHaveLength(1);
      expect(email.html).toContain("Hi Ada &lt;b&gt;,");
      expect(email.html).not.toContain("Ada <b>");
    }
  });

  it("says nothing is due when every session is covered", () => {
    const email = seriesReceivedEmail({
      bookings: [
        session(1, "2026-12-01", { totalCost: 0, status: "CONFIRMED" }),
        session(2, "2026-12-15", { totalCost: 0, status: "CONFIRMED" }),
      ],
      payUrl: PAY_URL,
      holdExpiresAt: null,
    });
    expect(email.subject).toBe("Your 2 sessions from Tuesday, December 1, 2026 are confirmed");
    expect(email.text).toContain("There is nothing to pay");
    expect(email.text).not.toContain(PAY_URL);
  });

  it("refuses a series without sessions", () => {
    expect(() =>
      seriesReceivedEmail({ bookings: [], payUrl: PAY_URL, holdExpiresAt: null }),
    ).toThrow();
  });
});
