import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { bookingServices, services } from "#db/schema";
import { db } from "#app/db.server";
import { receiptPdf } from "#app/emails/receipt-pdf.server";
import { receiptOfPayment } from "#app/models/receipt.server";
import { createBooking } from "#tests/factories/booking";
import { createService } from "#tests/factories/catalog";
import { createPayment } from "#tests/factories/payment";
import { createUser } from "#tests/factories/user";
import { pdfWords } from "#tests/setup/pdf-text";

/**
 * What a receipt says (docs/product.md "Receipts"): the booking's lines as priced (hours x
 * rate with the hours a retainer covered, each add-on at its booked price, the discount), fixed
 * at issue time; the PDF read back with pdftotext.
 */
describe("a receipt's lines", () => {
  it("prints hours x rate, the retainer hours, each add-on and the discount, and keeps them when the add-on changes", async () => {
    const user = await createUser(db, { businessName: "Babbage & Daughters" });
    const service = createService(db, { name: "Video package", price: 50 });
    // Three hours at $150, one of them drawn from a retainer: 2 x 150 + 50 = 350, 10% off.
    const booking = createBooking(db, {
      user,
      date: "2026-12-20",
      hours: 3,
      hourlyRate: 150,
      retainerHoursDrawn: 1,
      originalCost: 350,
      discountAmount: 35,
      couponCode: "SAVE10",
      totalCost: 315,
    });
    db.insert(bookingServices)
      .values({ bookingId: booking.id, serviceId: service.id, priceAtBooking: 50 })
      .run();
    const payment = createPayment(db, {
      booking,
      paymentDetails: { brand: "amex", last4: "0005" },
    });
    const receipt = receiptOfPayment(db, payment.id);
    if (!receipt) throw new Error("no receipt");

    const text = pdfWords(receiptPdf(receipt.details));
    expect(text).toContain("2 hours × $150.00 (1 from your retainer) $300.00");
    expect(text).toContain("Video package $50.00");
    expect(text).toContain("Discount (SAVE10) -$35.00");
    expect(text).toContain("Booking total $315.00");
    expect(text).toContain("Retainer hours used for this session: 1");
    expect(text).toContain("Amount paid $315.00");
    expect(text).toContain("Method Amex");
    expect(text).toContain("0005");
    expect(text).toContain("Babbage & Daughters");
    expect(text).toContain("Sunday, December 20, 2026, 10:00 AM – 1:00 PM (3 hours)");

    // Renaming the add-on later changes nothing on the receipt already issued.
    db.update(services).set({ name: "Renamed package" }).where(eq(services.id, service.id)).run();
    const again = receiptOfPayment(db, payment.id);
    expect(again && receiptPdf(again.details).equals(receiptPdf(receipt.details))).toBe(true);
    expect(pdfWords(receiptPdf(again?.details ?? receipt.details))).toContain("Video package");
  });
});
