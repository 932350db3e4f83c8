import { formatStudioInstant } from "#app/domain/booking-display";
import { formatDollars } from "#app/domain/pricing";
import { studioDateOf } from "#app/domain/studio-time";

/**
 * Receipts and credit notes (docs/product.md "Receipts"): every payment gets a receipt, every
 * refund a credit note, each numbered in its own gap-free series per studio-time year.
 */
export const RECEIPT_KINDS = ["RECEIPT", "CREDIT_NOTE"] as const;
export type ReceiptKind = (typeof RECEIPT_KINDS)[number];

/** A charge (a positive amount) gets a receipt; a refund (negative) a credit note. */
export function receiptKindOf(amount: number): ReceiptKind {
  return amount < 0 ? "CREDIT_NOTE" : "RECEIPT";
}

/**
 * The year a document is numbered in: the payment's year on the studio's clock, so a payment
 * at 11:30 PM on December 31 in Atlanta belongs to that year although it is already the next
 * one in UTC.
 */
export function receiptYear(paymentDate: number): number {
  return Number(studioDateOf(paymentDate).slice(0, 4));
}

/** The next number of a series: one more than the highest so far, 1 for a new year. */
export function nextReceiptNumber(highestSoFar: number | null | undefined): number {
  return (highestSoFar ?? 0) + 1;
}

/** The printed number: "2026-000123" for a receipt, "CN-2026-000045" for a credit note. */
export function receiptNumberText(kind: ReceiptKind, year: number, number: number): string {
  const serial = `${year}-${String(number).padStart(6, "0")}`;
  return kind === "CREDIT_NOTE" ? `CN-${serial}` : serial;
}

/** What a document is called, as its heading and in the lists. */
export function receiptTitle(kind: ReceiptKind): string {
  return kind === "CREDIT_NOTE" ? "Credit note" : "Receipt";
}

/** A clean download name: "receipt-2026-000123.pdf", "credit-note-CN-2026-000045.pdf". */
export function receiptFilename(kind: ReceiptKind, numberText: string): string {
  const safe = numberText.replace(/[^\w-]+/g, "_");
  return `${kind === "CREDIT_NOTE" ? "credit-note" : "receipt"}-${safe}.pdf`;
}

/** Where a payment's document downloads (owner and staff only). */
export function receiptUrl(bookingId: number, paymentId: number): string {
  return `/api/bookings/${bookingId}/payments/${paymentId}/receipt`;
}

/**
 * What a document says, fixed when it is issued so it reads the same forever, whatever
 * changes later (a renamed add-on, a new address, a changed name). All text is ready to print.
 */
export type ReceiptDetails = {
  kind: ReceiptKind;
  number: string;
  /** When it was issued (epoch ms): the PDF's creation date. */
  issuedAt: number;
  studio: { name: string; street: string; locality: string; email: string; phone: string };
  customer: { name: string; business: string | null; email: string };
  booking: {
    id: number;
    date: string;
    time: string;
    hours: string;
    lines: { label: string; amount: string }[];
    total: string;
    /** Hours of the session drawn from a retainer package (0 when none). */
    retainerHoursDrawn: number;
  };
  payment: {
    /** Always positive: a credit note says "refunded". */
    amount: string;
    method: string;
    date: string;
    /** A credit note of a late cancellation: the fee the studio kept (null when none). */
    feeKept?: string | null;
  };
  /** A credit note: the receipt of the charge it refunds (null if none was issued). */
  refundOf: { receiptNumber: string | null; bookingId: number } | null;
};

/** One document in a booking's list of receipts (My Sessions, the admin booking page). */
export type ReceiptLink = {
  paymentId: number;
  /** "Receipt 2026-000001", "Credit note CN-2026-000001". */
  label: string;
  /** "$400.00 paid on Nov 27, 2026", "$400.00 refunded on Nov 28, 2026". */
  summary: string;
  url: string;
  filename: string;
};

export function receiptLink(row: {
  bookingId: number;
  paymentId: number;
  kind: ReceiptKind;
  numberText: string;
  amount: number;
  paymentDate: number;
}): ReceiptLink {
  const verb = row.kind === "CREDIT_NOTE" ? "refunded" : "paid";
  return {
    paymentId: row.paymentId,
    label: `${receiptTitle(row.kind)} ${row.numberText}`,
    summary: `${formatDollars(Math.abs(row.amount))} ${verb} on ${formatStudioInstant(row.paymentDate, "MMM d, yyyy")}`,
    url: receiptUrl(row.bookingId, row.paymentId),
    filename: receiptFilename(row.kind, row.numberText),
  };
}
