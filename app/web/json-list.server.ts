/** docs/product.md "The JSON API". No statement is held open between pulls: an open iterator would block the one SQLite connection while a slow client reads. */
export const JSON_LIST_CHUNK_ROWS = 500;

export type ListWalk<Row, Key> = {
  /** Null: from the start. */
  next: (after: Key | null, limit: number) => Row[];
  keyOf: (row: Row) => Key;
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

/** No Content-Length: it is sent chunked. */
export function jsonListResponse<Row, Key>(
  walk: ListWalk<Row, Key>,
  init: { headers?: HeadersInit } = {},
): Response {
  const headers = new Headers(init.headers);
  headers.set("Content-Type", "application/json; charset=utf-8");
  return new Response(jsonListBody(walk), { status: 200, headers });
}

/** docs/product.md "The JSON API": the body stays a plain array; a `Link` rel="next" header says another page exists. */
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
