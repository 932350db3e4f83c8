import { afterEach, describe, expect, it } from "vitest";
import { STUDIO } from "#app/domain/studio";
import {
  bookingCancelledEmail,
  bookingConfirmedEmail,
  bookingReceivedEmail,
  type EmailBooking,
  escapeHtml,
  filesExpiringEmail,
  filesReadyEmail,
  formatSessionTime,
  formatStudioDateTime,
  paymentReceivedEmail,
  supportResolvedEmail,
} from "#app/emails/templates.server";

const utc = (iso: string) => Date.parse(iso);

/** What the templates read of a booking, plus the hold the booking-received e-mail is given. */
type TestBooking = EmailBooking & { holdExpiresAt: number | null };

function makeBooking(overrides: Partial<TestBooking> = {}): TestBooking {
  return {
    id: 42,
    firstName: "Ada",
    recordingDate: "2026-11-24",
    recordingTime: "10:00",
    guestCount: "3",
    hoursNeeded: "2",
    startsAt: utc("2026-11-24T15:00:00Z"),
    endsAt: utc("2026-11-24T17:00:00Z"),
    totalCost: 360,
    couponCode: "SAVE10",
    discountAmount: 40,
    status: "PENDING_PAYMENT",
    holdExpiresAt: utc("2026-11-24T20:30:00Z"),
    isRetainer: false,
    retainerTotalHours: 8,
    retainerHoursDrawn: 0,
    ...overrides,
  };
}

const PAY_URL = "https://studio.example/checkout/42";

// Every expectation is studio time, so it must hold whatever zone the process runs in:
// the zone-sensitive cases run under several (Node applies a TZ change immediately).
const originalTz = process.env.TZ;
afterEach(() => {
  if (originalTz === undefined) delete process.env.TZ;
  else process.env.TZ = originalTz;
});
const ZONES = ["UTC", "America/Los_Angeles", "Pacific/Auckland", "Asia/Kolkata"];

describe("escapeHtml", () => {
  it("escapes the five HTML-significant characters", () => {
    expect(escapeHtml(`<a href="x" title='y'>&</a>`)).toBe(
      "&lt;a href=&quot;x&quot; title=&#39;y&#39;&gt;&amp;&lt;/a&gt;",
    );
    expect(escapeHtml(42)).toBe("42");
  });
});

describe("studio time formatting", () => {
  it.each(ZONES)("formats instants on the studio's clock under TZ=%s", (zone) => {
    process.env.TZ = zone;
    expect(formatStudioDateTime(utc("2026-11-24T20:30:00Z"))).toBe("Nov 24, 2026, 3:30 PM EST");
    expect(formatStudioDateTime(utc("2026-07-04T16:05:00Z"))).toBe("Jul 4, 2026, 12:05 PM EDT");
    // Either side of the spring-forward jump (2026-03-08 02:00 EST -> 03:00 EDT).
    expect(formatStudioDateTime(utc("2026-03-08T06:59:00Z"))).toBe("Mar 8, 2026, 1:59 AM EST");
    expect(formatStudioDateTime(utc("2026-03-08T07:00:00Z"))).toBe("Mar 8, 2026, 3:00 AM EDT");
    // The repeated hour in autumn (2026-11-01): the same wall time, two zones.
    expect(formatStudioDateTime(utc("2026-11-01T05:30:00Z"))).toBe("Nov 1, 2026, 1:30 AM EDT");
    expect(formatStudioDateTime(utc("2026-11-01T06:30:00Z"))).toBe("Nov 1, 2026, 1:30 AM EST");
  });

  it.each(ZONES)("formats sessions, across a clock change and midnight, under TZ=%s", (zone) => {
    process.env.TZ = zone;
    const session = (recordingDate: string, recordingTime: string, hoursNeeded: string) =>
      formatSessionTime({ recordingDate, recordingTime, hoursNeeded });
    expect(session("2026-11-24", "10:00", "2")).toBe(
      "Tuesday, November 24, 2026, 10:00 AM – 12:00 PM EST",
    );
    expect(session("2026-07-15", "13:30", "3")).toBe(
      "Wednesday, July 15, 2026, 1:30 PM – 4:30 PM EDT",
    );
    // Hours are elapsed hours: 4 hours from midnight on the spring-forward day end at 5 AM.
    expect(session("2026-03-08", "00:00", "4")).toBe(
      "Sunday, March 8, 2026, 12:00 AM EST – 5:00 AM EDT",
    );
    // And in autumn the clock gains an hour: 4 hours from midnight end at 3 AM.
    expect(session("2026-11-01", "00:00", "4")).toBe(
      "Sunday, November 1, 2026, 12:00 AM EDT – 3:00 AM EST",
    );
    expect(session("2026-12-31", "22:00", "4")).toBe(
      "Thursday, December 31, 2026, 10:00 PM – Friday, January 1, 2027, 2:00 AM EST",
    );
  });
});

describe("bookingReceivedEmail", () => {
  it("asks for payment with the link and says until when the slot is held", () => {
    process.env.TZ = "Pacific/Auckland";
    const booking = makeBooking();
    const email = bookingReceivedEmail({
      booking,
      payUrl: PAY_URL,
      holdExpiresAt: booking.holdExpiresAt,
    });

    expect(email.subject).toBe("Complete your booking: pay $360.00 to keep your session");
    for (const body of [email.text, email.html]) {
      expect(body).toContain("Hi Ada,");
      expect(body).toContain("held for you until Nov 24, 2026, 3:30 PM EST");
      expect(body).toContain("Tuesday, November 24, 2026, 10:00 AM – 12:00 PM EST");
      expect(body).toContain("2 hours");
      expect(body).toContain("Discount (SAVE10)");
      expect(body).toContain("−$40.00");
      expect(body).toContain("$360.00");
      expect(body).toContain(PAY_URL);
      expect(body).toContain("#42");
      expect(body).toContain(STUDIO.name);
      expect(body).toContain(STUDIO.street);
      expect(body).toContain(STUDIO.locality);
      expect(body).toContain(STUDIO.phone);
      expect(body).toContain(STUDIO.email);
    }
    expect(email.text).toContain("Guests: 3");
    expect(email.text).toContain("Total: $360.00");
    expect(email.text).toContain(`Pay $360.00 now:\n${PAY_URL}`);
    expect(email.html).toContain(`<a href="${PAY_URL}"`);
    expect(email.html).toMatch(/^<!DOCTYPE html>\n<html lang="en">/);
    expect(email.html).toMatch(/<h1[^>]*>We have received your booking<\/h1>/);
    expect(email.html).toMatch(/<dt[^>]*>Guests<\/dt><dd[^>]*>3<\/dd>/);
    expect(email.html).not.toContain("<table");
  });

  it("for a free booking says it is confirmed and has no pay link", () => {
    const booking = makeBooking({
      status: "CONFIRMED",
      totalCost: 0,
      discountAmount: 400,
      couponCode: "FREEDAY",
      holdExpiresAt: null,
      guestCount: "1",
      hoursNeeded: "1",
      recordingTime: "09:00",
    });
    const email = bookingReceivedEmail({ booking, payUrl: PAY_URL, holdExpiresAt: null });

    expect(email.subject).toBe("Your session on Tuesday, November 24, 2026 is confirmed");
    for (const body of [email.text, email.html]) {
      expect(body).toContain("Your session is confirmed");
      expect(body).toContain("Tuesday, November 24, 2026, 9:00 AM – 10:00 AM EST");
      expect(body).toContain("1 hour");
      expect(body).toContain("$0.00");
      expect(body).not.toContain(PAY_URL);
      expect(body).not.toMatch(/held for you|Pay \$/);
    }
    expect(email.text).toContain("Hours: 1 hour\n");
    expect(email.text).toContain("Guests: 1\n");
  });

  it("describes a retainer purchase and leaves out an absent discount", () => {
    const booking = makeBooking({
      isRetainer: true,
      totalCost: 999,
      discountAmount: 0,
      couponCode: null,
      hoursNeeded: "4",
    });
    const email = bookingReceivedEmail({ booking, payUrl: PAY_URL, holdExpiresAt: null });
    expect(email.text).toContain("Package: Retainer: 8 studio hours to use within 30 days");
    expect(email.text).toContain("Total: $999.00");
    expect(email.text).not.toContain("Discount");
    expect(email.text).not.toContain("held for you until");
  });

  it("escapes every interpolated value in the HTML", () => {
    const booking = makeBooking({
      firstName: `<script>alert("x")</script>`,
      couponCode: `"><img src=x onerror=alert(1)>`,
    });
    const email = bookingReceivedEmail({
      booking,
      payUrl: `https://studio.example/checkout/42?a=1&b="><script>`,
      holdExpiresAt: booking.holdExpiresAt,
    });
    expect(email.html).not.toContain("<script>");
    expect(email.html).not.toContain("<img");
    expect(email.html).toContain("Hi &lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt;,");
    expect(email.html).toContain("Discount (&quot;&gt;&lt;img src=x onerror=alert(1)&gt;)");
    expect(email.html).toContain(
      'href="https://studio.example/checkout/42?a=1&amp;b=&quot;&gt;&lt;script&gt;"',
    );
    // The text version is plain text: shown as typed, nothing to escape.
    expect(email.text).toContain(`Hi <script>alert("x")</script>,`);
  });
});

describe("paymentReceivedEmail", () => {
  it("confirms the payment and says staff will review the booking", () => {
    process.env.TZ = "UTC";
    const booking = makeBooking({ status: "PENDING", holdExpiresAt: null });
    const email = paymentReceivedEmail({ booking, amount: 360, brand: "visa", last4: "4242" });

    expect(email.subject).toBe("Payment received for your session on Tuesday, November 24, 2026");
    for (const body of [email.text, email.html]) {
      expect(body).toContain("We received your payment of $360.00 (Visa ending in 4242)");
      expect(body).toContain("pending review by our staff");
      expect(body).toContain("confirmation e-mail as soon as they confirm");
      expect(body).toContain("Tuesday, November 24, 2026, 10:00 AM – 12:00 PM EST");
      expect(body).toContain(STUDIO.street);
      expect(body).not.toContain(PAY_URL);
    }
    expect(email.html).toMatch(/<html lang="en">/);
  });

  it("names card brands readably and escapes them", () => {
    const booking = makeBooking({ status: "PENDING" });
    expect(
      paymentReceivedEmail({ booking, amount: 360, brand: "amex", last4: "0005" }).text,
    ).toContain("(American Express ending in 0005)");
    const odd = paymentReceivedEmail({ booking, amount: 360, brand: "<b>", last4: "1234" });
    expect(odd.html).toContain("(&lt;b&gt; ending in 1234)");
    expect(odd.html).not.toContain("<b>");
  });
});

describe("staff e-mails", () => {
  it("a staff confirmation names the session and links to it", () => {
    const email = bookingConfirmedEmail({
      booking: makeBooking({ status: "CONFIRMED" }),
      detailsUrl: "https://studio.example/dashboard/sessions/42",
    });
    expect(email.subject).toBe("Your session on Tuesday, November 24, 2026 is confirmed");
    expect(email.text).toContain("our staff confirmed booking #42");
    expect(email.text).toContain("10:00 AM – 12:00 PM EST");
    expect(email.html).toContain('href="https://studio.example/dashboard/sessions/42"');
  });

  it("a studio cancellation apologises and promises the full refund", () => {
    const email = bookingCancelledEmail({
      booking: makeBooking({ status: "CANCELLED" }),
      quote: { kind: "full", paid: 360, fee: 0, refund: 360 },
      by: "studio",
    });
    expect(email.text).toContain("the studio had to cancel booking #42");
    expect(email.text).toContain("refunding the full $360.00");
    const byCustomer = bookingCancelledEmail({
      booking: makeBooking({ status: "CANCELLED" }),
      quote: { kind: "unpaid", paid: 0, fee: 0, refund: 0 },
    });
    expect(byCustomer.text).toContain("Booking #42 is cancelled and its time slot is released.");
    expect(byCustomer.text).not.toContain("the studio had to cancel");
  });
});

describe("supportResolvedEmail", () => {
  const request = {
    id: 12,
    name: "Ada <b>Lovelace</b>",
    issueLabel: "Studio equipment",
    description: "The mic crackles & <script>alert(1)</script>",
    resolution: 'Replaced the "XLR" cable <img src=x onerror=alert(1)>',
  };

  it("gives the resolution and the request, in HTML and text", () => {
    const email = supportResolvedEmail({
      request,
      dashboardUrl: "https://t.test/dashboard?tab=support",
    });
    expect(email.subject).toBe("Your support request #12 is resolved");
    expect(email.text).toContain(
      'Resolution: Replaced the "XLR" cable <img src=x onerror=alert(1)>',
    );
    expect(email.text).toContain("Your request: The mic crackles & <script>alert(1)</script>");
    expect(email.text).toContain("https://t.test/dashboard?tab=support");
    expect(email.html).toContain("Our team has resolved your request #12 (Studio equipment).");
  });

  it("escapes everything the customer and staff typed", () => {
    const { html } = supportResolvedEmail({ request, dashboardUrl: "https://t.test/d?a=1&b=2" });
    expect(html).not.toContain("<script>");
    expect(html).not.toContain("<img");
    expect(html).not.toContain("<b>");
    expect(html).toContain("Hi Ada &lt;b&gt;Lovelace&lt;/b&gt;,");
    expect(html).toContain("Replaced the &quot;XLR&quot; cable &lt;img src=x onerror=alert(1)&gt;");
    expect(html).toContain("The mic crackles &amp; &lt;script&gt;");
    expect(html).toContain('href="https://t.test/d?a=1&amp;b=2"');
  });
});

describe("session files e-mails", () => {
  const booking = makeBooking({ status: "COMPLETED" });
  const files = [
    { name: "Episode <1>.mp3", size: 48 * 1024 ** 2, expiresAt: utc("2027-02-22T20:00:00Z") },
    { name: "Raw tracks.zip", size: 3 * 1024 ** 3, expiresAt: utc("2027-02-23T20:00:00Z") },
  ];
  const sessionUrl = "https://studio.example/dashboard/sessions/42";

  it("'Your files are ready' links to the session, lists the files and says until when", () => {
    const email = filesReadyEmail({ booking, files, sessionUrl });
    expect(email.subject).toBe("Your files are ready");
    expect(email.text).toContain("Hi Ada,");
    expect(email.text).toContain("your session on Tuesday, November 24, 2026");
    expect(email.text).toContain(`Download your files:\n${sessionUrl}`);
    expect(email.text).toContain("Episode <1>.mp3: 48 MB");
    expect(email.text).toContain("Raw tracks.zip: 3 GB");
    // The earliest expiry, on the studio's calendar.
    expect(email.text).toContain("Please download them by Feb 22, 2027");
    expect(email.html).toContain("Episode &lt;1&gt;.mp3");
    expect(email.html).not.toContain("Episode <1>");
    expect(email.html).toContain(`href="${sessionUrl}"`);
  });

  it("the reminder names the day the files go", () => {
    const email = filesExpiringEmail({ booking, files, sessionUrl });
    expect(email.subject).toBe("Your session files will be deleted soon");
    expect(email.text).toContain("will be deleted on Feb 22, 2027");
    expect(email.text).toContain("Files to be deleted");
    expect(email.text).toContain(sessionUrl);
  });
});
