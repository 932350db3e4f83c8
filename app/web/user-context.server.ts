import {
  createContext,
  type MiddlewareFunction,
  redirect,
  type RouterContextProvider,
} from "react-router";
import { STAFF_TWO_FACTOR_REQUIRED } from "#app/domain/two-factor";
import type { PublicUser } from "#app/models/user.server";
import { methodNotAllowed } from "#app/web/api.server";
import { noteRequestUser } from "#app/log.server";
import { findSessionUser } from "#app/web/auth.server";
import { isWrite, refusedBeforeAnyHandler } from "#app/web/route-target.server";
import { staffNeedsTwoFactor } from "#app/web/two-factor.server";

/** Where an admin without two-factor is sent when REQUIRE_STAFF_2FA is on. */
export const TWO_FACTOR_SETUP_PATH = "/dashboard/two-factor";

/**
 * Who is asking, once per request. The first to ask (a layout's guard middleware, the root
 * loader, an explicit guard) reads the session; everyone after shares that answer through the
 * request context, loaders running side by side included.
 *
 * The admin, dashboard and admin API layouts guard every route under them with the
 * middleware below (pages, their `.data` requests, form posts); their loaders and actions
 * read the user with `currentUser`/`currentAdmin` and guard nothing themselves. Routes outside
 * those layouts guard themselves with the `require*` helpers, which read the same context.
 */

type RequestContext = Readonly<RouterContextProvider>;

const lookupContext = createContext<Promise<PublicUser | null> | null>(null);

/** The signed-in user of this request, or null for a visitor. */
export function getUser(request: Request, context: RequestContext): Promise<PublicUser | null> {
  const started = context.get(lookupContext);
  if (started) return started;
  const lookup = findSessionUser(request).then((user) => {
    if (user) noteRequestUser(user.id);
    return user;
  });
  context.set(lookupContext, lookup);
  return lookup;
}

// --- who may pass, and how the others are answered ------------------------------------------

/** Pages: a visitor is sent to sign in. */
function refuseVisitorPage(user: PublicUser | null): Response | null {
  return user ? null : redirect("/auth");
}

/**
 * Admin pages: a visitor goes to /auth, a signed-in customer to their dashboard, and an admin
 * without two-factor (when staff must have it) to its setup (docs/product.md "Accounts").
 */
function refuseNonAdminPage(user: PublicUser | null): Response | null {
  if (!user) return redirect("/auth");
  if (!user.isAdmin) return redirect("/dashboard");
  return staffNeedsTwoFactor(user.id) ? redirect(TWO_FACTOR_SETUP_PATH) : null;
}

/** JSON endpoints answer 401 instead of redirecting. */
function refuseVisitorApi(user: PublicUser | null): Response | null {
  return user ? null : Response.json({ message: "Not authenticated" }, { status: 401 });
}

/** Admin JSON: 401 for a visitor, 403 for a signed-in customer or an admin without two-factor. */
function refuseNonAdminApi(user: PublicUser | null): Response | null {
  const visitor = refuseVisitorApi(user);
  if (visitor || !user) return visitor;
  if (!user.isAdmin) return Response.json({ message: "Admins only" }, { status: 403 });
  return staffNeedsTwoFactor(user.id)
    ? Response.json({ message: STAFF_TWO_FACTOR_REQUIRED }, { status: 403 })
    : null;
}

/** The user, once `refuse` lets them through; its refusal is thrown as the answer otherwise. */
async function admit(
  request: Request,
  context: RequestContext,
  refuse: (user: PublicUser | null) => Response | null,
): Promise<PublicUser> {
  const user = await getUser(request, context);
  const refusal = refuse(user);
  if (refusal) throw refusal;
  // Every rule above refuses a visitor first.
  if (!user) throw new Error("A guard let a visitor through");
  return user;
}

// --- explicit guards, for routes outside the guarded layouts --------------------------------

export const requireUser = (request: Request, context: RequestContext) =>
  admit(request, context, refuseVisitorPage);

export const requireAdmin = (request: Request, context: RequestContext) =>
  admit(request, context, refuseNonAdminPage);

export const requireApiUser = (request: Request, context: RequestContext) =>
  admit(request, context, refuseVisitorApi);

export const requireApiAdmin = (request: Request, context: RequestContext) =>
  admit(request, context, refuseNonAdminApi);

/** Pages only for visitors (/auth): a signed-in user goes home. */
export async function requireAnonymous(request: Request, context: RequestContext): Promise<void> {
  if (await getUser(request, context)) throw redirect("/");
}

// --- the layouts' guard middleware ------------------------------------------------------------

const signedInContext = createContext<PublicUser | null>(null);
const adminContext = createContext<PublicUser | null>(null);

/**
 * The user a guarded layout let through. Only under the dashboard or admin layouts (or the
 * admin API's); anywhere else it is a mistake in the code, answered as a server error rather
 * than as a visitor.
 */
export function currentUser(context: RequestContext): PublicUser {
  const user = context.get(signedInContext);
  if (!user) throw new Error("currentUser() outside a layout guarded for signed-in users");
  return user;
}

/** The admin the admin layout (or the admin API's) let through; see `currentUser`. */
export function currentAdmin(context: RequestContext): PublicUser {
  const admin = context.get(adminContext);
  if (!admin) throw new Error("currentAdmin() outside a layout guarded for admins");
  return admin;
}

function pass(context: RequestContext, user: PublicUser) {
  context.set(signedInContext, user);
  if (user.isAdmin) context.set(adminContext, user);
}

/**
 * Guard middleware of a layout of pages. A write to a route that has no action is let
 * through unasked: React Router answers it with its 405 before any handler runs, as it did
 * before the guard moved here (see `refusedBeforeAnyHandler`).
 */
function pagesGuard(
  refuse: (user: PublicUser | null) => Response | null,
): MiddlewareFunction<Response> {
  return async (args, next) => {
    if (refusedBeforeAnyHandler(args)) return next();
    pass(args.context, await admit(args.request, args.context, refuse));
    return next();
  };
}

/** The dashboard layout: signed-in users only; a visitor is sent to /auth. */
export const customerPagesGuard = pagesGuard(refuseVisitorPage);

/** The admin layout: admins only; a visitor goes to /auth, a customer to /dashboard. */
export const adminPagesGuard = pagesGuard(refuseNonAdminPage);

/**
 * The admin API layout: a method an endpoint does not answer is refused first (405 with
 * Allow, whoever asks), then a visitor gets 401 and a customer 403. `methods` names, by the
 * route pattern under the layout, the methods each endpoint answers ("GET, POST"); an endpoint
 * missing from it is a mistake in the code, refused as a server error.
 */
export function adminApiGuard(methods: Record<string, string>): MiddlewareFunction<Response> {
  return async ({ request, context, pattern }, next) => {
    const allow = methods[pattern.replace(/^\/|\/$/g, "")];
    if (allow === undefined) throw new Error(`No methods declared for the admin API's ${pattern}`);
    // React Router gives a loader every method that is not a write (HEAD, OPTIONS): as GET,
    // unless the endpoint names HEAD itself (a tus upload's offset, without any GET).
    const asked = request.method.toUpperCase();
    const head = asked === "HEAD" && allow.split(", ").includes("HEAD");
    const method = isWrite(asked) ? asked : head ? "HEAD" : "GET";
    if (!allow.split(", ").includes(method)) return methodNotAllowed(allow);
    pass(context, await admit(request, context, refuseNonAdminApi));
    return next();
  };
}
