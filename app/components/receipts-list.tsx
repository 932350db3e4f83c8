import type { ReceiptLink } from "#app/domain/receipts";

/** docs/product.md "Receipts". */
export function ReceiptsList({ receipts }: { receipts: readonly ReceiptLink[] }) {
  if (receipts.length === 0) return null;
  return (
    <section aria-labelledby="booking-receipts" className="mt-8">
      <h3 id="booking-receipts" className="font-display text-base font-bold">
        Receipts
      </h3>
      <ul className="mt-2 space-y-2">
        {receipts.map((receipt) => (
          <li key={receipt.paymentId} className="flex flex-wrap items-center gap-x-3 gap-y-1">
            {/* A file, not a page: the browser downloads it rather than the router navigating. */}
            <a
              href={receipt.url}
              download={receipt.filename}
              className="btn-secondary px-4 py-2 text-sm text-ink"
            >
              {receipt.label} (PDF)
            </a>
            <span className="text-sm text-ink-soft">{receipt.summary}</span>
          </li>
        ))}
      </ul>
    </section>
  );
}
