/**
 * A whole JSON list, streamed (docs/product.md "The JSON API"): the body is one plain array,
 * written a chunk of rows at a time. Each pull reads the next `chunkRows` rows after the last
 * one sent, by key (the list's own order), so the memory held is one chunk whatever the table's
 * size, and each read is an index range however deep. A statement is never held open between
 * pulls: the server has one SQLite connection, and an open iterator would keep every other
 * request from querying it while a slow client reads.
 */
export const JSON_LIST_CHUNK_ROWS = 500;

export type ListWalk<Row, Key> = {
  /** The next `limit` rows after `after` (null: from the start), in the list's order. */
  next: (after: Key | null, limit: number) => Row[];
  /** Where the walk stands after `row`. */
  keyOf: (row: Row) => Key;
  /** The row as the list's JSON shows it. */
  toJson: (row: Row) => unknown;
};

export function jsonListBody<Row, Key>(
  walk: ListWalk<Row, Key>,
  chunkRows = JSON_LIST_CHUNK_ROWS,
): ReadableStream<Uint8Array> {
  const encoder = new TextEncoder();
  let after: Key | null = null;
  let first = true;
  return new ReadableStream<Uint8Array>({
    pull(controller) {
      const rows = walk.next(after, chunkRows);
      const items = rows.map((row) => JSON.stringify(walk.toJson(row))).join(",");
      const done = rows.length < chunkRows;
      const start = first ? "[" : items ? "," : "";
      first = false;
      controller.enqueue(encoder.encode(`${start}${items}${done ? "]" : ""}`));
      const last = rows.at(-1);
      if (done || last === undefined) {
        controller.close();
        return;
      }
      after = walk.keyOf(last);
    },
  });
}

/** The streamed list as a 200 JSON answer (no Content-Length: it is sent chunked). */
export function jsonListResponse<Row, Key>(
  walk: ListWalk<Row, Key>,
  init: { headers?: HeadersInit } = {},
): Response {
  const headers = new Headers(init.headers);
  headers.set("Content-Type", "application/json; charset=utf-8");
  return new Response(jsonListBody(walk), { status: 200, headers });
}

/**
 * A page of a JSON list: the body stays the plain array of docs/product.md "The JSON API"; a
 * `Link: <...>; rel="next"` header (the same URL with `page` + 1) says that another page exists.
 */
export function pageResponse<T>(
  request: Request,
  page: { rows: T[]; page: number; hasNext: boolean },
  init: { headers?: HeadersInit } = {},
): Response {
  const headers = new Headers(init.headers);
  if (page.hasNext) {
    const next = new URL(request.url);
    next.searchParams.set("page", String(page.page + 1));
    headers.set("Link", `<${next.pathname}${next.search}>; rel="next"`);
  }
  return Response.json(page.rows, { headers });
}
