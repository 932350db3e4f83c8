import type { z } from "#app/domain/zod";
import type { SalesRow } from "#app/models/sales.server";
import type * as shape from "#app/routes/api/json/shapes";

/** A payment as GET /api/admin/payments answers it. */
export function toPaymentJson(row: SalesRow): z.infer<typeof shape.paymentJson> {
  return {
    id: row.id,
    bookingId: row.bookingId,
    amount: row.amount,
    paymentDate: new Date(row.paymentDate).toISOString(),
  };
}
