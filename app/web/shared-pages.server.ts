import { createHash } from "node:crypto";
import { promisify } from "node:util";
import { brotliCompress, constants, gzip } from "node:zlib";
import Negotiator from "negotiator";
import { createContext, type EntryContext, type RouterContextProvider } from "react-router";
import { noteRequestRoute } from "#app/log.server";
import { busyRangesChangeAt } from "#app/models/booking.server";
import { readDataVersion } from "#app/models/data-version.server";
import { routeLabel } from "#app/web/request-log.server";
import { SIGN_IN_COOKIE_NAME } from "#app/web/sign-in.server";

/** Decision 0095: a visitor's page is stored once, compressed once, and answered before React Router runs while its data version, build and quarter hour stand. */
const MAX_PAGES = 32;
/** Start times fall on the hour and every UTC offset on a quarter: the day and the year too. */
const QUARTER_HOUR_MS = 15 * 60_000;
const ONE_SEGMENT = 1400;

/** A route's `handle` when its loaders, without the personal cookies below, read only the URL, the clock and the tables whose writes bump the data version (db/schema.ts). */
export type StoredForVisitors = { storedForVisitors: true };
const PERSONAL_COOKIES = [`${SIGN_IN_COOKIE_NAME}=`, "toast-session=", "__2fa_pending="];

type Handler = (request: Request, context: RouterContextProvider) => Promise<Response>;
type Encoding = "br" | "gzip" | "identity";
type StoredPage = {
  build: string;
  version: number;
  from: number;
  until: number;
  route: string;
  forEveryone: boolean;
  status: number;
  headers: [string, string][];
  /** Without compressed copies when it fits one TCP segment (server.js's threshold): they would save no round trip. */
  bodies: { identity: Uint8Array<ArrayBuffer> } & Partial<
    Record<Encoding, Uint8Array<ArrayBuffer>>
  >;
  etag: string;
};

const pages = new Map<string, StoredPage>();

type Storable = { route: string; forEveryone: boolean };

/** Set by entry.server on a render that may be stored, or by a JSON read. */
export const storablePageContext = createContext<Storable | null>(null);

/** A public JSON read, the same whoever asks, at its canonical query only: a click id is never a new entry. */
export function storeAnswerForEveryone(
  request: Request,
  context: Readonly<RouterContextProvider>,
  canonicalSearch: string,
) {
  const url = new URL(request.url);
  if (url.search === canonicalSearch) {
    context.set(storablePageContext, { route: url.pathname, forEveryone: true });
  }
}

/** Never a page with a query: one is often unique to its visitor (an ad's click id), a brotli pass for a page asked for once. */
export function storableRoute(request: Request, context: EntryContext): Storable | null {
  if (request.method !== "GET" || new URL(request.url).search !== "") return null;
  const { loaderData, actionData, errors, matches } = context.staticHandlerContext;
  if (actionData || errors) return null;
  const root = loaderData.root as { user?: unknown; toast?: unknown } | undefined;
  if (!root || root.user !== null || root.toast) return null;
  const declared = matches.every(
    ({ route }) =>
      (context.routeModules[route.id]?.handle as StoredForVisitors | undefined)
        ?.storedForVisitors === true,
  );
  if (!declared) return null;
  return {
    route: routeLabel(matches.flatMap(({ route }) => route.path ?? []).join("/")),
    forEveryone: false,
  };
}

function isPersonal(cookie: string | null): boolean {
  return cookie !== null && PERSONAL_COOKIES.some((name) => cookie.includes(name));
}

type Asked = { build: string; version: number; at: number; personal: boolean };

/** In step with the data, the build and the clock the request was asked in, and its asker's. */
function stands(page: StoredPage | null | undefined, asked: Asked): page is StoredPage {
  return (
    page != null &&
    (page.forEveryone || !asked.personal) &&
    page.build === asked.build &&
    page.version === asked.version &&
    page.from <= asked.at &&
    asked.at < page.until
  );
}

/** Renders under way: the requests that miss meanwhile wait for the one render, not make theirs. */
const rendering = new Map<string, Promise<StoredPage | null>>();

/** A hit runs no loader and no render; a storable miss is stored, then answered from the store. */
export function servingStoredPages(
  handle: Handler,
  build: () => string | Promise<string>,
): Handler {
  return async (request, context) => {
    if (request.method !== "GET") return handle(request, context);
    const url = new URL(request.url);
    const path = url.pathname + url.search;
    // Read before the loaders: a write meanwhile leaves the stored page already out of date.
    const asked = {
      build: await build(),
      version: readDataVersion(),
      at: Date.now(),
      personal: isPersonal(request.headers.get("Cookie")),
    };
    const stored = standingPage(path, asked);
    if (stored) return answer(stored, request);
    // A signed-in render is never a visitor's: it neither waits for one nor stands for one.
    if (asked.personal) {
      return storedIfEveryones(path, asked, request, await handle(request, context), context);
    }
    const key = `${asked.build} ${asked.version} ${path}`;
    const underWay = rendering.get(key);
    if (underWay) {
      const page = await underWay;
      if (!stands(page, asked)) return handle(request, context);
      noteRequestRoute(page.route);
      return answer(page, request);
    }
    let settle: (page: StoredPage | null) => void = () => {};
    rendering.set(key, new Promise((resolve) => (settle = resolve)));
    try {
      const response = await handle(request, context);
      const storable = context.get(storablePageContext);
      if (storable === null || response.headers.has("Set-Cookie")) return response;
      const page = await store(path, asked, storable, response);
      settle(page);
      return answer(page, request);
    } finally {
      settle(null);
      rendering.delete(key);
    }
  };
}

async function storedIfEveryones(
  path: string,
  asked: Asked,
  request: Request,
  response: Response,
  context: RouterContextProvider,
): Promise<Response> {
  const storable = context.get(storablePageContext);
  if (!storable?.forEveryone || response.headers.has("Set-Cookie")) return response;
  return answer(await store(path, asked, storable, response), request);
}

function standingPage(path: string, asked: Asked): StoredPage | null {
  const stored = pages.get(path);
  if (!stands(stored, asked)) return null;
  pages.delete(path);
  pages.set(path, stored);
  noteRequestRoute(stored.route);
  return stored;
}

/**
 * A stored page's answer to a request as Node reads it, for server/app.ts to send before a Fetch
 * Request is made of it (a third of a stored page's CPU); null when it must go to the app.
 */
export function storedPageAnswer(
  build: string,
  method: string,
  url: string,
  headers: Record<string, string | string[] | undefined>,
): StoredAnswer | null {
  // As Node read it: a path written otherwise than the store's key is a miss, answered the slow way.
  if (method !== "GET" || !pages.has(url)) return null;
  const personal = isPersonal(headers.cookie === undefined ? null : String(headers.cookie));
  const page = standingPage(url, { build, version: readDataVersion(), at: Date.now(), personal });
  if (!page) return null;
  const one = (name: string) => {
    const value = headers[name];
    return value === undefined ? null : String(value);
  };
  return answerOf(page, one("accept-encoding"), one("if-none-match"));
}

const brotli = promisify(brotliCompress);
const gzipped = promisify(gzip);

async function store(
  path: string,
  asked: Asked,
  { route, forEveryone }: Storable,
  response: Response,
): Promise<StoredPage> {
  const identity = new Uint8Array(await response.arrayBuffer());
  const compressed = identity.length < ONE_SEGMENT ? {} : await compressedCopies(identity);
  const quarter = Math.floor(asked.at / QUARTER_HOUR_MS) * QUARTER_HOUR_MS;
  const page: StoredPage = {
    build: asked.build,
    version: asked.version,
    from: quarter,
    until: Math.min(quarter + QUARTER_HOUR_MS, busyRangesChangeAt(asked.at)),
    route,
    forEveryone,
    status: response.status,
    headers: [...response.headers].filter(([name]) => name !== "content-length"),
    bodies: { identity, ...compressed },
    etag: createHash("sha256").update(identity).digest("base64url").slice(0, 27),
  };
  pages.delete(path);
  pages.set(path, page);
  if (pages.size > MAX_PAGES) pages.delete(pages.keys().next().value as string);
  return page;
}

async function compressedCopies(identity: Uint8Array<ArrayBuffer>) {
  const [br, gz] = await Promise.all([
    brotli(identity, {
      params: {
        [constants.BROTLI_PARAM_QUALITY]: constants.BROTLI_MAX_QUALITY,
        [constants.BROTLI_PARAM_MODE]: constants.BROTLI_MODE_TEXT,
        [constants.BROTLI_PARAM_SIZE_HINT]: identity.length,
      },
    }),
    gzipped(identity, { level: constants.Z_BEST_COMPRESSION }),
  ]);
  return { br, gzip: gz };
}

const CODINGS: Encoding[] = ["br", "gzip", "identity"];

/** The coding the client ranks highest, brotli first on a tie. */
function chosenEncoding(header: string | null): Encoding {
  const headers = header === null ? {} : { "accept-encoding": header };
  const chosen = new Negotiator({ headers }).encoding(CODINGS, CODINGS);
  return CODINGS.find((coding) => coding === chosen) ?? "identity";
}

function matchesTag(ifNoneMatch: string | null, etag: string): boolean {
  if (ifNoneMatch === null) return false;
  return ifNoneMatch
    .split(",")
    .some((tag) => tag.trim() === "*" || tag.trim().replace(/^W\//, "") === etag);
}

type StoredAnswer = { status: number; headers: Headers; body: Uint8Array<ArrayBuffer> | null };

function answerOf(
  page: StoredPage,
  acceptEncoding: string | null,
  ifNoneMatch: string | null,
): StoredAnswer {
  const chosen = chosenEncoding(acceptEncoding);
  const encoding = page.bodies[chosen] ? chosen : "identity";
  const etag = `"${page.etag}${encoding === "identity" ? "" : `-${encoding}`}"`;
  const headers = new Headers(page.headers);
  headers.set("ETag", etag);
  headers.set("Vary", "Accept-Encoding");
  if (page.status === 200 && matchesTag(ifNoneMatch, etag)) {
    headers.delete("Content-Type");
    return { status: 304, headers, body: null };
  }
  // Set here, the compression middleware leaves the answer as it is.
  if (encoding !== "identity") headers.set("Content-Encoding", encoding);
  const body = page.bodies[encoding] ?? page.bodies.identity;
  headers.set("Content-Length", String(body.length));
  return { status: page.status, headers, body };
}

function answer(page: StoredPage, request: Request): Response {
  const { status, headers, body } = answerOf(
    page,
    request.headers.get("Accept-Encoding"),
    request.headers.get("If-None-Match"),
  );
  return new Response(body, { status, headers });
}
