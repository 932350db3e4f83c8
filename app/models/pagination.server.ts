/**
 * Admin lists are paged in SQL (docs/product.md "Admin"). A page asks for one row more than
 * it shows: that row only says whether a next page exists, so no list ever counts a whole
 * table (a COUNT over 100,000 bookings would cost more than the page itself).
 */
export const PAGE_SIZE = 25;
/** Deep offsets cost a scan; nobody pages this far by hand. */
export const MAX_PAGE = 4000;

/** `?page=N` (1-based); anything that is not a whole number in range reads as page 1. */
export function readPage(url: URL): number {
  const raw = url.searchParams.get("page");
  if (raw === null || !/^\d{1,6}$/.test(raw)) return 1;
  const page = Number(raw);
  return page >= 1 && page <= MAX_PAGE ? page : 1;
}

/** LIMIT and OFFSET for a page: one extra row to learn whether there is a next page. */
export function pageWindow(page: number, size = PAGE_SIZE) {
  return { limit: size + 1, offset: (page - 1) * size };
}

export type Page<T> = { rows: T[]; page: number; hasNext: boolean; size: number };

/** Cuts the extra row off a page fetched with `pageWindow`. */
export function toPage<T>(rows: T[], page: number, size = PAGE_SIZE): Page<T> {
  return { rows: rows.slice(0, size), page, hasNext: rows.length > size, size };
}

/** The most rows a client may ask for in one page of a JSON list (`?limit=`). */
export const MAX_LIMIT = 500;
export const LIMIT_MESSAGE = `limit must be a whole number from 1 to ${MAX_LIMIT}`;

/**
 * How a JSON list is asked for (docs/product.md "The JSON API"): with neither `page` nor `limit`
 * the whole list (the spec's client reads no paging); with either, one page of `limit` rows
 * (default `size`). A `limit` that is not a whole number from 1 to MAX_LIMIT is refused.
 */
export type ListRequest =
  | { kind: "whole" }
  | { kind: "page"; page: number; size: number }
  | { kind: "refused"; message: string };

export function readListRequest(url: URL, size = PAGE_SIZE): ListRequest {
  const params = url.searchParams;
  if (!params.has("page") && !params.has("limit")) return { kind: "whole" };
  const rawLimit = params.get("limit");
  if (rawLimit === null) return { kind: "page", page: readPage(url), size };
  const limit = /^\d{1,6}$/.test(rawLimit) ? Number(rawLimit) : 0;
  if (limit < 1 || limit > MAX_LIMIT) return { kind: "refused", message: LIMIT_MESSAGE };
  return { kind: "page", page: readPage(url), size: limit };
}
