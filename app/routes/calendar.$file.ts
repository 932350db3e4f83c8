import { writeTransaction } from "#app/db.server";
import { feedTokenFromFile } from "#app/domain/calendar-feed";
import { feedCalendar, feedContentHash, feedEvents } from "#app/emails/calendar-feed.server";
import { env } from "#app/env.server";
import {
  customerFeedBookings,
  feedVersion,
  findFeed,
  recordFeedVersion,
  studioFeedBookings,
} from "#app/models/calendar-feed.server";
import { takeCalendarFeedFetch, tooManyFeedFetchesMessage } from "#app/web/rate-limit.server";
import { clientAddressContext } from "#app/web/request-context.server";
import { studioFeedOwnerAdmitted } from "#app/web/staff-gate.server";
import type { Route } from "./+types/calendar.$file";

/**
 * GET /calendar/{token}.ics: a private calendar feed (docs/product.md "Calendar feeds"). The
 * token is the only credential (calendar apps send no cookie): a customer's feed lists their
 * own sessions, a studio feed every live one while the staff gate admits its owner. An unknown
 * token, a studio feed it no longer admits, or a name without `.ics`, is a 404. ETag and Last-Modified let calendar apps poll with a 304; CALENDAR_FEED_LIMIT per hour
 * per token and per client address (429 with Retry-After past it).
 */
/**
 * A feed is a file for calendar apps, never a page's data: its `.data` URL (which the router
 * would answer 200 without the loader when `_routes` names none) is a 404 like an unknown token;
 * other methods go on to the 405.
 */
export const middleware: Route.MiddlewareFunction[] = [
  ({ request }, next) => {
    const read = request.method === "GET" || request.method === "HEAD";
    if (read && new URL(request.url).pathname.endsWith(".data")) throw text(404, NOT_FOUND);
    return next();
  },
];

export async function loader({ request, params, context }: Route.LoaderArgs) {
  const token = feedTokenFromFile(params.file);
  const found = token === null ? undefined : findFeed(token);
  const feed =
    found?.kind === "STUDIO" &&
    !studioFeedOwnerAdmitted({ id: found.userId, isAdmin: found.ownerIsAdmin })
      ? undefined
      : found;
  const retryAfter = await takeCalendarFeedFetch(
    context.get(clientAddressContext),
    feed && token ? token : null,
  );
  if (retryAfter !== null) {
    throw text(429, tooManyFeedFetchesMessage(retryAfter), { "Retry-After": String(retryAfter) });
  }
  // Refusals are thrown: a `.data` URL then answers with their status too, not a 200.
  if (!feed) throw text(404, NOT_FOUND);

  const now = Date.now();
  const rows =
    feed.kind === "STUDIO" ? studioFeedBookings(now) : customerFeedBookings(feed.userId, now);
  const events = feedEvents(feed.kind, rows, env.APP_URL);
  const hash = feedContentHash(feed.kind, events);
  const version =
    feedVersion(feed, hash) ?? writeTransaction((tx) => recordFeedVersion(tx, feed.id, hash, now));
  const etag = `"${hash}.${version.toString(36)}"`;
  const headers = {
    ETag: etag,
    "Last-Modified": new Date(version).toUTCString(),
    "Cache-Control": "private, no-cache",
  };
  if (notModified(request, etag, version)) return new Response(null, { status: 304, headers });
  return new Response(feedCalendar(feed.kind, events, version), {
    headers: { ...headers, "Content-Type": "text/calendar; charset=utf-8" },
  });
}

export function action() {
  return new Response("Method not allowed", {
    status: 405,
    headers: { Allow: "GET, HEAD", "Content-Type": "text/plain; charset=utf-8" },
  });
}

/** If-None-Match decides when sent (RFC 9110 13.1.3); else If-Modified-Since, in seconds. */
function notModified(request: Request, etag: string, version: number): boolean {
  const ifNoneMatch = request.headers.get("If-None-Match");
  if (ifNoneMatch !== null) {
    return ifNoneMatch
      .split(",")
      .map((tag) => tag.trim().replace(/^W\//, ""))
      .some((tag) => tag === etag || tag === "*");
  }
  const since = Date.parse(request.headers.get("If-Modified-Since") ?? "");
  return !Number.isNaN(since) && Math.floor(version / 1000) * 1000 <= since;
}

const NOT_FOUND = "This calendar link does not exist or has been replaced.";

function text(status: number, message: string, headers: Record<string, string> = {}) {
  return new Response(message, {
    status,
    headers: { "Content-Type": "text/plain; charset=utf-8", ...headers },
  });
}
