import { writeTransaction } from "#app/db.server";
import { logEvent } from "#app/log.server";
import { issueMissingReceipts } from "#app/models/receipt.server";

/** Payments per transaction: short enough that a request never waits long for the writer. */
const BATCH = 200;

/**
 * The one-off backfill (docs/product.md "Receipts"): payments recorded before receipts
 * existed get theirs, oldest first. Run as the server starts, before it serves, so each
 * year's numbers follow its payments; after the first run it finds nothing to do.
 */
export function backfillReceipts(now: number): number {
  let issued = 0;
  for (;;) {
    const batch = writeTransaction((tx) => issueMissingReceipts(tx, now, BATCH));
    issued += batch;
    if (batch < BATCH) break;
  }
  if (issued > 0) logEvent("receipts backfilled", { issued });
  return issued;
}
