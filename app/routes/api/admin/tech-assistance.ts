import { supportStatusParam } from "#app/domain/support";
import {
  type AdminSupportRequest,
  listSupportRequestsPage,
  type SupportCursor,
  supportRequestsAfter,
} from "#app/models/support.server";
import { MAX_PAGE, readListRequest } from "#app/models/pagination.server";
import { jsonError } from "#app/web/api.server";
import { jsonListResponse, pageResponse } from "#app/web/json-list.server";
import type { Route } from "./+types/tech-assistance";
import * as doc from "#app/web/api-doc";
import * as shape from "#app/routes/api/json/shapes";
import { z } from "#app/domain/zod";
import { toSupportRequestJson } from "#app/routes/api/json/support-request";

/** A request as the list shows it: its fields, the requester and the booking it is about. */
function toAdminRequestJson(row: AdminSupportRequest) {
  return {
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
  };
}

/**
 * GET /api/admin/tech-assistance (docs/product.md "The JSON API": "List of requests"), admins only.
 *
 * Query: `status` = PENDING | IN_PROGRESS | RESOLVED | CANCELLED (absent: every status), newest
 * first as the Support tab lists them. Without `page` or `limit` the whole list, streamed. With
 * them one page: `page` = 1, 2, ... and `limit` rows (25 by default, at most 500); paging travels
 * in headers: `X-Page` (this page) and, when there are more, a
 * `Link: </api/admin/tech-assistance?...&page=N+1>; rel="next"`. Each request carries the fields of
 * docs/product.md "Data", `username`, and `booking` ({ id, startsAt, endsAt, status } or null). A
 * bad `status`, `page` or `limit` is a 400 with `message`; a visitor 401, a customer 403.
 */
export async function loader({ request }: Route.LoaderArgs) {
  const url = new URL(request.url);
  const rawStatus = url.searchParams.get("status");
  const status = supportStatusParam(rawStatus);
  if (rawStatus !== null && rawStatus !== "" && status === null) {
    return jsonError(400, "status must be one of PENDING, IN_PROGRESS, RESOLVED, CANCELLED");
  }
  const list = readListRequest(url);
  if (list.kind === "refused") return jsonError(400, list.message);
  if (list.kind === "whole") {
    return jsonListResponse({
      next: (cursor: SupportCursor | null, limit) =>
        supportRequestsAfter({ status }, cursor, limit),
      keyOf: (row) => ({ createdAt: row.createdAt, id: row.id }),
      toJson: toAdminRequestJson,
    });
  }
  const rawPage = url.searchParams.get("page");
  const page = rawPage === null ? 1 : /^\d{1,6}$/.test(rawPage) ? Number(rawPage) : 0;
  if (page < 1 || page > MAX_PAGE) {
    return jsonError(400, `page must be a whole number from 1 to ${MAX_PAGE}`);
  }
  const result = listSupportRequestsPage({ status }, page, list.size);
  return pageResponse(
    request,
    { ...result, page, rows: result.rows.map(toAdminRequestJson) },
    { headers: { "X-Page": String(page) } },
  );
}

export const openapi: doc.ApiPaths = {
  "/api/admin/tech-assistance": {
    get: {
      summary:
        "Support requests, newest first; the whole list, or a page with ?page=&limit= (X-Page, Link rel=next)",
      requestParams: {
        query: z.object({
          status: z.enum(["PENDING", "IN_PROGRESS", "RESOLVED", "CANCELLED"]).optional(),
          ...doc.PAGING_QUERY,
        }),
      },
      responses: {
        200: doc.answers("The list, or one page of it", z.array(shape.adminSupportRequestJson)),
        400: doc.refused("A bad status, page or limit"),
        ...doc.ADMIN_GUARD,
      },
    },
  },
};
