import fc from "fast-check";
import { BOOKING_STATUSES } from "#app/domain/booking-status";
import { BOOKING_LIMITS, START_TIMES } from "#app/domain/availability";
import type { Target } from "#tests/setup/route-targets";

/**
 * What the hostile-input suite sends: fast-check generators of bodies, query strings and path
 * parameters for each route, from plain garbage to a valid payload with one field broken,
 * built from what each route module is known to read.
 */

/** Values from the test's own database, so near-valid inputs hit real rows. */
export type Fixtures = {
  futureDates: string[];
  /** Active add-ons; the inactive ones are a near miss. */
  serviceIds: number[];
  inactiveServiceIds: number[];
  couponCodes: string[];
  usernames: string[];
  userIds: number[];
  bookingIds: number[];
  /** Payments (with their receipts) of those bookings: a receipt URL's second id. */
  paymentIds: number[];
  password: string;
};

/** Fixtures to fill in a suite's beforeAll. */
export function emptyFixtures(password: string): Fixtures {
  return {
    futureDates: [],
    serviceIds: [],
    inactiveServiceIds: [],
    couponCodes: [],
    usernames: [],
    userIds: [],
    bookingIds: [],
    paymentIds: [],
    password,
  };
}

/**
 * What each route module reads, from the route and its zod schema: the fields of a valid body,
 * the extras a client may add (server-computed figures, someone else's id) that are only sent
 * as the one mutated field, the intents of page forms, the query keys, and the method it serves.
 */
export type Knowledge = {
  fields?: string[];
  extras?: string[];
  intents?: string[];
  query?: string[];
  method?: string;
  /** A file download's Content-Type on success (.ics); its refusals are still JSON. */
  fileType?: string;
};

const CONTACT = ["firstName", "lastName", "businessName", "phoneNumber", "email"];
const BOOKING = [
  ...CONTACT,
  "stakeholder",
  "recordingDate",
  "recordingTime",
  "guestCount",
  "hoursNeeded",
  "isRetainer",
  "selectedServices",
  "couponCode",
];
const REGISTER = ["username", "password", "confirmPassword", ...CONTACT, "isStakeholder"];
const PROFILE = [...CONTACT, "isStakeholder"];
const PASSWORD_CHANGE = ["currentPassword", "newPassword", "confirmNewPassword"];
const CARD = ["paymentMethod", "cardName", "cardNumber", "expirationDate", "cvv"];
const SERVICE = ["name", "description", "price", "duration"];
const SUPPORT = [
  "issueType",
  "description",
  "preferredContactMethod",
  "name",
  "email",
  "phoneNumber",
  "bookingId",
];

/** The admin Bookings and Sessions filters (and GET /api/admin/bookings'). */
const ADMIN_BOOKING_QUERY = ["date", "status", "membership", "view", "page"];

export const KNOWLEDGE: Record<string, Knowledge> = {
  "routes/home/home.tsx": {
    intents: ["check", "remove-coupon", "apply-coupon", "book", "join-waitlist", "check-dates"],
    fields: [
      ...BOOKING,
      "couponEntry",
      "waitlistTime",
      "waitlistEntryId",
      "repeat.every",
      "repeat.count",
      "repeat.skip",
    ],
    extras: ["_hydrated"],
    query: ["booked", "index", "claim"],
  },
  "routes/auth.tsx": {
    intents: ["login", "register", "code", "cancel-code"],
    fields: [...REGISTER, "code"],
    extras: ["website", "_hydrated"],
    query: ["tab"],
  },
  "routes/dashboard/two-factor.tsx": {
    intents: ["start", "confirm", "disable"],
    fields: ["code", "proof"],
    extras: ["_hydrated"],
  },
  "routes/dashboard/layout.tsx": {
    intents: ["profile", "password", "support", "new-calendar-link", "remove-waitlist"],
    fields: [...PROFILE, ...PASSWORD_CHANGE, ...SUPPORT],
    extras: ["_hydrated", "status", "userId"],
    query: ["tab", "list", "paid"],
  },
  "routes/checkout/checkout.tsx": { fields: CARD, extras: ["_hydrated"] },
  "routes/checkout/series.tsx": { fields: CARD, extras: ["_hydrated"] },
  "routes/dashboard/sessions.$id.tsx": { query: ["list"] },
  "routes/dashboard/sessions.$id.pay.tsx": { fields: CARD, extras: ["_hydrated"] },
  "routes/booking-success.tsx": { query: ["session_id", "check"] },
  // admin knowledge: workflow (bookings, sessions, calendar)
  "routes/admin/bookings.tsx": {
    intents: ["status"],
    fields: ["id", "status", "note"],
    extras: ["_hydrated", "ids"],
    query: [...ADMIN_BOOKING_QUERY, "cal", "around"],
  },
  "routes/admin/sessions.tsx": {
    intents: ["status", "bulk", "new-studio-calendar-link"],
    fields: ["id", "ids", "status", "note"],
    extras: ["_hydrated"],
    query: [...ADMIN_BOOKING_QUERY, "cal", "around", "selected"],
  },
  "routes/admin/bookings.$id.tsx": {
    // The Files section's forms (docs/product.md "Booking page") post here too.
    intents: ["status", "file-rename", "file-delete", "files-deliver"],
    fields: ["id", "status", "note", "fileId", "name"],
    extras: ["_hydrated", "ids"],
  },
  // What the JSON list reads (it has no views).
  "routes/api/admin/bookings.ts": { query: ["date", "status", "membership", "page"] },
  "routes/api/admin/bookings.$id.ts": { fields: ["status", "note"], method: "PUT" },
  // Session files: the form's field (a JSON body is refused), a tus upload's PATCH.
  "routes/api/admin/bookings.files.ts": { fields: ["file", "intent"], method: "POST" },
  "routes/api/admin/bookings.files.$uploadId.ts": { method: "PATCH" },
  // admin knowledge: sales
  "routes/admin/sales.tsx": {
    intents: ["refresh"],
    extras: ["_hydrated"],
    query: ["period", "from", "to", "page"],
  },
  "routes/admin/sales.export.ts": {
    query: ["period", "from", "to"],
    fileType: "text/csv; charset=utf-8",
  },
  "routes/api/admin/payments.ts": { query: ["period", "from", "to", "page"] },
  // admin knowledge: users, coupons, services
  "routes/admin/users.tsx": {
    intents: ["make-admin", "membership"],
    fields: ["userId", "isMember"],
    extras: ["_hydrated"],
    query: ["membership", "q", "page"],
  },
  "routes/admin/coupons.tsx": {
    intents: ["create", "deactivate", "activate"],
    fields: ["code", "type", "amount", "maxUses", "expiryDate", "couponId"],
    extras: ["_hydrated", "value", "description", "isActive"],
    query: ["page"],
  },
  "routes/admin/services.tsx": {
    intents: ["toggle"],
    fields: ["serviceId", "isActive"],
    extras: ["_hydrated"],
    query: ["page"],
  },
  "routes/admin/services.new.tsx": {
    fields: SERVICE,
    extras: ["_hydrated", "isActive"],
    query: ["page"],
  },
  "routes/admin/services.$id.edit.tsx": {
    fields: SERVICE,
    extras: ["_hydrated", "isActive"],
    query: ["page"],
  },
  "routes/admin/services.$id.delete.tsx": { extras: ["_hydrated"], query: ["page"] },
  "routes/api/admin/users.ts": { query: ["membership", "page"] },
  "routes/api/admin/users.make-admin.ts": { extras: ["isAdmin"], method: "PUT" },
  "routes/api/admin/users.membership.ts": { fields: ["isMember"], method: "PUT" },
  "routes/api/admin/coupons.ts": {
    fields: ["code", "type", "value", "maxUses", "expiryDate", "isActive"],
    extras: ["description", "createdAt", "currentUses", "id"],
    query: ["page"],
    method: "POST",
  },
  "routes/api/admin/coupons.$id.ts": {
    fields: ["isActive"],
    extras: ["code", "value", "currentUses"],
    method: "PUT",
  },
  "routes/api/admin/coupons.deactivate.ts": { method: "PUT" },
  "routes/api/services.$id.ts": {
    fields: [...SERVICE, "isActive"],
    extras: ["id", "createdAt"],
    method: "PUT",
  },
  "routes/api/services.toggle-status.ts": { fields: ["isActive"], method: "PATCH" },
  // admin knowledge: support, blocked times, emails
  "routes/admin/support.tsx": {
    intents: ["start", "resolve", "cancel"],
    fields: ["id", "resolution"],
    extras: ["_hydrated", "status"],
    query: ["status", "page"],
  },
  "routes/admin/blocked-times.tsx": {
    intents: ["create", "remove"],
    fields: ["startDate", "startTime", "endDate", "endTime", "reason", "id"],
    extras: ["_hydrated"],
    query: ["show", "page"],
  },
  "routes/admin/emails.tsx": {
    intents: ["retry"],
    fields: ["id"],
    extras: ["_hydrated"],
    query: ["status", "page"],
  },
  "routes/admin/emails.$id.html.ts": { fileType: "text/html; charset=utf-8" },
  // A calendar feed (docs/product.md "Calendar feeds"): its refusals are plain text, for
  // calendar apps, not JSON.
  "routes/calendar.$file.ts": { fileType: "text/calendar; charset=utf-8" },
  "routes/api/admin/tech-assistance.ts": { query: ["status", "page"] },
  "routes/api/admin/tech-assistance.$id.ts": {
    fields: ["status", "resolution"],
    method: "PUT",
  },
  "routes/dashboard/sessions.$id.cancel.tsx": {
    fields: ["expectedRefund", "scope", "expectedFollowingRefund"],
    extras: ["_hydrated"],
  },
  "routes/dashboard/sessions.$id.reschedule.tsx": {
    fields: ["recordingDate", "recordingTime"],
    extras: ["_hydrated"],
    query: ["recordingDate"],
  },
  "routes/api/bookings.cancel.ts": {
    fields: ["expectedRefund", "scope"],
    method: "POST",
    query: ["scope"],
  },
  "routes/api/bookings.reschedule.ts": {
    fields: ["recordingDate", "recordingTime"],
    method: "POST",
  },
  "routes/api/login.ts": { fields: ["username", "password", "code"], method: "POST" },
  "routes/api/register.ts": { fields: REGISTER, method: "POST" },
  "routes/api/logout.ts": { method: "POST" },
  "routes/api/users.profile.ts": {
    fields: PROFILE,
    extras: ["isAdmin", "isMember", "username", "password", "id"],
    method: "PUT",
  },
  "routes/api/bookings.ts": {
    fields: [...BOOKING, "repeat", "waitlistEntryId"],
    extras: ["userId", "totalCost", "originalCost", "discountAmount", "status"],
    method: "POST",
  },
  "routes/api/bookings.status.ts": { fields: ["status"], method: "PATCH" },
  // The waitlist (docs/product.md "Waitlist").
  "routes/api/waitlist.ts": {
    fields: ["recordingDate", "recordingTime", "hoursNeeded"],
    extras: ["userId", "status"],
    method: "POST",
  },
  "routes/api/waitlist.$id.ts": { method: "DELETE" },
  "routes/api/bookings.ics.ts": { fileType: "text/calendar; charset=utf-8" },
  "routes/api/bookings.receipt.ts": { fileType: "application/pdf" },
  // A session file's download is the file's own type; none exist in this suite's database.
  "routes/api/bookings.files.ts": {},
  "routes/api/bookings.files.$fileId.ts": {},
  "routes/api/bookings.payments-direct.ts": {
    fields: CARD,
    extras: ["amount", "paymentDetails"],
    method: "POST",
  },
  "routes/api/bookings.check-conflicts.ts": {
    query: ["recordingDate", "recordingTime", "hoursNeeded"],
  },
  "routes/api/availability.ts": { query: ["date", "hours"] },
  "routes/api/availability.series.ts": { query: ["date", "time", "hours", "every", "count"] },
  "routes/api/services.ts": {
    fields: [...SERVICE, "isActive"],
    extras: ["id", "createdAt"],
    query: ["activeOnly"],
    method: "POST",
  },
  "routes/api/payments.status.ts": { query: ["session_id"] },
  "routes/api/tech-assistance.ts": {
    fields: SUPPORT,
    extras: ["status", "userId", "resolution"],
    method: "POST",
  },
};

export const knowledgeOf = (target: Target): Knowledge => KNOWLEDGE[target.file] ?? {};

// ---------------------------------------------------------------- values

/** Strings that broke parsers somewhere once: numbers in every spelling, dates, paths, SQL. */
const NASTY = [
  "",
  " ",
  "-1",
  "0",
  "-0",
  "1.5",
  "1e9",
  "1e309",
  "-1e309",
  "NaN",
  "Infinity",
  "0x10",
  "0b1",
  "9007199254740993",
  "99999999999999999999999",
  "abc",
  "null",
  "undefined",
  "true",
  "false",
  "on",
  "[]",
  "{}",
  "__proto__",
  "constructor",
  "toString",
  "..",
  "../../etc/passwd",
  "%00",
  "\u0000",
  "\ud800",
  "\u202e",
  "٣",
  "９",
  "'; DROP TABLE users; --",
  "<script>alert(1)</script>",
  "9999-12-31",
  "0000-00-00",
  "2026-02-30",
  "2026-03-08",
  "+02026-01-01",
  "02:00",
  "24:00",
  "2:00",
  "12/99",
  "00/00",
  "CONFIRMED",
  "paid",
];

export const hostileString: fc.Arbitrary<string> = fc.oneof(
  fc.constantFrom(...NASTY),
  fc.string({ maxLength: 30 }),
  fc.string({ unit: "grapheme", maxLength: 12 }),
  fc.string({ unit: "binary", maxLength: 12 }),
  fc.integer().map(String),
  fc.double().map(String),
  fc.integer({ min: 1_000, max: 70_000 }).map((n) => "9".repeat(n)),
);

const hostileJson: fc.Arbitrary<unknown> = fc.oneof(
  hostileString,
  fc.integer(),
  fc.double(),
  fc.boolean(),
  fc.constant(null),
  fc.array(fc.oneof(fc.integer(), hostileString), { maxLength: 5 }),
  fc.jsonValue({ maxDepth: 3 }),
);

/** Values the route would accept: the base a single mutation is applied to. */
export function validValue(field: string, fx: Fixtures): fc.Arbitrary<unknown> {
  const pick = <T>(...values: T[]) => fc.constantFrom(...values);
  switch (field) {
    case "username":
      return fc.oneof(pick(...fx.usernames), fc.stringMatching(/^[a-z][a-z0-9._-]{4,20}$/));
    case "password":
    case "confirmPassword":
    case "currentPassword":
      return pick(fx.password);
    case "newPassword":
    case "confirmNewPassword":
      return pick(`${fx.password}-2`);
    case "isAdmin":
    case "isMember":
    case "isActive":
      return pick<boolean | string>(true, "true");
    case "firstName":
      return pick("Ada", "Zoë", "李");
    case "lastName":
      return pick("Lovelace", "O'Brien");
    case "businessName":
      return pick("", "Analytical Audio");
    case "phoneNumber":
      return pick("404-555-0100", "+1 (404) 555.0100");
    case "email":
      return pick("ada@example.com", "Ada.Lovelace+tag@example.co.uk");
    case "isStakeholder":
      return pick<boolean | string>(false, true, "on", "true");
    case "isRetainer":
      return pick<boolean | string>(false, "false");
    case "stakeholder":
      return pick("yes", "no", "YES");
    case "recordingDate":
    case "date":
      return pick(...fx.futureDates);
    case "recordingTime":
    case "waitlistTime":
    case "time":
      return pick(...START_TIMES);
    // A weekly series (docs/product.md "Weekly series"): the API's object, the form's fields.
    case "repeat":
      return fc.record({
        every: pick("week", "2weeks"),
        count: fc.integer({ min: 2, max: 12 }),
        skip: fc.subarray(fx.futureDates),
      });
    case "repeat.every":
    case "every":
      return pick("none", "week", "2weeks");
    case "repeat.count":
    case "count":
      return fc.integer({ min: 2, max: 12 });
    case "repeat.skip":
      return pick(...fx.futureDates);
    case "guestCount":
      return fc.integer({ min: BOOKING_LIMITS.minGuests, max: BOOKING_LIMITS.maxGuests });
    case "hoursNeeded":
    case "hours":
      return fc.integer({ min: BOOKING_LIMITS.minHours, max: BOOKING_LIMITS.maxHours });
    case "selectedServices":
      return fc.subarray(fx.serviceIds);
    case "couponCode":
    case "couponEntry":
      return pick("", ...fx.couponCodes);
    case "userId":
      return pick(...fx.userIds);
    case "totalCost":
    case "originalCost":
    case "discountAmount":
    case "amount":
      return fc.oneof(pick(0), fc.integer({ min: 0, max: 200_000 }));
    case "status":
      return pick(...BOOKING_STATUSES, "confirmed");
    case "paymentMethod":
      return pick("card");
    case "cardName":
      return pick("Ada Lovelace");
    case "cardNumber":
      return pick("4242 4242 4242 4242", "4242424242424242");
    case "expirationDate":
      return pick("12/39");
    case "cvv":
      return pick("123");
    case "paymentDetails":
      return pick({ cardNumber: "4242424242424242", cvv: "123" });
    case "_hydrated":
      return pick("1", "0");
    case "expectedRefund":
      return pick<number | string>(0, "0");
    case "website":
      return pick("", "https://spam.example");
    case "tab":
      return pick("register", "login", "bookings", "profile", "support");
    // The Sales tab's period (app/domain/sales-period.ts).
    case "period":
      return pick("all", "today", "week", "month", "ytd", "custom");
    case "from":
    case "to":
      return pick("", "2026-01-01", "2026-03-08", "2026-11-01", ...fx.futureDates);
    // Admin lists' page numbers (app/services/admin/pagination.server.ts), the edges included.
    case "page":
      return pick("1", "2", "4000", "4001", "0");
    case "issueType":
      return pick("BOOKING", "EQUIPMENT", "OTHER");
    case "description":
      return pick("The second microphone crackles when the guest moves.", "x".repeat(2000));
    case "preferredContactMethod":
      return pick("EMAIL", "PHONE");
    case "name":
      return pick("Ada Lovelace", "李");
    case "bookingId":
      return pick<string | number>("", ...fx.bookingIds);
    case "booked":
    case "paid":
      return pick(...fx.bookingIds);
    case "list":
      return pick("upcoming", "past");
    case "session_id":
      return pick("sandbox_1", "cs_test_123");
    case "activeOnly":
      return pick("true", "false");
    case "index":
      return pick("");
    // The Bookings and Sessions tabs' filters and the calendar's view (app/domain/booking-filters.ts).
    case "membership":
      return pick("all", "members", "non-members");
    case "view":
      return pick("list", "calendar");
    case "selected":
      return pick("all");
    case "cal":
      return pick("month", "week", "day");
    case "around":
      return pick(...fx.futureDates);
    case "id":
      return pick(...fx.bookingIds);
    // A waitlist entry's id, or the link's (?claim=): someone's, or nobody's.
    case "waitlistEntryId":
    case "claim":
      return pick("1", "2", "999999");
    case "ids":
      return fc.subarray(fx.bookingIds, { minLength: 1 });
    case "note":
      return pick("", "Paid at the desk");
    // A coupon as POST /api/admin/coupons takes it (app/domain/coupons.ts).
    case "code":
      return pick("SPRING10", "FUZZ-50");
    case "type":
      return pick("PERCENTAGE", "FIXED_AMOUNT");
    case "value":
      return pick(10, 25);
    case "maxUses":
      return pick(0, 5);
    case "expiryDate":
      return pick(null, ...fx.futureDates);
    default:
      return hostileString;
  }
}

/** Values one rule away from valid: where the domain's own checks have to hold. */
function nearMiss(field: string, fx: Fixtures): fc.Arbitrary<unknown> {
  const pick = (...values: unknown[]) => fc.constantFrom(...values);
  switch (field) {
    case "recordingDate":
    case "date":
      return pick("2020-01-01", (fx.futureDates[0] ?? "2099-01-01").replace(/-\d\d$/, "-31"));
    case "recordingTime":
    case "time":
      return pick("02:00", "23:30", "24:00", "9:00");
    case "repeat":
      return pick(
        { every: "week", count: 1 },
        { every: "week", count: 13 },
        { every: "monthly", count: 3 },
        { every: "week", count: 2, skip: ["2020-01-01"] },
        { every: "week", count: 2, skip: "2020-01-01" },
        { every: "2weeks", count: "12" },
        "week",
        null,
      );
    case "repeat.every":
    case "every":
      return pick("month", "", "WEEK");
    case "repeat.count":
    case "count":
      return pick(1, 13, "2.5", -1, "1e1");
    case "repeat.skip":
      return pick("2020-01-01", "9999-12-31", "soon");
    case "guestCount":
      return pick(0, 5, "1.5", -1);
    case "hoursNeeded":
    case "hours":
      return pick(1, 9, "2.0", 0);
    case "isRetainer":
      return pick(true, "on");
    case "selectedServices":
      return pick([...fx.inactiveServiceIds], [999_999], [...fx.serviceIds, ...fx.serviceIds]);
    case "couponCode":
    case "couponEntry":
      return pick("NOPE", " fuzz10 ", "x".repeat(51));
    case "userId":
    case "booked":
    case "bookingId":
      return pick(...fx.userIds, ...fx.bookingIds, 0, -1);
    case "issueType":
      return pick("equipment", "FIRE", "");
    case "description":
      return pick("too short", " ".repeat(30), "x".repeat(2001));
    case "preferredContactMethod":
      return pick("email", "FAX", "");
    case "status":
      return pick(...BOOKING_STATUSES, "confirmed", "");
    case "cardNumber":
      return pick("4000000000000002", "4242424242424241", "4242 4242 4242 424");
    case "expirationDate":
      return pick("01/20", "13/30", "00/30", "1239");
    case "cvv":
      return pick("12", "1234", "abc");
    case "paymentMethod":
      return pick("paypal", "CARD");
    case "amount":
    case "totalCost":
      return pick(0, 1, -1, 10_000, "10000.00");
    case "expectedRefund":
      return pick(1, -1, 0.5, "1e3", null);
    case "username":
      return pick(...fx.usernames.map((name) => name.toUpperCase()), "ab", "a b");
    case "password":
    case "confirmPassword":
    case "currentPassword":
    case "newPassword":
    case "confirmNewPassword":
      return pick("short", `${fx.password}x`);
    case "email":
      return pick("ada@", "ada@example", "@example.com");
    case "phoneNumber":
      return pick("404", "phone-number", "1".repeat(31));
    case "stakeholder":
      return pick("maybe", "", true);
    default:
      return validValue(field, fx);
  }
}

/** A valid record, usually with one field (or one extra) dropped, near-missed, broken or retyped. */
function nearValidRecord(
  knowledge: Knowledge,
  fx: Fixtures,
  broken: fc.Arbitrary<unknown>,
  fallbackFields: string[] = [],
): fc.Arbitrary<Record<string, unknown>> {
  const fields = knowledge.fields ?? fallbackFields;
  const base = fc.record(
    Object.fromEntries(fields.map((field) => [field, validValue(field, fx)])),
  ) as fc.Arbitrary<Record<string, unknown>>;
  const mutable = [...fields, ...(knowledge.extras ?? [])];
  if (mutable.length === 0) return base;
  return fc
    .tuple(base, fc.constantFrom(...mutable))
    .chain(([record, field]) =>
      fc.tuple(
        fc.constant(record),
        fc.constant(field),
        fc.oneof(
          { weight: 2, arbitrary: fc.constant({ op: "keep" as const }) },
          { weight: 1, arbitrary: fc.constant({ op: "drop" as const }) },
          { weight: 1, arbitrary: fc.constant({ op: "as-text" as const }) },
          {
            weight: 2,
            arbitrary: nearMiss(field, fx).map((value) => ({ op: "set" as const, value })),
          },
          { weight: 3, arbitrary: broken.map((value) => ({ op: "set" as const, value })) },
        ),
      ),
    )
    .map(([record, field, mutation]) => {
      const result = { ...record };
      if (mutation.op === "drop") delete result[field];
      if (mutation.op === "as-text") result[field] = JSON.stringify(result[field]);
      if (mutation.op === "set") result[field] = mutation.value;
      return result;
    });
}

// ---------------------------------------------------------------- JSON bodies

export type Body = { contentType?: string; body?: Uint8Array | string; label: string };

const JSON_TYPES = [
  "application/json",
  "application/json; charset=utf-8",
  "APPLICATION/JSON",
  "application/jsonx",
];

/** Tokens JSON.stringify can never produce, spliced in as a field's raw value. */
const RAW_TOKENS = [
  "1e309",
  "-1e309",
  "-0",
  "1e-400",
  "123456789012345678901234567890",
  "NaN",
  "0x10",
  '"\\u0000"',
  '"\\ud800"',
  "[[[[[[[[[[]]]]]]]]]]",
  "{}",
];

function deepNesting(depth: number, kind: "array" | "object"): string {
  return kind === "array"
    ? `${"[".repeat(depth)}${"]".repeat(depth)}`
    : `${'{"a":'.repeat(depth)}1${"}".repeat(depth)}`;
}

export function jsonBodies(target: Target, fx: Fixtures): fc.Arbitrary<Body> {
  const knowledge = knowledgeOf(target);
  const fields = [...(knowledge.fields ?? ["id", "name", "value"]), ...(knowledge.extras ?? [])];
  const near = nearValidRecord(knowledge, fx, hostileJson, ["id", "name", "value"]);
  const json = (label: string, text: string, type = "application/json"): Body => ({
    label,
    contentType: type,
    body: text,
  });
  return fc.oneof(
    {
      weight: 6,
      arbitrary: fc
        .tuple(
          near,
          fc.oneof(
            { weight: 4, arbitrary: fc.constant(JSON_TYPES[0]) },
            fc.constantFrom(...JSON_TYPES),
          ),
        )
        .map(([record, type]) => json("near-valid", JSON.stringify(record), type)),
    },
    {
      weight: 2,
      arbitrary: fc
        .tuple(near, fc.constantFrom(...fields), fc.constantFrom(...RAW_TOKENS))
        .map(([record, field, token]) =>
          json(
            "raw token",
            JSON.stringify({ ...record, [field]: "\u0001RAW\u0001" }).replace(
              '"\\u0001RAW\\u0001"',
              token,
            ),
          ),
        ),
    },
    {
      weight: 2,
      arbitrary: fc
        .tuple(near, fc.constantFrom("__proto__", "constructor", "prototype"))
        .map(([record, key]) =>
          json(
            "prototype keys",
            `{"${key}":{"isAdmin":true,"prototype":{"isAdmin":true},"status":"PAID"},${JSON.stringify(record).slice(1)}`.replace(
              ",}",
              "}",
            ),
          ),
        ),
    },
    {
      weight: 2,
      arbitrary: fc.jsonValue().map((value) => json("random JSON", JSON.stringify(value))),
    },
    {
      weight: 1,
      arbitrary: fc
        .tuple(
          fc.integer({ min: 1_000, max: 100_000 }),
          fc.constantFrom("array", "object" as const),
        )
        .map(([depth, kind]) => json("deep nesting", deepNesting(depth, kind as "array"))),
    },
    {
      weight: 1,
      arbitrary: fc
        .tuple(near, fc.constantFrom(...fields), fc.integer({ min: 100_000, max: 1_000_000 }))
        .map(([record, field, size]) =>
          json("huge string", JSON.stringify({ ...record, [field]: "é".repeat(size) })),
        ),
    },
    {
      weight: 2,
      arbitrary: fc.tuple(near, fc.nat()).map(([record, cut]) => {
        const text = JSON.stringify(record);
        return json("truncated JSON", text.slice(0, cut % Math.max(1, text.length)));
      }),
    },
    { weight: 1, arbitrary: fc.string().map((text) => json("malformed text", text)) },
    {
      weight: 2,
      arbitrary: fc
        .tuple(
          near,
          fc.constantFrom(
            undefined,
            "text/plain",
            "application/x-www-form-urlencoded",
            "multipart/form-data",
            "application/xml",
          ),
        )
        .map(([record, type]) => ({
          label: "JSON with a wrong Content-Type",
          contentType: type,
          body: JSON.stringify(record),
        })),
    },
    {
      weight: 1,
      arbitrary: fc
        .constantFrom(...JSON_TYPES, undefined)
        .map((type) => ({ label: "empty body", contentType: type, body: "" })),
    },
    { weight: 1, arbitrary: fc.constant({ label: "no body" }) },
  );
}

// ---------------------------------------------------------------- form bodies

type Pair = [string, string | { file: string }];

const formValue = (value: unknown): string =>
  typeof value === "string" ? value : (JSON.stringify(value) ?? "");

/** Pairs, not a record: a key may repeat (checkbox groups, two intents, two usernames). */
function formPairs(target: Target, fx: Fixtures): fc.Arbitrary<Pair[]> {
  const knowledge = knowledgeOf(target);
  const fields = [...(knowledge.fields ?? []), ...(knowledge.extras ?? [])];
  const intents = knowledge.intents ?? [];
  const intent = fc.oneof(
    { weight: intents.length > 0 ? 4 : 0, arbitrary: fc.constantFrom(...intents, "") },
    { weight: 1, arbitrary: fc.constantFrom("", "INTENT", "__proto__") },
    { weight: 1, arbitrary: hostileString },
  );
  const near = nearValidRecord(knowledge, fx, hostileString).map((record) =>
    Object.entries(record).flatMap(([key, value]): Pair[] =>
      Array.isArray(value)
        ? value.map((item): Pair => [key, formValue(item)])
        : [[key, formValue(value)]],
    ),
  );
  const extra = fc.array(
    fc.tuple(
      fc.oneof(fc.constantFrom(...fields, "intent", "__proto__", "constructor", ""), fc.string()),
      fc.oneof(
        { weight: 5, arbitrary: hostileString },
        { weight: 1, arbitrary: fc.string().map((name) => ({ file: name })) },
      ),
    ),
    { maxLength: 4 },
  );
  return fc
    .tuple(fc.option(intent, { nil: undefined }), near, extra, fc.boolean())
    .map(([chosen, known, more, intentLast]) => {
      const pairs: Pair[] = [...known, ...more];
      if (chosen === undefined) return pairs;
      return intentLast ? [...pairs, ["intent", chosen]] : [["intent", chosen], ...pairs];
    });
}

async function encodeMultipart(pairs: Pair[]): Promise<Body> {
  const form = new FormData();
  for (const [key, value] of pairs) {
    if (typeof value === "string") form.append(key, value);
    else form.append(key, new Blob(["file content"], { type: "text/plain" }), value.file);
  }
  const encoded = new Response(form);
  return {
    label: "multipart",
    contentType: encoded.headers.get("Content-Type") ?? undefined,
    body: new Uint8Array(await encoded.arrayBuffer()),
  };
}

function encodeUrlEncoded(pairs: Pair[]): Body {
  const params = new URLSearchParams();
  for (const [key, value] of pairs)
    params.append(key, typeof value === "string" ? value : value.file);
  return {
    label: "urlencoded",
    contentType: "application/x-www-form-urlencoded",
    body: params.toString(),
  };
}

const GARBAGE_FORM_TYPES = [
  "application/x-www-form-urlencoded",
  "application/x-www-form-urlencoded; charset=utf-16",
  "multipart/form-data",
  "multipart/form-data; boundary=",
  "multipart/form-data; boundary=XyZ",
  'multipart/form-data; boundary="unterminated',
  "application/json",
  "text/plain",
  "application/octet-stream",
  undefined,
];

/** A form post's body: urlencoded, multipart (some values as files), or bytes under a form type. */
export function formBodies(target: Target, fx: Fixtures): fc.Arbitrary<() => Promise<Body>> {
  const pairs = formPairs(target, fx);
  return fc.oneof(
    { weight: 4, arbitrary: pairs.map((p) => async () => encodeUrlEncoded(p)) },
    { weight: 3, arbitrary: pairs.map((p) => () => encodeMultipart(p)) },
    {
      weight: 1,
      arbitrary: fc.tuple(pairs, fc.nat()).map(([p, cut]) => async () => {
        const whole = await encodeMultipart(p);
        const bytes = whole.body as Uint8Array;
        return { ...whole, label: "truncated multipart", body: bytes.slice(0, cut % bytes.length) };
      }),
    },
    {
      weight: 2,
      arbitrary: fc
        .tuple(
          fc.constantFrom(...GARBAGE_FORM_TYPES),
          fc.oneof(
            fc.string({ maxLength: 200 }),
            fc.uint8Array({ maxLength: 200 }),
            fc.constant("--XyZ\r\nContent-Disposition: form-data\r\n\r\nvalue\r\n"),
            fc.constant('{"intent":"book"}'),
            fc.constant("intent=book&%E0%A4%A=%&a=%zz"),
          ),
        )
        .map(([contentType, body]) => async () => ({ label: "garbage", contentType, body })),
    },
  );
}

// ---------------------------------------------------------------- URLs

/** encodeURIComponent, but lone surrogates become U+FFFD instead of throwing, as on the wire. */
export function percentEncode(text: string): string {
  let out = "";
  for (const byte of Buffer.from(text, "utf8")) {
    const char = String.fromCharCode(byte);
    out += /[A-Za-z0-9\-._~]/.test(char)
      ? char
      : `%${byte.toString(16).toUpperCase().padStart(2, "0")}`;
  }
  return out;
}

/** Path parameter values: ids in every spelling, traversal, bad escapes, unicode, huge. */
export function paramValue(fx: Fixtures): fc.Arbitrary<string> {
  const encoded = (arb: fc.Arbitrary<string>) => arb.map(percentEncode);
  return fc.oneof(
    { weight: 4, arbitrary: fc.constantFrom(...fx.bookingIds.map(String)) },
    { weight: 2, arbitrary: fc.constantFrom(...fx.paymentIds.map(String)) },
    fc.constantFrom(
      "-1",
      "0",
      "1e9",
      "abc",
      "0x10",
      "1.0",
      "%201",
      "+1",
      "9007199254740993",
      "99999999999999999999",
      "..",
      "%2e%2e",
      "..%2f..%2fetc%2fpasswd",
      "%00",
      "%",
      "%E0%A4%A",
      "%ZZ",
      "%C0%AF",
      ...fx.couponCodes,
    ),
    encoded(fc.string({ unit: "grapheme", maxLength: 10 })),
    encoded(hostileString.map((text) => text.slice(0, 3_000))),
    fc.integer({ min: 1_000, max: 6_000 }).map((n) => "7".repeat(n)),
  );
}

function queryValue(field: string, fx: Fixtures): fc.Arbitrary<string> {
  return fc.oneof(
    // A key without a valid value of its own (page, q) falls back to hostile strings of up to
    // 70,000 characters: past Node's 16 KB header limit the answer is Node's bare 431, which
    // tests the HTTP parser, not the route.
    validValue(field, fx).map((value) => formValue(value).slice(0, 2_000)),
    hostileString.map((text) => text.slice(0, 2_000)),
  );
}

/** A query string: known keys with valid or hostile values, unknown keys, raw bad escapes. */
export function queryStrings(target: Target, fx: Fixtures): fc.Arbitrary<string> {
  const keys = knowledgeOf(target).query ?? [];
  const known =
    keys.length === 0
      ? fc.constant([] as [string, string][])
      : fc
          .subarray(keys)
          .chain((chosen) =>
            fc.tuple(
              ...chosen.map((key) => queryValue(key, fx).map((v): [string, string] => [key, v])),
            ),
          );
  const unknown = fc.array(
    fc.tuple(
      fc.oneof(fc.constantFrom("_routes", "__proto__", "index", "_data"), fc.string()),
      hostileString.map((t) => t.slice(0, 500)),
    ),
    { maxLength: 3 },
  );
  return fc.oneof(
    {
      weight: 5,
      arbitrary: fc.tuple(known, unknown).map(([a, b]) => {
        const text = new URLSearchParams([...a, ...b]).toString();
        return text ? `?${text}` : "";
      }),
    },
    {
      weight: 1,
      arbitrary: fc.constantFrom(
        "?",
        "?&&&",
        "?date=%E0%A4%A&hours=%",
        "?date[]=2026-01-01&date[]=x",
        "?date=2026-01-01&date=2027-01-01",
        "?%=%",
        "?a=%ZZ",
        "?session_id=%00",
      ),
    },
  );
}
