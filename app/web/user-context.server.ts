import {
  createContext,
  type MiddlewareFunction,
  redirect,
  type RouterContextProvider,
} from "react-router";
import { STAFF_TWO_FACTOR_REQUIRED } from "#app/domain/two-factor";
import type { PublicUser } from "#app/models/user.server";
import { methodRefusal } from "#app/web/api.server";
import { noteRequestUser } from "#app/log.server";
import { findSignedInUser, type SignedInUser } from "#app/web/auth.server";
import { refusedBeforeAnyHandler } from "#app/web/route-target.server";
import { proveSecondFactor } from "#app/web/sign-in.server";
import { type StaffAccess, staffAccess } from "#app/web/staff-gate.server";

/** Where the staff gate sends an admin whose sign-in proved no second factor. */
export const TWO_FACTOR_SETUP_PATH = "/dashboard/two-factor";

/**
 * Who is asking, once per request. The first to ask (a layout's guard middleware, the root
 * loader, an explicit guard) reads the sign-in; everyone after shares that answer through the
 * request context, loaders running side by side included.
 *
 * The admin, dashboard and admin API layouts guard every route under them with the
 * middleware below (pages, their `.data` requests, form posts); their loaders and actions
 * read the user with `currentUser`/`currentAdmin` and guard nothing themselves. Routes outside
 * those layouts guard themselves with the `require*` helpers, which read the same context.
 */

type RequestContext = Readonly<RouterContextProvider>;

const lookupContext = createContext<Promise<SignedInUser | null> | null>(null);

function lookup(request: Request, context: RequestContext): Promise<SignedInUser | null> {
  const started = context.get(lookupContext);
  if (started) return started;
  const found = findSignedInUser(request).then((signedIn) => {
    if (signedIn) noteRequestUser(signedIn.user.id);
    return signedIn;
  });
  context.set(lookupContext, found);
  return found;
}

/** The signed-in user of this request, or null for a visitor. */
export async function getUser(
  request: Request,
  context: RequestContext,
): Promise<PublicUser | null> {
  return (await lookup(request, context))?.user ?? null;
}

/**
 * What the staff gate (staff-gate.server.ts) makes of the caller on this request. A route that
 * serves customers and staff alike (a booking's files, receipts) gives staff's extra only to
 * "staff": an admin without a second factor gets what any other customer gets.
 */
export async function getStaffAccess(
  request: Request,
  context: RequestContext,
): Promise<StaffAccess> {
  const signedIn = await lookup(request, context);
  return staffAccess(signedIn?.user ?? null, signedIn?.secondFactor ?? false);
}

/** Whether the caller may act as staff on this request (see `getStaffAccess`). */
export async function isStaff(request: Request, context: RequestContext): Promise<boolean> {
  return (await getStaffAccess(request, context)) === "staff";
}

/**
 * This request's sign-in has just proven a second factor (two-factor turned on with its code):
 * stored for the requests to come, and known to the rest of this one.
 */
export async function noteSecondFactorProven(
  request: Request,
  context: RequestContext,
): Promise<void> {
  proveSecondFactor(request);
  const signedIn = await lookup(request, context);
  if (signedIn) context.set(lookupContext, Promise.resolve({ ...signedIn, secondFactor: true }));
}

// --- who may pass, and how the others are answered ------------------------------------------

type Caller = { user: PublicUser | null; access: StaffAccess };

/** Pages: a visitor is sent to sign in. */
function refuseVisitorPage({ user }: Caller): Response | null {
  return user ? null : redirect("/auth");
}

/**
 * Admin pages: a visitor goes to /auth, a signed-in customer to their dashboard, and an admin
 * the staff gate holds back to the two-factor page (docs/product.md "Accounts and sign-ins").
 */
function refuseNonAdminPage({ user, access }: Caller): Response | null {
  if (!user) return redirect("/auth");
  if (access === "not staff") return redirect("/dashboard");
  return access === "staff" ? null : redirect(TWO_FACTOR_SETUP_PATH);
}

/** JSON endpoints answer 401 instead of redirecting. */
function refuseVisitorApi({ user }: Caller): Response | null {
  return user ? null : Response.json({ message: "Not authenticated" }, { status: 401 });
}

/** Admin JSON: 401 for a visitor, 403 for a signed-in customer or an admin held back. */
function refuseNonAdminApi(caller: Caller): Response | null {
  const visitor = refuseVisitorApi(caller);
  if (visitor) return visitor;
  if (caller.access === "not staff") {
    return Response.json({ message: "Admins only" }, { status: 403 });
  }
  return caller.access === "staff"
    ? null
    : Response.json({ message: STAFF_TWO_FACTOR_REQUIRED }, { status: 403 });
}

/** The user, once `refuse` lets them through; its refusal is thrown as the answer otherwise. */
async function admit(
  request: Request,
  context: RequestContext,
  refuse: (caller: Caller) => Response | null,
): Promise<Caller & { user: PublicUser }> {
  const signedIn = await lookup(request, context);
  const user = signedIn?.user ?? null;
  const caller = { user, access: staffAccess(user, signedIn?.secondFactor ?? false) };
  const refusal = refuse(caller);
  if (refusal) throw refusal;
  // Every rule above refuses a visitor first.
  if (!user) throw new Error("A guard let a visitor through");
  return { user, access: caller.access };
}

const admitted = async (answer: Promise<{ user: PublicUser }>) => (await answer).user;

// --- explicit guards, for routes outside the guarded layouts --------------------------------

export const requireUser = (request: Request, context: RequestContext) =>
  admitted(admit(request, context, refuseVisitorPage));

export const requireAdmin = (request: Request, context: RequestContext) =>
  admitted(admit(request, context, refuseNonAdminPage));

export const requireApiUser = (request: Request, context: RequestContext) =>
  admitted(admit(request, context, refuseVisitorApi));

export const requireApiAdmin = (request: Request, context: RequestContext) =>
  admitted(admit(request, context, refuseNonAdminApi));

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

function pass(context: RequestContext, { user, access }: Caller & { user: PublicUser }) {
  context.set(signedInContext, user);
  if (access === "staff") context.set(adminContext, user);
}

/**
 * Guard middleware of a layout of pages. A write to a route that has no action is let
 * through unasked: React Router answers it with its 405 before any handler runs, as it did
 * before the guard moved here (see `refusedBeforeAnyHandler`).
 */
function pagesGuard(refuse: (caller: Caller) => Response | null): MiddlewareFunction<Response> {
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
export function adminApiGuard(methods: ReadonlyMap<string, string>): MiddlewareFunction<Response> {
  return async ({ request, context, pattern }, next) => {
    const allow = methods.get(pattern.replace(/^\/|\/$/g, ""));
    if (allow === undefined) throw new Error(`No methods declared for the admin API's ${pattern}`);
    const refused = methodRefusal(request.method, allow);
    if (refused) return refused;
    pass(context, await admit(request, context, refuseNonAdminApi));
    return next();
  };
}
