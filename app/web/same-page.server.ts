/**
 * Where an admin action sends the browser back to (post/redirect/get): the page the form was
 * posted from, with its filters and page. A hydrated form posts to the single-fetch URL
 * (`/admin/support.data?status=PENDING`), whose suffix and router parameters are not the page.
 * `forget` names parameters that no longer apply after the change (a selection made before it).
 */
export function samePageUrl(request: Request, forget: readonly string[] = []): string {
  const url = new URL(request.url);
  const pathname = url.pathname.replace(/\.data$/, "");
  for (const key of ["index", "_routes", ...forget]) url.searchParams.delete(key);
  const search = url.searchParams.toString();
  return search ? `${pathname}?${search}` : pathname;
}
