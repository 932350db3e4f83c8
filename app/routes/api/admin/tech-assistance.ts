import { supportStatusParam } from "#app/domain/support";
import { listSupportRequestsPage, toSupportRequestJson } from "#app/models/support.server";
import { MAX_PAGE, pageResponse } from "#app/models/pagination.server";
import { jsonError } from "#app/web/api.server";
import type { Route } from "./+types/tech-assistance";
import * as doc from "#app/web/api-doc";
import * as shape from "#app/domain/api-shapes";
import { z } from "#app/domain/zod";

/**
 * GET /api/admin/tech-assistance (docs/product.md "The JSON API": "List of requests"), admins only.
 *
 * Query: `status` = PENDING | IN_PROGRESS | RESOLVED | CANCELLED (absent: every status) and
 * `page` = 1, 2, ... (25 requests a page, newest first). The body stays the bare list of
 * docs/product.md "The JSON API"; paging travels in headers: `X-Page` (this page) and, when there
 * are more, a `Link: </api/admin/tech-assistance?...&page=N+1>; rel="next"`. Each request carries
 * the fields of docs/product.md "Data", `username`, and `booking` ({ id, startsAt, endsAt, status }
 * or null). A bad `status` or `page` is a 400 with `message`; a visitor 401, a customer 403.
 */
export async function loader({ request }: Route.LoaderArgs) {
  const url = new URL(request.url);
  const rawStatus = url.searchParams.get("status");
  const status = supportStatusParam(rawStatus);
  if (rawStatus !== null && rawStatus !== "" && status === null) {
    return jsonError(400, "status must be one of PENDING, IN_PROGRESS, RESOLVED, CANCELLED");
  }
  const rawPage = url.searchParams.get("page");
  const page = rawPage === null ? 1 : /^\d{1,6}$/.test(rawPage) ? Number(rawPage) : 0;
  if (page < 1 || page > MAX_PAGE) {
    return jsonError(400, `page must be a whole number from 1 to ${MAX_PAGE}`);
  }
  const result = listSupportRequestsPage({ status }, page);
  return pageResponse(
    request,
    {
      ...result,
      page,
      rows: result.rows.map((row) => ({
        ...toSupportRequestJson(row),
        username: row.username,
        booking:
          row.bookingId !== null && row.bookingStartsAt !== null && row.bookingEndsAt !== null
            ? {
                id: row.bookingId,
                startsAt: new Date(row.bookingStartsAt).toISOString(),
                endsAt: new Date(row.bookingEndsAt).toISOString(),
                status: row.bookingStatus,
              }
            : null,
      })),
    },
    { headers: { "X-Page": String(page) } },
  );
}

export const openapi: doc.ApiPaths = {
  "/api/admin/tech-assistance": {
    get: {
      summary: "Support requests, newest first, 25 a page (X-Page, Link rel=next)",
      requestParams: {
        query: z.object({
          status: z.enum(["PENDING", "IN_PROGRESS", "RESOLVED", "CANCELLED"]).optional(),
          page: z.string().optional(),
        }),
      },
      responses: {
        200: doc.answers("One page of requests", z.array(shape.adminSupportRequestJson)),
        400: doc.refused("A bad status or page"),
        ...doc.ADMIN_GUARD,
      },
    },
  },
};
