/**
 * Where an admin action sends the browser back to (post/redirect/get): the page the form was
 * posted from, with its filters and page. A hydrated form posts to the single-fetch URL
 * (`/admin/support.data?status=PENDING`), whose suffix and router parameters are not the page.
 */
export function samePageUrl(request: Request): string {
  const url = new URL(request.url);
  const pathname = url.pathname.replace(/\.data$/, "");
  url.searchParams.delete("index");
  url.searchParams.delete("_routes");
  const search = url.searchParams.toString();
  return search ? `${pathname}?${search}` : pathname;
}
