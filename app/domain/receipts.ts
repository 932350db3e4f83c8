import { formatStudioInstant } from "#app/domain/booking-display";
import { formatDollars } from "#app/domain/pricing";
import { studioDateOf } from "#app/domain/studio-time";

/** Receipts and credit notes (docs/product.md "Receipts"): a gap-free series per kind and year. */
export const RECEIPT_KINDS = ["RECEIPT", "CREDIT_NOTE"] as const;
export type ReceiptKind = (typeof RECEIPT_KINDS)[number];

export function receiptKindOf(amount: number): ReceiptKind {
  return amount < 0 ? "CREDIT_NOTE" : "RECEIPT";
}

/** The studio's year: 11:30 PM on December 31 in Atlanta is that year's, though not in UTC. */
export function receiptYear(paymentDate: number): number {
  return Number(studioDateOf(paymentDate).slice(0, 4));
}

export function nextReceiptNumber(highestSoFar: number | null | undefined): number {
  return (highestSoFar ?? 0) + 1;
}

export function receiptNumberText(kind: ReceiptKind, year: number, number: number): string {
  const serial = `${year}-${String(number).padStart(6, "0")}`;
  return kind === "CREDIT_NOTE" ? `CN-${serial}` : serial;
}

export function receiptTitle(kind: ReceiptKind): string {
  return kind === "CREDIT_NOTE" ? "Credit note" : "Receipt";
}

export function receiptFilename(kind: ReceiptKind, numberText: string): string {
  const safe = numberText.replace(/[^\w-]+/g, "_");
  return `${kind === "CREDIT_NOTE" ? "credit-note" : "receipt"}-${safe}.pdf`;
}

export function receiptUrl(bookingId: number, paymentId: number): string {
  return `/api/bookings/${bookingId}/payments/${paymentId}/receipt`;
}

/** Fixed when issued, so a document reads the same forever, whatever changes later. */
export type ReceiptDetails = {
  kind: ReceiptKind;
  number: string;
  /** The PDF's creation date. */
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
    retainerHoursDrawn: number;
  };
  payment: {
    /** Always positive: a credit note says "refunded". */
    amount: string;
    method: string;
    date: string;
    feeKept?: string | null;
  };
  refundOf: { receiptNumber: string | null; bookingId: number } | null;
};

export type ReceiptLink = {
  paymentId: number;
  label: string;
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
