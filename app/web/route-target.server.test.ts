import { RouterContextProvider, type ServerBuild } from "react-router";
import { describe, expect, it } from "vitest";
import { refusedBeforeAnyHandler, serverRoutesContext } from "#app/web/route-target.server";

type Routes = ServerBuild["routes"];
type Route = NonNullable<Routes[string]>;
const handler = () => null;

/** A route of the build, with or without an action (resource routes have no component). */
function route(id: string, shape: Partial<Route>, hasAction = false): Route {
  const module = { loader: handler, ...(hasAction ? { action: handler } : {}) };
  // The type asks every module for a component; a resource route's has none at run time.
  return { id, ...shape, module } as unknown as Route;
}

/** A route table shaped like the build's: the admin layout, its index and two tabs. */
const routes: Routes = {
  root: route("root", { path: "" }),
  admin: route("admin", { parentId: "root", path: "admin" }),
  "admin-index": route("admin-index", { parentId: "admin", index: true }),
  bookings: route("bookings", { parentId: "admin", path: "bookings" }, true),
  email: route("email", { parentId: "admin", path: "emails/:id" }),
};

function refused(method: string, url: string, pattern: string, table = routes) {
  const context = new RouterContextProvider();
  if (table) context.set(serverRoutesContext, table);
  return refusedBeforeAnyHandler({
    request: new Request(`http://studio.test${url}`, { method }),
    pattern,
    context,
  });
}

describe("refusedBeforeAnyHandler", () => {
  it("is true for a write to a route without an action (React Router's own 405)", () => {
    expect(refused("POST", "/admin/emails/7", "/admin/emails/:id")).toBe(true);
    expect(refused("DELETE", "/admin/emails/7.data", "admin/emails/:id")).toBe(true);
  });

  it("is false for a write to a route with an action: the guard asks who it is", () => {
    expect(refused("POST", "/admin/bookings", "/admin/bookings")).toBe(false);
    expect(refused("PUT", "/admin/bookings.data", "/admin/bookings")).toBe(false);
  });

  it("is false for every read: loaders always run behind the guard", () => {
    expect(refused("GET", "/admin/emails/7", "/admin/emails/:id")).toBe(false);
    expect(refused("HEAD", "/admin/emails/7", "/admin/emails/:id")).toBe(false);
  });

  it("finds the index route on ?index and the layout without it", () => {
    const withIndexAction: Routes = {
      ...routes,
      "admin-index": route("admin-index", { parentId: "admin", index: true }, true),
    };
    expect(refused("POST", "/admin?index", "/admin", withIndexAction)).toBe(false);
    expect(refused("POST", "/admin", "/admin", withIndexAction)).toBe(true);
  });

  it("lets the guard ask when the route cannot be told", () => {
    expect(refused("POST", "/admin/nothing", "/admin/nothing")).toBe(false);
    const context = new RouterContextProvider();
    const request = new Request("http://studio.test/admin/emails/7", { method: "POST" });
    expect(refusedBeforeAnyHandler({ request, pattern: "/admin/emails/:id", context })).toBe(false);
  });
});
