import type { EntryContext } from "react-router";

/**
 * A page a visitor sees (no account, no toast, nothing posted) is the same for every visitor who
 * asks for the same URL while its loaders return the same data: rendering it again for each one
 * is the largest cost of the landing page under a crowd (decision 0095). So its HTML is kept,
 * keyed by the URL, the status and every loader's data, and served again with this response's
 * nonce in place of the one it was rendered with.
 *
 * The key holds everything the render reads, so the page is right the moment anything changes:
 * a service's price, a booking that takes a start time, the day turning (the earliest bookable
 * date is loader data). A deploy starts a fresh process, with nothing kept.
 */
const MAX_PAGES = 32;

type SharedPage = { html: string; nonce: string };

/** Oldest first: a Map keeps insertion order, and a hit moves its page to the end. */
const pages = new Map<string, SharedPage>();

type RootData = { user?: unknown; toast?: unknown } | undefined;

/**
 * The key of a page every visitor shares, or null when this render belongs to one person:
 * a signed-in user, a toast, an action's reply or an error thrown by a loader.
 */
export function sharedPageKey(request: Request, context: EntryContext): string | null {
  if (request.method !== "GET") return null;
  const { loaderData, actionData, errors, statusCode } = context.staticHandlerContext;
  if (actionData || errors) return null;
  const root = loaderData.root as RootData;
  if (!root || root.user !== null || root.toast) return null;
  return JSON.stringify([request.url, statusCode, loaderData]);
}

/** The kept HTML of that page, carrying `nonce`, or undefined if it is not kept. */
export function keptPage(key: string, nonce: string): string | undefined {
  const page = pages.get(key);
  if (!page) return undefined;
  pages.delete(key);
  pages.set(key, page);
  // The nonce is 128 random bits written only into the attributes React rendered, so no other
  // text of the page can hold it.
  return page.html.replaceAll(page.nonce, nonce);
}

/** Keeps a page as rendered for `key`, with the nonce it carries. */
export function keepPage(key: string, html: Buffer, nonce: string) {
  pages.set(key, { html: html.toString("utf8"), nonce });
  if (pages.size > MAX_PAGES) pages.delete(pages.keys().next().value as string);
}
