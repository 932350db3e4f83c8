import { readPeriod } from "#app/domain/sales-period";
import { readListRequest } from "#app/models/pagination.server";
import {
  API_PAGE_SIZE,
  paymentsPage,
  paymentsWalk,
  periodError,
} from "#app/routes/admin/sales.server";
import { jsonError } from "#app/web/api.server";
import { jsonListResponse, pageResponse } from "#app/web/json-list.server";
import type { Route } from "./+types/payments";
import * as doc from "#app/web/api-doc";
import * as shape from "#app/routes/api/json/shapes";
import { z } from "#app/domain/zod";

const NO_STORE = { "Cache-Control": "private, no-store" };

/**
 * GET /api/admin/payments: the list of {id, bookingId, amount, paymentDate} of
 * docs/product.md "The JSON API", newest first as the Sales tab lists them, for the same period
 * parameters (`period`, `from`, `to`). Without `page` or `limit` the whole period, streamed (the
 * spec's client sums it into the sales totals); with them one page of `limit` rows (100 by
 * default, at most 500) and, when there are more, a `Link: <...>; rel="next"` header.
 * paymentDate is an ISO 8601 UTC instant; amounts are whole dollars, refunds negative.
 */
export async function loader({ request }: Route.LoaderArgs) {
  const url = new URL(request.url);
  const reading = readPeriod(url.searchParams);
  if (!reading.ok) {
    const { message, errors } = periodError(reading);
    return jsonError(400, message, { errors });
  }
  const list = readListRequest(url, API_PAGE_SIZE);
  if (list.kind === "refused") return jsonError(400, list.message);
  const now = Date.now();
  if (list.kind === "whole") {
    return jsonListResponse(paymentsWalk(reading.choice, now), { headers: NO_STORE });
  }
  const { payments, hasNext } = paymentsPage(reading.choice, list.page, now, list.size);
  return pageResponse(request, { rows: payments, page: list.page, hasNext }, { headers: NO_STORE });
}

export const openapi: doc.ApiPaths = {
  "/api/admin/payments": {
    get: {
      summary:
        "Payments and refunds of a period, newest first; the whole list, or a page with ?page=&limit= (Link rel=next)",
      requestParams: {
        query: z.object({
          period: z.string().optional(),
          from: z.string().optional(),
          to: z.string().optional(),
          ...doc.PAGING_QUERY,
        }),
      },
      responses: {
        200: doc.answers("The list, or one page of it", z.array(shape.paymentJson)),
        400: doc.refused("A refused period (`errors` by field), page or limit", {
          errors: doc.fieldErrors.optional(),
        }),
        ...doc.ADMIN_GUARD,
      },
    },
  },
};
