import { createContext, type RouterContextProvider, type ServerBuild } from "react-router";

/** The running build's route table, handed to every request by server/app.ts. */
export const serverRoutesContext = createContext<ServerBuild["routes"] | null>(null);

type ServerRoutes = ServerBuild["routes"];
type ServerRoute = NonNullable<ServerRoutes[string]>;

const WRITES = new Set(["POST", "PUT", "PATCH", "DELETE"]);

/** React Router hands these to a route's action; every other method goes to its loader. */
export function isWrite(method: string): boolean {
  return WRITES.has(method.toUpperCase());
}

/** "/admin/bookings/:id/" and "admin//bookings/:id" both read "admin/bookings/:id". */
const normalize = (pattern: string) => pattern.replace(/\/{2,}/g, "/").replace(/^\/|\/$/g, "");

/** The routes of a build by their full URL pattern, as React Router joins the paths. */
const byPatternOf = new WeakMap<ServerRoutes, Map<string, ServerRoute[]>>();

function routesByPattern(routes: ServerRoutes): Map<string, ServerRoute[]> {
  const known = byPatternOf.get(routes);
  if (known) return known;
  const byPattern = new Map<string, ServerRoute[]>();
  for (const route of Object.values(routes)) {
    if (!route) continue;
    const paths: string[] = [];
    for (
      let at: ServerRoute | undefined = route;
      at;
      at = at.parentId ? routes[at.parentId] : undefined
    ) {
      if (at.path) paths.unshift(at.path);
    }
    const pattern = normalize(paths.join("/"));
    byPattern.set(pattern, [...(byPattern.get(pattern) ?? []), route]);
  }
  byPatternOf.set(routes, byPattern);
  return byPattern;
}

/** `?index` with no value: a form post meant for the index route rather than its layout. */
function hasNakedIndexQuery(request: Request): boolean {
  return new URL(request.url).searchParams.getAll("index").includes("");
}

/**
 * True when React Router refuses the request itself, before any loader or action runs: a write
 * to a route without an action is its 405. A guard lets such a request through unasked, so the
 * answer stays the 405 it always was (tests/routes/access-rules.ts: refused "before any
 * check of the caller"); nothing of the app runs for it. The target is found the way React
 * Router finds it (the deepest route that adds to the path, or the index route on `?index`);
 * when it cannot be told, the answer is false and the guard asks.
 */
export function refusedBeforeAnyHandler(args: {
  request: Request;
  pattern: string;
  context: Readonly<RouterContextProvider>;
}): boolean {
  if (!isWrite(args.request.method)) return false;
  const routes = args.context.get(serverRoutesContext);
  if (!routes) return false;
  const candidates = routesByPattern(routes).get(normalize(args.pattern)) ?? [];
  const index = hasNakedIndexQuery(args.request)
    ? candidates.find((route) => route.index)
    : undefined;
  const withPath = candidates.filter((route) => route.path);
  const target = index ?? (withPath.length === 1 ? withPath[0] : undefined);
  return target !== undefined && !target.module.action;
}
