import { z } from "#app/domain/zod";
import { parseId } from "#app/domain/ids";
import { receiptFilename } from "#app/domain/receipts";
import { receiptPdf } from "#app/emails/receipt-pdf.server";
import { getBooking } from "#app/models/booking.server";
import { getBookingReceipt } from "#app/models/receipt.server";
import { jsonError, describedMethodsOnly } from "#app/web/api.server";
import { isStaff, requireApiUser } from "#app/web/user-context.server";
import type { Route } from "./+types/bookings.receipt";
import * as doc from "#app/web/api-doc";
import { db } from "#app/db.server";

const NOT_FOUND = "Receipt not found";

/**
 * GET /api/bookings/{id}/payments/{paymentId}/receipt: the payment's receipt, or the refund's
 * credit note, as a PDF download (docs/product.md "Receipts"). For the booking's owner and
 * staff only: another customer's booking, a payment of another booking and a malformed id all
 * answer 404, as missing, like the other per-booking routes.
 */
export async function loader({ request, params, context }: Route.LoaderArgs) {
  const user = await requireApiUser(request, context);
  const bookingId = parseId(params.id);
  const paymentId = parseId(params.paymentId);
  if (bookingId === null || paymentId === null) return jsonError(404, NOT_FOUND);
  const booking = getBooking(db, bookingId);
  const staff = await isStaff(request, context);
  if (!booking || (booking.userId !== user.id && !staff)) return jsonError(404, NOT_FOUND);
  const receipt = getBookingReceipt(booking.id, paymentId);
  if (!receipt) return jsonError(404, NOT_FOUND);
  return new Response(new Uint8Array(receiptPdf(receipt.details)), {
    headers: {
      "Content-Type": "application/pdf",
      "Content-Disposition": `attachment; filename="${receiptFilename(receipt.kind, receipt.numberText)}"`,
      "Cache-Control": "private, no-store",
    },
  });
}

export const openapi: doc.ApiPaths = {
  "/api/bookings/{id}/payments/{paymentId}/receipt": {
    get: {
      summary: "A payment's receipt or a refund's credit note as a PDF (the owner and staff)",
      requestParams: {
        path: doc.idPath.extend({
          paymentId: z.string().meta({ description: "A positive whole number" }),
        }),
      },
      responses: {
        200: {
          description: "The document, as a download",
          content: { "application/pdf": { schema: { type: "string", format: "binary" } } },
        },
        401: doc.notSignedIn,
        404: doc.refused(NOT_FOUND),
      },
    },
  },
};

export const middleware: Route.MiddlewareFunction[] = [describedMethodsOnly(openapi)];
