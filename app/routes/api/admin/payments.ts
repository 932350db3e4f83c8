import { readPeriod } from "#app/domain/sales-period";
import { pageResponse, readPage } from "#app/models/pagination.server";
import { periodError, paymentsPage } from "#app/routes/admin/sales.server";
import { jsonError } from "#app/web/api.server";
import type { Route } from "./+types/payments";
import * as doc from "#app/web/api-doc";
import * as shape from "#app/domain/api-shapes";
import { z } from "#app/domain/zod";

/**
 * GET /api/admin/payments: the list of {id, bookingId, amount, paymentDate} of
 * docs/product.md "The JSON API", newest first, for the same period parameters as the Sales tab
 * (`period`, `from`, `to`). Paged: `?page=N` (1-based) gives 100 rows; when there are more, a
 * `Link: <...>; rel="next"` header points at the next page (the body stays the plain list of
 * docs/product.md "The JSON API"). paymentDate is an ISO 8601 UTC instant; amounts are whole
 * dollars, refunds negative.
 */
export async function loader({ request }: Route.LoaderArgs) {
  const url = new URL(request.url);
  const reading = readPeriod(url.searchParams);
  if (!reading.ok) {
    const { message, errors } = periodError(reading);
    return jsonError(400, message, { errors });
  }
  const page = readPage(url);
  const { payments, hasNext } = paymentsPage(reading.choice, page, Date.now());
  return pageResponse(
    request,
    { rows: payments, page, hasNext },
    { headers: { "Cache-Control": "private, no-store" } },
  );
}

export const openapi: doc.ApiPaths = {
  "/api/admin/payments": {
    get: {
      summary: "Payments and refunds of a period, newest first, 100 a page (Link rel=next)",
      requestParams: {
        query: z.object({
          period: z.string().optional(),
          from: z.string().optional(),
          to: z.string().optional(),
          page: z.string().optional(),
        }),
      },
      responses: {
        200: doc.answers("One page of payments", z.array(shape.paymentJson)),
        400: doc.refused("A refused period (`errors` by field)", { errors: shape.fieldErrors }),
        ...doc.ADMIN_GUARD,
      },
    },
  },
};
