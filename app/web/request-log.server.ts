import type { MiddlewareFunction } from "react-router";
import { noteRequestRoute } from "#app/log.server";

/**
 * Names the route that answers, for the request's log line and its latency metric: the
 * pattern React Router matched ("/dashboard/sessions/:id", "/*" for the not-found page), never
 * the URL, so ids and query strings stay out and the metric's labels stay few.
 */
export const routeLogMiddleware: MiddlewareFunction<Response> = ({ pattern }, next) => {
  noteRequestRoute(routeLabel(pattern));
  return next();
};

/** React Router's pattern with one leading slash: "/", "/api/login", "/*". */
export function routeLabel(pattern: string): string {
  return `/${pattern.replace(/^\/+/, "")}`;
}
