import type { EntryContext } from "react-router";

/** Decision 0095: rendering visitors' pages again was the landing page's largest cost. The key holds everything the render reads. */
const MAX_PAGES = 32;

type SharedPage = { html: string; nonce: string };

/** A Map keeps insertion order, and a hit moves its page to the end. */
const pages = new Map<string, SharedPage>();

type RootData = { user?: unknown; toast?: unknown } | undefined;

/** Null when the render belongs to one person: a user, a toast, an action's reply, a loader's error. */
export function sharedPageKey(request: Request, context: EntryContext): string | null {
  if (request.method !== "GET") return null;
  const { loaderData, actionData, errors, statusCode } = context.staticHandlerContext;
  if (actionData || errors) return null;
  const root = loaderData.root as RootData;
  if (!root || root.user !== null || root.toast) return null;
  return JSON.stringify([request.url, statusCode, loaderData]);
}

export function keptPage(key: string, nonce: string): string | undefined {
  const page = pages.get(key);
  if (!page) return undefined;
  pages.delete(key);
  pages.set(key, page);
  // The nonce is 128 random bits written only into attributes React rendered.
  return page.html.replaceAll(page.nonce, nonce);
}

export function keepPage(key: string, html: Buffer, nonce: string) {
  pages.set(key, { html: html.toString("utf8"), nonce });
  if (pages.size > MAX_PAGES) pages.delete(pages.keys().next().value as string);
}
