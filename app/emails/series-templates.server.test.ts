import { describe, expect, it } from "vitest";
import {
  type EmailBooking,
  seriesCancelledEmail,
  seriesPaymentReceivedEmail,
} from "#app/emails/templates.server";
import { emailSession } from "#tests/factories/email-booking";

/** The first name is what a customer typed, markup and all. */
const session = (id: number, date: string) => emailSession(id, date, { firstName: "Ada <b>" });

const sessions = [session(1, "2026-12-01"), session(2, "2026-12-08"), session(3, "2026-12-15")];

describe("seriesPaymentReceivedEmail", () => {
  const email = seriesPaymentReceivedEmail({
    sessions,
    heading: "Weekly series · Tuesdays 7:00 PM · 3 sessions",
    amount: 1200,
    brand: "visa",
    last4: "4242",
    receiptNumbers: ["R-2026-0001", "R-2026-0002", "R-2026-0003"],
  });

  it("lists every session paid with its time and price, and the total", () => {
    expect(email.subject).toBe(
      "Payment received for your 3 sessions from Tuesday, December 1, 2026",
    );
    expect(email.text).toContain("$1,200.00 (Visa ending in 4242) for 3 sessions");
    expect(email.text).toContain("#1: Tuesday, December 1, 2026, 7:00 PM – 9:00 PM EST, $400.00");
    expect(email.text).toContain("#3: Tuesday, December 15, 2026, 7:00 PM – 9:00 PM EST, $400.00");
    expect(email.text).toContain("R-2026-0001, R-2026-0002, R-2026-0003");
  });

  it("escapes what the customer typed in the HTML", () => {
    expect(email.html).toContain("Ada &lt;b&gt;");
    expect(email.html).not.toContain("Ada <b>");
  });
});

describe("seriesCancelledEmail", () => {
  it("lists each session cancelled with its refund, the total, and the fee kept", () => {
    const email = seriesCancelledEmail({
      cancelled: [
        {
          booking: sessions[0] as EmailBooking,
          quote: { kind: "late", paid: 400, fee: 200, refund: 200 },
        },
        {
          booking: sessions[1] as EmailBooking,
          quote: { kind: "full", paid: 400, fee: 0, refund: 400 },
        },
        {
          booking: sessions[2] as EmailBooking,
          quote: { kind: "unpaid", paid: 0, fee: 0, refund: 0 },
        },
      ],
    });
    expect(email.subject).toBe(
      "3 sessions of your series cancelled from Tuesday, December 1, 2026",
    );
    expect(email.text).toContain("We are refunding $600.00 in all");
    expect(email.text).toContain("$200.00 in all");
    expect(email.text).toContain(
      "#1: Tuesday, December 1, 2026, 7:00 PM – 9:00 PM EST; refund $200.00",
    );
    expect(email.text).toContain("#3: Tuesday, December 15, 2026, 7:00 PM – 9:00 PM EST; not paid");
  });
});
