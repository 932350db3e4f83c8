/**
 * Who may do what on every route of app/routes.ts: the one place where access is declared.
 * authorization.test.ts walks the route table and fails for a route without a rule here (and
 * for a rule whose route is gone), then sends every request below as each actor and checks the
 * status, the redirect, and that the database is unchanged unless the outcome says `writes`.
 *
 * Actors: a visitor (no cookie), `customer` (owns the booking of owner-scoped routes),
 * `otherCustomer` (another customer opening that booking) and `admin` (signed in with a second
 * factor). A fifth, `heldBackAdmin`, is an admin whose sign-in proved only the password, on a
 * server where staff must prove more (REQUIRE_STAFF_2FA): what it gets is not declared but
 * derived from each rule (`heldBackAdminOutcome`), so a new route that admits staff is held to
 * the staff gate the day it lands.
 */
import { STAFF_TWO_FACTOR_REQUIRED } from "#app/domain/two-factor";
import {
  bookingFormFields,
  bookingPayload,
  registerFormFields,
  SANDBOX_CARD,
} from "#tests/setup/payloads";

export const ACTORS = ["visitor", "customer", "otherCustomer", "admin"] as const;
export type ActorName = (typeof ACTORS)[number];

export type Outcome = {
  status: number;
  /** Where a redirect goes (`.data` redirects are compared the same way). */
  location?: string | RegExp;
  /** The request is allowed to change the database; every other request must not. */
  writes?: boolean;
  /** Text the answer must hold (a refusal's message). */
  message?: string;
};
export type PerActor = Record<ActorName, Outcome>;

/** What a request may need, made fresh for each request by the test. */
export type RequestContext = {
  /** An unpaid booking of `customer`, new for this request (only when the rule asks for it). */
  bookingId: number;
  /**
   * A booking of `customer` paid by card, its payment with its receipt (only when the rule asks
   * `paidBooking`): the receipt URLs.
   */
  payment: { bookingId: number; paymentId: number };
  /** An unpaid weekly series of `customer`, new for this request (rules asking `ownedSeries`). */
  seriesId: number;
  /** A free two-hour slot, new on every call. */
  freshSlot(): { date: string; time: string };
  /** A username nobody has yet. */
  freshUsername(): string;
  /** The customer's user id (routes about one account, like its profile). */
  customerId: number;
  /** The held-back admin's studio calendar token, made while the gate let them pass. */
  heldBackStudioFeed: string;
  /** The acting user's own credentials, or a spare account's for the visitor. */
  credentials: { username: string; password: string };
  /**
   * Rows an admin request acts on, new for this request (only when the rule asks `freshRows`),
   * so every allowed request changes something: a customer account (not a member, not an
   * admin), an active and an inactive coupon, and an active service no booking uses.
   */
  rows: FreshRows;
};
export type FreshRows = {
  userId: number;
  activeCouponId: number;
  inactiveCouponId: number;
  serviceId: number;
};

type Make<T> = (context: RequestContext) => T;

/** Pages: GET of the page and of its `.data` URL share `load`; form posts to both share `action`. */
export type PageRule = {
  kind: "page";
  /** A concrete URL when the path has parameters. */
  url?: Make<string>;
  ownedBooking?: boolean;
  ownedSeries?: boolean;
  freshRows?: boolean;
  load: PerActor;
  action: PerActor;
  form?: Make<Record<string, string>>;
};

export const METHODS = ["GET", "POST", "PUT", "PATCH", "DELETE"] as const;
export type Method = (typeof METHODS)[number];

/** Resource routes (JSON): every method, on the URL and on its `.data` URL. */
export type ResourceRule = {
  kind: "resource";
  url?: Make<string>;
  ownedBooking?: boolean;
  paidBooking?: boolean;
  freshRows?: boolean;
  methods: Record<Method, PerActor>;
  body?: Make<Record<string, unknown>>;
  /** Further requests worth their own rule (a query that needs more rights). */
  extra?: { name: string; method: Method; url: Make<string>; expect: PerActor }[];
};

export type AccessRule = PageRule | ResourceRule;

const ok: Outcome = { status: 200 };
const created: Outcome = { status: 201, writes: true };
const status = (code: number): Outcome => ({ status: code });
const redirect = (location: string | RegExp, writes = false): Outcome => ({
  status: 302,
  location,
  writes,
});
const everyone = (outcome: Outcome): PerActor => ({
  visitor: outcome,
  customer: outcome,
  otherCustomer: outcome,
  admin: outcome,
});
/** A visitor gets one answer, every signed-in actor another. */
const signedIn = (visitor: Outcome, user: Outcome): PerActor => ({
  visitor,
  customer: user,
  otherCustomer: user,
  admin: user,
});
/** Only the owner of the booking may; another customer and an admin see it as missing. */
const ownerOnly = (visitor: Outcome, owner: Outcome, others: Outcome): PerActor => ({
  visitor,
  customer: owner,
  otherCustomer: others,
  admin: others,
});
const getOnly = (get: PerActor): Record<Method, PerActor> => ({
  GET: get,
  POST: everyone(status(405)),
  PUT: everyone(status(405)),
  PATCH: everyone(status(405)),
  DELETE: everyone(status(405)),
});
/** Anything but POST is refused before any check of the caller. */
const postOnly = (post: PerActor): Record<Method, PerActor> => ({
  GET: everyone(status(405)),
  POST: post,
  PUT: everyone(status(405)),
  PATCH: everyone(status(405)),
  DELETE: everyone(status(405)),
});

const toAuth = redirect("/auth");
const noAction = everyone(status(405));
/** Admin pages: a visitor signs in, a customer is sent to their dashboard, an admin gets `admin`. */
const adminOnly = (admin: Outcome): PerActor => ({
  ...signedIn(toAuth, redirect("/dashboard")),
  admin,
});
/** Admin JSON: 401 for a visitor, 403 for a customer, `admin` for an admin. */
const adminApi = (admin: Outcome): PerActor => ({
  ...signedIn(status(401), status(403)),
  admin,
});

/**
 * What an admin the staff gate holds back gets (docs/product.md "Accounts and sign-ins"):
 * where only staff pass (a customer is sent to /dashboard, or answered 403 as JSON), the gate's
 * refusal: the two-factor page, or 403 with its message; anywhere else, another customer's
 * answer: staff's extra (another customer's files, receipts) is not theirs.
 */
export function heldBackAdminOutcome(rule: PerActor): Outcome {
  const { otherCustomer } = rule;
  if (otherCustomer.status === 302 && otherCustomer.location === "/dashboard") {
    return redirect("/dashboard/two-factor");
  }
  if (otherCustomer.status === 403) return { status: 403, message: STAFF_TWO_FACTOR_REQUIRED };
  return otherCustomer;
}

/** A valid profile whose business name is new on every call. */
function profileFields(businessName: string) {
  return {
    firstName: "Ada",
    lastName: "Lovelace",
    businessName,
    phoneNumber: "404-555-0100",
    email: "ada@example.com",
  };
}

function bookingForm(slot: { date: string; time: string }) {
  return { intent: "book", ...bookingFormFields(slot.date, slot.time, 2, { businessName: "" }) };
}

/** A valid Add Service / Edit form (also the JSON body, which may carry text like a form). */
function serviceFields(name: string) {
  return { name, description: "Lights and a second camera", price: "75", duration: "60" };
}

/** Only `method` is served, to admins (401 visitor, 403 customer); the rest is 405. */
function adminMethod(method: Method, admin: Outcome): Record<Method, PerActor> {
  const methods = getOnly(everyone(status(405)));
  methods[method] = adminApi(admin);
  return methods;
}
const changed: Outcome = { status: 200, writes: true };

/** Keyed by the route's URL pattern as in app/routes.ts ("/" for the index). */
export const ACCESS_RULES: Record<string, AccessRule> = {
  "/": {
    kind: "page",
    load: everyone(ok),
    form: ({ freshSlot }) => bookingForm(freshSlot()),
    // A visitor is sent to sign in; anyone signed in books (and goes on to pay).
    action: signedIn(redirect("/auth#main"), redirect(/^\/checkout\/\d+#main$/, true)),
  },
  "/auth": {
    kind: "page",
    load: signedIn(ok, redirect("/")),
    form: ({ freshUsername }) => ({ ...registerFormFields(freshUsername()), businessName: "" }),
    action: signedIn(redirect("/", true), redirect("/")),
  },
  "/dashboard": {
    kind: "page",
    load: signedIn(toAuth, ok),
    // The profile form: everyone signed in edits their own profile (a fresh business name, so
    // each post changes a row). Other intents' rules are in their own tests.
    form: ({ freshUsername }) => ({ intent: "profile", ...profileFields(freshUsername()) }),
    action: signedIn(toAuth, redirect("/dashboard?tab=profile", true)),
  },
  // Cancelling the customer's fresh unpaid booking: nothing to refund, so the form's
  // expected refund is 0.
  "/dashboard/sessions/:id/cancel": {
    kind: "page",
    url: ({ bookingId }) => `/dashboard/sessions/${bookingId}/cancel`,
    ownedBooking: true,
    load: ownerOnly(toAuth, ok, status(404)),
    form: () => ({ expectedRefund: "0" }),
    action: ownerOnly(toAuth, redirect("/dashboard?tab=bookings", true), status(404)),
  },
  // An unpaid booking cannot be moved (pay first): the owner is refused, others see nothing.
  "/dashboard/sessions/:id/reschedule": {
    kind: "page",
    url: ({ bookingId }) => `/dashboard/sessions/${bookingId}/reschedule`,
    ownedBooking: true,
    load: ownerOnly(toAuth, ok, status(404)),
    form: ({ freshSlot }) => {
      const { date, time } = freshSlot();
      return { recordingDate: date, recordingTime: time };
    },
    action: ownerOnly(toAuth, status(422), status(404)),
  },
  // A passkey sign-in's prompt (JSON, docs/product.md "Accounts and sign-ins"): visitors only;
  // it stores a challenge.
  "/auth/passkey": {
    kind: "resource",
    body: () => ({ intent: "options" }),
    methods: postOnly(signedIn({ status: 200, writes: true }, status(409))),
  },
  // Adding a passkey to one's own account: its prompt stores a challenge for the account.
  "/dashboard/passkeys": {
    kind: "resource",
    body: () => ({ intent: "options", name: "Laptop" }),
    methods: postOnly(signedIn(toAuth, { status: 200, writes: true })),
  },
  "/logout": {
    kind: "page",
    // Logging out is a POST: a GET (a prefetch, a link on another site) changes nothing.
    load: everyone(redirect("/")),
    action: signedIn(redirect("/"), redirect("/", true)),
  },
  "/checkout/:bookingId": {
    kind: "page",
    url: ({ bookingId }) => `/checkout/${bookingId}`,
    ownedBooking: true,
    load: ownerOnly(toAuth, ok, status(404)),
    form: () => ({ ...SANDBOX_CARD, paymentMethod: "card" }),
    action: ownerOnly(toAuth, redirect(/^\/booking-success\?session_id=/, true), status(404)),
  },
  // Paying a weekly series at once (docs/product.md "Weekly series").
  "/checkout/series/:seriesId": {
    kind: "page",
    url: ({ seriesId }) => `/checkout/series/${seriesId}`,
    ownedSeries: true,
    load: ownerOnly(toAuth, ok, status(404)),
    form: () => ({ ...SANDBOX_CARD, paymentMethod: "card" }),
    action: ownerOnly(toAuth, redirect(/^\/booking-success\?session_id=/, true), status(404)),
  },
  // The customer's own sessions (dialogs over /dashboard and the printable page).
  "/dashboard/sessions/:id": {
    kind: "page",
    url: ({ bookingId }) => `/dashboard/sessions/${bookingId}`,
    ownedBooking: true,
    load: ownerOnly(toAuth, ok, status(404)),
    action: noAction,
  },
  "/dashboard/sessions/:id/pay": {
    kind: "page",
    url: ({ bookingId }) => `/dashboard/sessions/${bookingId}/pay`,
    ownedBooking: true,
    load: ownerOnly(toAuth, ok, status(404)),
    form: () => ({ ...SANDBOX_CARD, paymentMethod: "card" }),
    action: ownerOnly(toAuth, redirect(/^\/dashboard\?tab=bookings&paid=\d+$/, true), status(404)),
  },
  "/dashboard/sessions/:id/print": {
    kind: "page",
    url: ({ bookingId }) => `/dashboard/sessions/${bookingId}/print`,
    ownedBooking: true,
    load: ownerOnly(toAuth, ok, status(404)),
    action: noAction,
  },
  // Two-factor sign-in's setup: one's own account only. A code with no setup started (the
  // form's) is refused, writing nothing; Set Up and Turn Off have their own tests.
  "/dashboard/two-factor": {
    kind: "page",
    load: signedIn(toAuth, ok),
    form: () => ({ intent: "confirm", code: "000000" }),
    action: signedIn(toAuth, status(400)),
  },
  // Public: it only says whether a payment reference the site made was paid ('Payment Issue'
  // for any other, without asking the provider).
  "/booking-success": {
    kind: "page",
    url: () => "/booking-success?session_id=sandbox_unknown-reference",
    load: everyone(ok),
    action: noAction,
  },
  // Public diagnostics of the chat widget: the app id is sent to every browser anyway.
  "/intercom-test": { kind: "page", load: everyone(ok), action: noAction },
  // The control room: a visitor signs in, a customer goes back to their dashboard.
  "/admin": { kind: "page", load: adminOnly(redirect("/admin/bookings")), action: noAction },
  "/admin/dashboard": {
    kind: "page",
    load: adminOnly(redirect("/admin/bookings")),
    action: noAction,
  },
  "/admin/sales": {
    kind: "page",
    load: adminOnly(ok),
    // Refresh reloads the same view with its notice; it writes nothing.
    form: () => ({ intent: "refresh" }),
    action: adminOnly(redirect("/admin/sales")),
  },
  // Working a request that does not exist: refused (the journeys move real ones).
  "/admin/support": {
    kind: "page",
    load: adminOnly(ok),
    form: () => ({ intent: "start", id: "999999999" }),
    action: adminOnly(status(404)),
  },
  // Blocking a fresh two-hour slot, so no later booking of the matrix lands in it.
  "/admin/blocked-times": {
    kind: "page",
    load: adminOnly(ok),
    form: ({ freshSlot }) => {
      const { date, time } = freshSlot();
      const end = `${String(Number(time.slice(0, 2)) + 2).padStart(2, "0")}:00`;
      return {
        intent: "create",
        startDate: date,
        startTime: time,
        endDate: date,
        endTime: end,
        reason: "Matrix maintenance",
      };
    },
    action: adminOnly(redirect("/admin/blocked-times", true)),
  },
  // Retrying an e-mail that is not FAILED changes nothing.
  "/admin/emails": {
    kind: "page",
    load: adminOnly(ok),
    form: () => ({ intent: "retry", id: "1" }),
    action: adminOnly(status(409)),
  },
  // admin rules: workflow (bookings, sessions, calendar)
  // Staff take the customer's fresh unpaid booking to Pending Review (a row button), confirm
  // it (the bulk menu) or move it from its own page; each lands back where it was posted.
  "/admin/bookings": {
    kind: "page",
    ownedBooking: true,
    load: adminOnly(ok),
    form: ({ bookingId }) => ({ intent: "status", id: String(bookingId), status: "PENDING" }),
    action: adminOnly(redirect("/admin/bookings", true)),
  },
  "/admin/sessions": {
    kind: "page",
    ownedBooking: true,
    load: adminOnly(ok),
    form: ({ bookingId }) => ({ intent: "bulk", ids: String(bookingId), status: "CONFIRMED" }),
    action: adminOnly(redirect("/admin/sessions", true)),
  },
  "/admin/bookings/:id": {
    kind: "page",
    url: ({ bookingId }) => `/admin/bookings/${bookingId}`,
    ownedBooking: true,
    load: adminOnly(ok),
    form: () => ({ intent: "status", status: "PENDING", note: "Paid at the desk" }),
    action: adminOnly(redirect(/^\/admin\/bookings\/\d+$/, true)),
  },
  "/api/admin/bookings": {
    kind: "resource",
    methods: getOnly(adminApi(ok)),
    extra: [
      {
        name: "filtered and paged",
        method: "GET",
        url: ({ freshSlot }) =>
          `/api/admin/bookings?date=${freshSlot().date}&status=PENDING&membership=members&page=2`,
        expect: adminApi(ok),
      },
    ],
  },
  "/api/admin/bookings/:id": {
    kind: "resource",
    url: ({ bookingId }) => `/api/admin/bookings/${bookingId}`,
    ownedBooking: true,
    body: () => ({ status: "PENDING" }),
    methods: {
      GET: everyone(status(405)),
      POST: everyone(status(405)),
      PUT: adminApi({ status: 200, writes: true }),
      PATCH: everyone(status(405)),
      DELETE: everyone(status(405)),
    },
  },
  // Session files: a tus creation or the no-JavaScript form. A JSON body is neither: 415 for
  // staff, after the guard (tests/integration/session-files.test.ts has the uploads).
  "/api/admin/bookings/:id/files": {
    kind: "resource",
    url: ({ bookingId }) => `/api/admin/bookings/${bookingId}/files`,
    ownedBooking: true,
    methods: adminMethod("POST", status(415)),
  },
  // A tus upload's URL (none in progress here): without Tus-Resumable staff get 412.
  "/api/admin/bookings/:id/files/:uploadId": {
    kind: "resource",
    url: ({ bookingId }) =>
      `/api/admin/bookings/${bookingId}/files/b${bookingId}-${"0".repeat(32)}`,
    ownedBooking: true,
    methods: {
      GET: everyone(status(405)),
      POST: everyone(status(405)),
      PUT: everyone(status(405)),
      PATCH: adminApi(status(412)),
      DELETE: adminApi(status(412)),
    },
  },
  // admin rules: sales
  // The CSV export is a download linked from the Sales tab: refused like the admin pages.
  "/admin/sales/export": {
    kind: "resource",
    methods: {
      GET: adminOnly(ok),
      POST: everyone(status(405)),
      PUT: everyone(status(405)),
      PATCH: everyone(status(405)),
      DELETE: everyone(status(405)),
    },
    extra: [
      {
        name: "a range that ends before it starts",
        method: "GET",
        url: () => "/admin/sales/export?period=custom&from=2026-02-01&to=2026-01-01",
        expect: adminOnly(status(400)),
      },
    ],
  },
  "/api/admin/payments": {
    kind: "resource",
    methods: getOnly(adminApi(ok)),
    extra: [
      {
        name: "a period of the Sales tab",
        method: "GET",
        url: () => "/api/admin/payments?period=custom&from=2026-01-01&to=2026-01-31&page=2",
        expect: adminApi(ok),
      },
    ],
  },
  // admin rules: users, coupons, services
  // The forms act on rows made for the request, so an admin's post always changes one.
  "/admin/users": {
    kind: "page",
    freshRows: true,
    load: adminOnly(ok),
    form: ({ rows }) => ({ intent: "membership", userId: String(rows.userId), isMember: "true" }),
    action: adminOnly(redirect("/admin/users", true)),
  },
  "/admin/coupons": {
    kind: "page",
    load: adminOnly(ok),
    form: ({ freshUsername }) => ({
      intent: "create",
      code: freshUsername(),
      type: "PERCENTAGE",
      amount: "12.5",
      maxUses: "0",
      expiryDate: "",
    }),
    action: adminOnly(redirect("/admin/coupons", true)),
  },
  "/admin/services": {
    kind: "page",
    freshRows: true,
    load: adminOnly(ok),
    form: ({ rows }) => ({
      intent: "toggle",
      serviceId: String(rows.serviceId),
      isActive: "false",
    }),
    action: adminOnly(redirect("/admin/services", true)),
  },
  "/admin/services/new": {
    kind: "page",
    load: adminOnly(ok),
    form: () => serviceFields("Matrix add-on"),
    action: adminOnly(redirect("/admin/services", true)),
  },
  "/admin/services/:id/edit": {
    kind: "page",
    freshRows: true,
    url: ({ rows }) => `/admin/services/${rows.serviceId}/edit`,
    load: adminOnly(ok),
    form: ({ freshUsername }) => serviceFields(freshUsername()),
    action: adminOnly(redirect("/admin/services", true)),
  },
  "/admin/services/:id/delete": {
    kind: "page",
    freshRows: true,
    url: ({ rows }) => `/admin/services/${rows.serviceId}/delete`,
    load: adminOnly(ok),
    action: adminOnly(redirect("/admin/services", true)),
  },
  "/api/admin/users": {
    kind: "resource",
    methods: adminMethod("GET", ok),
    extra: [
      {
        name: "members only, page 2",
        method: "GET",
        url: () => "/api/admin/users?membership=members&page=2",
        expect: adminApi(ok),
      },
    ],
  },
  "/api/admin/users/:id/make-admin": {
    kind: "resource",
    freshRows: true,
    url: ({ rows }) => `/api/admin/users/${rows.userId}/make-admin`,
    methods: adminMethod("PUT", changed),
  },
  "/api/admin/users/:id/membership": {
    kind: "resource",
    freshRows: true,
    url: ({ rows }) => `/api/admin/users/${rows.userId}/membership`,
    body: () => ({ isMember: true }),
    methods: adminMethod("PUT", changed),
  },
  "/api/admin/coupons": {
    kind: "resource",
    body: ({ freshUsername }) => ({
      code: freshUsername(),
      description: "ignored: the server writes it",
      type: "FIXED_AMOUNT",
      value: 1500,
      maxUses: 10,
      expiryDate: "2030-06-30T00:00:00.000Z",
      isActive: true,
      createdAt: "2001-01-01T00:00:00.000Z",
    }),
    methods: { ...adminMethod("POST", created), GET: adminApi(ok) },
  },
  // Activate: the fresh inactive coupon.
  "/api/admin/coupons/:id": {
    kind: "resource",
    freshRows: true,
    url: ({ rows }) => `/api/admin/coupons/${rows.inactiveCouponId}`,
    body: () => ({ isActive: true }),
    methods: adminMethod("PUT", changed),
  },
  "/api/admin/coupons/:id/deactivate": {
    kind: "resource",
    freshRows: true,
    url: ({ rows }) => `/api/admin/coupons/${rows.activeCouponId}/deactivate`,
    methods: adminMethod("PUT", changed),
  },
  // PUT edits the fresh service (a new name each time), DELETE removes it (no booking uses it).
  "/api/services/:id": {
    kind: "resource",
    freshRows: true,
    url: ({ rows }) => `/api/services/${rows.serviceId}`,
    body: ({ freshUsername }) => ({ ...serviceFields(freshUsername()), isActive: true }),
    methods: {
      ...adminMethod("PUT", changed),
      DELETE: adminApi(changed),
    },
  },
  "/api/services/:id/toggle-status": {
    kind: "resource",
    freshRows: true,
    url: ({ rows }) => `/api/services/${rows.serviceId}/toggle-status`,
    body: () => ({ isActive: false }),
    methods: adminMethod("PATCH", changed),
  },
  // admin rules: support, blocked times, emails
  // A booking writes its e-mail first: outbox row 1 exists (the booking-received e-mail).
  "/admin/emails/:id": {
    kind: "page",
    url: () => "/admin/emails/1",
    ownedBooking: true,
    load: adminOnly(ok),
    action: noAction,
  },
  "/admin/emails/:id/html": {
    kind: "resource",
    url: () => "/admin/emails/1/html",
    ownedBooking: true,
    methods: getOnly(adminOnly(ok)),
  },
  // That e-mail has no attachment.
  "/admin/emails/:id/attachments/:index": {
    kind: "resource",
    url: () => "/admin/emails/1/attachments/0",
    ownedBooking: true,
    methods: getOnly(adminOnly(status(404))),
  },
  "/api/admin/tech-assistance": {
    kind: "resource",
    methods: getOnly(adminApi(ok)),
    extra: [
      {
        name: "with a status that does not exist",
        method: "GET",
        url: () => "/api/admin/tech-assistance?status=DONE",
        expect: adminApi(status(400)),
      },
    ],
  },
  "/api/admin/tech-assistance/:id": {
    kind: "resource",
    url: () => "/api/admin/tech-assistance/999999999",
    body: () => ({ status: "CANCELLED" }),
    methods: {
      GET: everyone(status(405)),
      POST: everyone(status(405)),
      PUT: adminApi(status(404)),
      PATCH: everyone(status(405)),
      DELETE: everyone(status(405)),
    },
  },
  // A calendar feed: its token is the credential, not the caller (docs/product.md "Calendar
  // feeds"); a token nobody holds is a 404 for everyone, cookie or not. A known token's answers
  // (200, 304, 429, a replaced token's 404) are in calendar-feeds.test.ts; a studio feed's
  // owner must pass the staff gate (two-factor-staff.test.ts has one that does).
  "/calendar/:file": {
    kind: "resource",
    url: () => `/calendar/${"A".repeat(43)}.ics`,
    methods: getOnly(everyone(status(404))),
    extra: [
      {
        name: "a name without the .ics ending",
        method: "GET",
        url: () => `/calendar/${"A".repeat(43)}`,
        expect: everyone(status(404)),
      },
      {
        name: "the studio feed of an admin without a second factor on the account",
        method: "GET",
        url: ({ heldBackStudioFeed }) => `/calendar/${heldBackStudioFeed}.ics`,
        expect: everyone(status(404)),
      },
    ],
  },
  "/healthz": { kind: "resource", methods: getOnly(everyone(ok)) },
  "/healthz/ready": { kind: "resource", methods: getOnly(everyone(ok)) },
  "/api/openapi.json": { kind: "resource", methods: getOnly(everyone(ok)) },
  "/api/user": { kind: "resource", methods: getOnly(signedIn(status(401), ok)) },
  "/api/login": {
    kind: "resource",
    body: ({ credentials }) => credentials,
    methods: postOnly(everyone({ status: 200, writes: true })),
  },
  "/api/register": {
    kind: "resource",
    body: ({ freshUsername }) => ({
      username: freshUsername(),
      password: "correct-horse-battery",
      firstName: "Ada",
      lastName: "Lovelace",
      businessName: "",
      phoneNumber: "404-555-0100",
      email: "ada@example.com",
      isStakeholder: false,
    }),
    methods: postOnly(everyone(created)),
  },
  "/api/logout": {
    kind: "resource",
    // Idempotent: a visitor's logout has no sign-in to end.
    methods: postOnly(signedIn(ok, { status: 200, writes: true })),
  },
  "/api/users/:id/profile": {
    kind: "resource",
    url: ({ customerId }) => `/api/users/${customerId}/profile`,
    body: ({ freshUsername }) => ({ ...profileFields(freshUsername()), isStakeholder: true }),
    // Only one's own profile; any other id is answered as missing, to admins too.
    methods: {
      GET: everyone(status(405)),
      POST: everyone(status(405)),
      PUT: {
        visitor: status(401),
        customer: { status: 200, writes: true },
        otherCustomer: status(404),
        admin: status(404),
      },
      PATCH: everyone(status(405)),
      DELETE: everyone(status(405)),
    },
  },
  "/api/services": {
    kind: "resource",
    body: () => ({ ...serviceFields("Matrix add-on"), isActive: true }),
    methods: {
      GET: everyone(ok),
      POST: adminApi(created),
      PUT: everyone(status(405)),
      PATCH: everyone(status(405)),
      DELETE: everyone(status(405)),
    },
    extra: [
      {
        name: "inactive services included",
        method: "GET",
        url: () => "/api/services?activeOnly=false",
        expect: {
          visitor: status(401),
          customer: status(403),
          otherCustomer: status(403),
          admin: ok,
        },
      },
    ],
  },
  "/api/coupons/validate/:code": {
    kind: "resource",
    url: () => "/api/coupons/validate/NOSUCHCODE",
    // Open to visitors, as the booking form is; the lookup limit stops probing.
    methods: getOnly(everyone(ok)),
  },
  "/api/availability": {
    kind: "resource",
    url: ({ freshSlot }) => `/api/availability?date=${freshSlot().date}&hours=2`,
    methods: getOnly(everyone(ok)),
  },
  // The preview of a weekly series (docs/product.md "Weekly series"): public like the above.
  "/api/availability/series": {
    kind: "resource",
    url: ({ freshSlot }) => {
      const { date, time } = freshSlot();
      return `/api/availability/series?date=${date}&time=${time}&hours=2&every=week&count=3`;
    },
    methods: getOnly(everyone(ok)),
  },
  "/api/bookings": {
    kind: "resource",
    body: ({ freshSlot }) => {
      const slot = freshSlot();
      return bookingPayload(slot.date, slot.time, 2, { businessName: "" });
    },
    methods: {
      GET: signedIn(status(401), ok),
      POST: signedIn(status(401), created),
      PUT: everyone(status(405)),
      PATCH: everyone(status(405)),
      DELETE: everyone(status(405)),
    },
  },
  "/api/bookings/check-conflicts": {
    kind: "resource",
    url: ({ freshSlot }) => {
      const { date, time } = freshSlot();
      return `/api/bookings/check-conflicts?recordingDate=${date}&recordingTime=${time}&hoursNeeded=2`;
    },
    methods: getOnly(everyone(ok)),
  },
  "/api/bookings/:id/status": {
    kind: "resource",
    url: ({ bookingId }) => `/api/bookings/${bookingId}/status`,
    ownedBooking: true,
    body: () => ({ status: "CONFIRMED" }),
    methods: {
      GET: everyone(status(405)),
      POST: everyone(status(405)),
      PUT: everyone(status(405)),
      // The owner may only confirm a free booking (this one is not); admins use the admin area.
      PATCH: {
        visitor: status(401),
        customer: status(403),
        otherCustomer: status(404),
        admin: status(403),
      },
      DELETE: everyone(status(405)),
    },
  },
  // The waitlist (docs/product.md "Waitlist"): each caller's own. A free range is refused
  // (422: book it instead); an entry that is not the caller's is missing. Joining a taken range,
  // the limits and removing one's own are in waitlist.test.ts.
  "/api/waitlist": {
    kind: "resource",
    body: ({ freshSlot }) => {
      const { date, time } = freshSlot();
      return { recordingDate: date, recordingTime: time, hoursNeeded: 2 };
    },
    methods: {
      GET: signedIn(status(401), ok),
      POST: signedIn(status(401), status(422)),
      PUT: everyone(status(405)),
      PATCH: everyone(status(405)),
      DELETE: everyone(status(405)),
    },
  },
  "/api/waitlist/:id": {
    kind: "resource",
    url: () => "/api/waitlist/999999",
    methods: {
      GET: everyone(status(405)),
      POST: everyone(status(405)),
      PUT: everyone(status(405)),
      PATCH: everyone(status(405)),
      DELETE: signedIn(status(401), status(404)),
    },
  },
  "/api/bookings/:id/cancel": {
    kind: "resource",
    url: ({ bookingId }) => `/api/bookings/${bookingId}/cancel`,
    ownedBooking: true,
    body: () => ({ expectedRefund: 0 }),
    methods: {
      GET: ownerOnly(status(401), ok, status(404)),
      POST: ownerOnly(status(401), { status: 200, writes: true }, status(404)),
      PUT: everyone(status(405)),
      PATCH: everyone(status(405)),
      DELETE: everyone(status(405)),
    },
  },
  "/api/bookings/:id/reschedule": {
    kind: "resource",
    url: ({ bookingId }) => `/api/bookings/${bookingId}/reschedule`,
    ownedBooking: true,
    body: ({ freshSlot }) => {
      const { date, time } = freshSlot();
      return { recordingDate: date, recordingTime: time };
    },
    // The owner's booking is unpaid, so it cannot move yet (422).
    methods: postOnly(ownerOnly(status(401), status(422), status(404))),
  },
  "/api/bookings/:id/ics": {
    kind: "resource",
    url: ({ bookingId }) => `/api/bookings/${bookingId}/ics`,
    ownedBooking: true,
    methods: getOnly(ownerOnly(status(401), ok, status(404))),
  },
  // The receipt of the customer's payment: the owner and staff; another customer finds
  // nothing there (404), a visitor is told to sign in, as on every /api route.
  "/api/bookings/:id/payments/:paymentId/receipt": {
    kind: "resource",
    url: ({ payment }) =>
      `/api/bookings/${payment.bookingId}/payments/${payment.paymentId}/receipt`,
    paidBooking: true,
    methods: getOnly({ visitor: status(401), customer: ok, otherCustomer: status(404), admin: ok }),
  },
  // Session files: the owner and staff; another customer gets 404 (the downloads' 200s and
  // 206s, with real files, are in tests/integration/session-files.test.ts).
  "/api/bookings/:id/files": {
    kind: "resource",
    url: ({ bookingId }) => `/api/bookings/${bookingId}/files`,
    ownedBooking: true,
    methods: getOnly({ ...ownerOnly(status(401), ok, status(404)), admin: ok }),
  },
  // No such file on the fresh booking: 404 to everyone signed in, 401 to a visitor.
  "/api/bookings/:id/files/:fileId": {
    kind: "resource",
    url: ({ bookingId }) => `/api/bookings/${bookingId}/files/999999`,
    ownedBooking: true,
    methods: getOnly(signedIn(status(401), status(404))),
  },
  "/api/bookings/:id/payments/direct": {
    kind: "resource",
    url: ({ bookingId }) => `/api/bookings/${bookingId}/payments/direct`,
    ownedBooking: true,
    body: () => ({ ...SANDBOX_CARD, paymentMethod: "card" }),
    methods: postOnly(ownerOnly(status(401), { status: 200, writes: true }, status(404))),
  },
  // Public, and only about checkouts the site opened: a reference it never made is a 404 for
  // everyone, with no call to the provider (tests/integration/stripe.test.ts).
  "/api/payments/status": {
    kind: "resource",
    url: () => "/api/payments/status?session_id=unknown-reference",
    methods: getOnly(everyone(status(404))),
  },
  // Stripe's endpoint does not exist with the sandbox provider, whatever the method.
  "/api/payments/webhook": {
    kind: "resource",
    methods: {
      GET: everyone(status(404)),
      POST: everyone(status(404)),
      PUT: everyone(status(404)),
      PATCH: everyone(status(404)),
      DELETE: everyone(status(404)),
    },
  },
  // A customer's own support requests; another's never show (tests/routes/support-api.test.ts).
  "/api/tech-assistance": {
    kind: "resource",
    body: () => ({
      issueType: "EQUIPMENT",
      description: "The headphone amplifier in booth two hums loudly.",
      preferredContactMethod: "EMAIL",
      name: "Ada Lovelace",
      email: "ada@example.com",
    }),
    methods: {
      GET: signedIn(status(401), ok),
      POST: signedIn(status(401), created),
      PUT: everyone(status(405)),
      PATCH: everyone(status(405)),
      DELETE: everyone(status(405)),
    },
  },
  "/*": {
    kind: "page",
    url: () => "/no-such-page",
    load: everyone(status(404)),
    action: everyone(status(404)),
  },
};
