import { eq, gt, lte, sum } from "drizzle-orm";
import { uploadReservations } from "#db/schema";
import type { Tx } from "#app/db.server";

/**
 * Free space promised to uploads under way (docs/product.md "Session files"): a row per
 * upload, from the moment it is accepted until it ends, or until `expiresAt` for one that was
 * abandoned. Writes take the caller's transaction.
 */

/** Bytes promised to uploads still live at `now`; expired promises are dropped first. */
export function liveReservedBytes(tx: Tx, now: number): number {
  tx.delete(uploadReservations).where(lte(uploadReservations.expiresAt, now)).run();
  const row = tx
    .select({ total: sum(uploadReservations.bytes) })
    .from(uploadReservations)
    .where(gt(uploadReservations.expiresAt, now))
    .get();
  return Number(row?.total ?? 0);
}

export function insertReservation(tx: Tx, i: { id: string; bytes: number; expiresAt: number }) {
  tx.insert(uploadReservations).values(i).run();
}

export function deleteReservation(tx: Tx, id: string) {
  tx.delete(uploadReservations).where(eq(uploadReservations.id, id)).run();
}
