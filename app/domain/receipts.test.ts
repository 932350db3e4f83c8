import { describe, expect, it } from "vitest";
import {
  nextReceiptNumber,
  receiptFilename,
  receiptKindOf,
  receiptNumberText,
  receiptYear,
} from "#app/domain/receipts";
import { studioInstant } from "#app/domain/studio-time";

describe('receipt numbering (docs/product.md "Receipts")', () => {
  it("numbers a payment in its studio-time year: 11:30 PM on Dec 31 in New York is already 2027 in UTC", () => {
    const lateOnNewYearsEve = studioInstant("2026-12-31", "23:30");
    expect(new Date(lateOnNewYearsEve).getUTCFullYear()).toBe(2027);
    expect(receiptYear(lateOnNewYearsEve)).toBe(2026);
    expect(receiptYear(studioInstant("2027-01-01", "00:00"))).toBe(2027);
  });

  it("starts each series at 1 and goes on from the highest number so far", () => {
    expect(nextReceiptNumber(null)).toBe(1);
    expect(nextReceiptNumber(undefined)).toBe(1);
    expect(nextReceiptNumber(41)).toBe(42);
  });

  it("gives a charge a receipt and a refund a credit note, each with its own printed series", () => {
    expect(receiptKindOf(400)).toBe("RECEIPT");
    expect(receiptKindOf(-400)).toBe("CREDIT_NOTE");
    expect(receiptNumberText("RECEIPT", 2026, 123)).toBe("2026-000123");
    expect(receiptNumberText("CREDIT_NOTE", 2026, 45)).toBe("CN-2026-000045");
  });

  it("names the download after the number, with nothing a header could break on", () => {
    expect(receiptFilename("RECEIPT", "2026-000123")).toBe("receipt-2026-000123.pdf");
    expect(receiptFilename("CREDIT_NOTE", "CN-2026-000045")).toBe("credit-note-CN-2026-000045.pdf");
    expect(receiptFilename("RECEIPT", 'a"b\r\nc/d')).toBe("receipt-a_b_c_d.pdf");
  });
});
