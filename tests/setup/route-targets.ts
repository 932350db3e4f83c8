import { matchRoutes, type RouteObject } from "react-router";
import routeTable from "#app/routes";

/**
 * The routes of app/routes.ts as test targets, so suites that walk them (hostile input) cover a
 * new route the day it lands, and the route module a raw request path reaches.
 */

export type Target = {
  /** The route module, e.g. "routes/api/bookings.ts": the key of what the suite knows about it. */
  file: string;
  /** "/checkout/:bookingId", "/" for an index route, "/*" for the catch-all. */
  pattern: string;
  isIndex: boolean;
  isApi: boolean;
};

type RouteEntry = { file: string; path?: string; index?: boolean; children?: RouteEntry[] };

export function targetsFromRouteTable(): Target[] {
  const targets: Target[] = [];
  const walk = (entries: readonly RouteEntry[], parent: string) => {
    for (const entry of entries) {
      const pattern = entry.index
        ? parent || "/"
        : `${parent}/${entry.path ?? ""}`.replace(/\/+/g, "/").replace(/\/$/, "") || "/";
      // A layout with an index child shares its URL with that index, which is the target; a
      // pathless layout (the admin API's guard) serves no URL of its own.
      const servedByIndex = entry.children?.some((child) => child.index) ?? false;
      const pathless = entry.path === undefined && !entry.index;
      if (!servedByIndex && !pathless)
        targets.push({
          file: entry.file,
          pattern,
          isIndex: entry.index === true,
          isApi: pattern.startsWith("/api/"),
        });
      if (entry.children) walk(entry.children, pattern === "/" ? "" : pattern);
    }
  };
  walk(routeTable as readonly RouteEntry[], "");
  return targets;
}

type Matchable = { id: string; path?: string; index?: boolean; children?: Matchable[] };
const matchable = (entries: readonly RouteEntry[]): Matchable[] =>
  entries.map((entry) => ({
    id: entry.file,
    path: entry.path,
    index: entry.index,
    children: entry.children ? matchable(entry.children) : undefined,
  }));
const routeObjects = matchable(routeTable as readonly RouteEntry[]);

/**
 * The route module the router gives a raw request path to: a parameter that is empty, a dot
 * segment or an encoded slash turns the URL into another path, usually the catch-all.
 */
export function routeFileFor(rawPath: string): string | undefined {
  // The adapter builds the request URL with `new URL`, which resolves dot segments (`%2e%2e` too).
  const { pathname } = new URL(rawPath, "http://host");
  // The router matches a segment it cannot decode as it is (after a console warning): so does
  // this, without the warning.
  const decodable = pathname
    .split("/")
    .map((segment) => {
      try {
        decodeURIComponent(segment);
        return segment;
      } catch {
        return segment.replaceAll("%", "_");
      }
    })
    .join("/");
  const matches = matchRoutes(routeObjects as RouteObject[], decodable);
  return matches?.at(-1)?.route.id;
}
