import { z } from "../../domain/zod";
import { jsonError } from "../api.server";
import { requireApiUser } from "../auth.server";
import type { PublicUser } from "../../models/user.server";

/** Admin JSON (spec section 7): 401 for a visitor (requireApiUser), 403 for a customer. */
export async function requireApiAdmin(request: Request): Promise<PublicUser> {
  const user = await requireApiUser(request);
  if (!user.isAdmin) throw jsonError(403, "Only admins can do this");
  return user;
}

/**
 * Where an admin tab's form post goes back to: the same list with its filter and page
 * (post/redirect/get). A single-fetch post arrives as `<path>.data`; its routing parameters
 * are not part of the page's URL.
 */
export function sameList(request: Request): string {
  const url = new URL(request.url);
  const path = url.pathname.replace(/\.data$/, "");
  for (const key of ["_routes", "index"]) url.searchParams.delete(key);
  const query = url.searchParams.toString();
  return query ? `${path}?${query}` : path;
}

/** `?page=N` of a JSON list: next page's link in a Link header, so the body stays a list. */
export function listResponse<T>(
  request: Request,
  page: { rows: T[]; page: number; hasNext: boolean },
): Response {
  const headers = new Headers();
  if (page.hasNext) {
    const next = new URL(request.url);
    next.searchParams.set("page", String(page.page + 1));
    headers.set("Link", `<${next.pathname}${next.search}>; rel="next"`);
  }
  return Response.json(page.rows, { headers });
}

/**
 * The body of POST and PUT /api/services. Fields are read loosely here (a form-like client may
 * send the price as text) and checked by the domain's parseService, so the messages are the
 * spec's; only isActive must be a real boolean.
 */
export const serviceBody = z.object({
  name: z.unknown().optional(),
  description: z.unknown().optional(),
  price: z.unknown().optional(),
  duration: z.unknown().optional(),
  isActive: z.boolean({ error: "isActive must be true or false" }).optional(),
});
