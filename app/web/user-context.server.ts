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

export const TWO_FACTOR_SETUP_PATH = "/dashboard/two-factor";

/** Guarded layouts' middleware reads the sign-in once per request; routes outside them use the `require*` helpers. */

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

export async function getUser(
  request: Request,
  context: RequestContext,
): Promise<PublicUser | null> {
  return (await lookup(request, context))?.user ?? null;
}

/** An admin without a second factor gets only what any customer gets. */
export async function getStaffAccess(
  request: Request,
  context: RequestContext,
): Promise<StaffAccess> {
  const signedIn = await lookup(request, context);
  return staffAccess(signedIn?.user ?? null, signedIn?.secondFactor ?? false);
}

export async function isStaff(request: Request, context: RequestContext): Promise<boolean> {
  return (await getStaffAccess(request, context)) === "staff";
}

/** Stored for the requests to come, and known to the rest of this one. */
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

function refuseVisitorPage({ user }: Caller): Response | null {
  return user ? null : redirect("/auth");
}

/** docs/product.md "Accounts and sign-ins": an admin held back by the staff gate goes to the two-factor page. */
function refuseNonAdminPage({ user, access }: Caller): Response | null {
  if (!user) return redirect("/auth");
  if (access === "not staff") return redirect("/dashboard");
  return access === "staff" ? null : redirect(TWO_FACTOR_SETUP_PATH);
}

function refuseVisitorApi({ user }: Caller): Response | null {
  return user ? null : Response.json({ message: "Not authenticated" }, { status: 401 });
}

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

export async function requireAnonymous(request: Request, context: RequestContext): Promise<void> {
  if (await getUser(request, context)) throw redirect("/");
}

// --- the layouts' guard middleware ------------------------------------------------------------

const signedInContext = createContext<PublicUser | null>(null);
const adminContext = createContext<PublicUser | null>(null);

/** Anywhere outside a guarded layout it is a code mistake, answered as a server error. */
export function currentUser(context: RequestContext): PublicUser {
  const user = context.get(signedInContext);
  if (!user) throw new Error("currentUser() outside a layout guarded for signed-in users");
  return user;
}

export function currentAdmin(context: RequestContext): PublicUser {
  const admin = context.get(adminContext);
  if (!admin) throw new Error("currentAdmin() outside a layout guarded for admins");
  return admin;
}

function pass(context: RequestContext, { user, access }: Caller & { user: PublicUser }) {
  context.set(signedInContext, user);
  if (access === "staff") context.set(adminContext, user);
}

/** A write to a route with no action passes: React Router answers its 405 (see `refusedBeforeAnyHandler`). */
function pagesGuard(refuse: (caller: Caller) => Response | null): MiddlewareFunction<Response> {
  return async (args, next) => {
    if (refusedBeforeAnyHandler(args)) return next();
    pass(args.context, await admit(args.request, args.context, refuse));
    return next();
  };
}

export const customerPagesGuard = pagesGuard(refuseVisitorPage);

export const adminPagesGuard = pagesGuard(refuseNonAdminPage);

/** 405 with Allow first, whoever asks; an endpoint missing from `methods` is a server error. */
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
