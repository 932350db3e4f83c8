import { sql } from "drizzle-orm";
import {
  type AnySQLiteColumn,
  blob,
  check,
  index,
  integer,
  primaryKey,
  sqliteTable,
  text,
  uniqueIndex,
} from "drizzle-orm/sqlite-core";
// The vocabulary (statuses, types) is the domain's: the schema builds columns and CHECK
// constraints from it, and the browser reads it without loading drizzle or the tables.
import { BOOKING_CLAIMS } from "#app/domain/booking-claim";
import { BOOKING_STATUSES } from "#app/domain/booking-status";
import { COUPON_TYPES } from "#app/domain/coupon-type";
import { CUSTOMER_TYPES } from "#app/domain/customer-type";
import { OUTBOX_STATUSES } from "#app/domain/outbox";
import { SERIES_REPEATS } from "#app/domain/series-repeat";
import { SUPPORT_STATUSES } from "#app/domain/support-status";
import { WAITLIST_STATUSES } from "#app/domain/waitlist-status";

/**
 * Conventions: instants are UTC epoch milliseconds (`*_at`); the studio-local text fields of
 * docs/product.md "Data" (recording_date, recording_time) sit beside them. Money is whole US
 * dollars except FIXED_AMOUNT coupon values, which are cents (docs/product.md "Validation").
 */
const now = sql`(unixepoch('subsec') * 1000)`;
const createdAt = () => integer("created_at").notNull().default(now);
const flag = (name: string) => integer(name, { mode: "boolean" }).notNull().default(false);

const inList = (column: string, values: readonly string[]) =>
  sql.raw(`${column} IN (${values.map((v) => `'${v}'`).join(", ")})`);

export const users = sqliteTable(
  "users",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    username: text("username").notNull(),
    passwordHash: text("password_hash").notNull(),
    isAdmin: flag("is_admin"),
    isMember: flag("is_member"),
    firstName: text("first_name").notNull(),
    lastName: text("last_name").notNull(),
    businessName: text("business_name"),
    phoneNumber: text("phone_number").notNull(),
    email: text("email").notNull(),
    isStakeholder: flag("is_stakeholder"),
    /**
     * Two-factor sign-in (docs/product.md "Accounts and sign-ins"): the TOTP secret (base32, sealed
     * under DATA_ENCRYPTION_KEY: app/secrets.server.ts), set while setting up and kept while on; on
     * from `totpEnabledAt`; `totpLastStep` is the time step of the last code accepted, so a code is
     * used once.
     */
    totpSecret: text("totp_secret"),
    totpEnabledAt: integer("totp_enabled_at"),
    totpLastStep: integer("totp_last_step"),
    /**
     * Wrong two-factor codes in a row since the last right one (docs/product.md
     * "Accounts and sign-ins"): from TWO_FACTOR_FREEZE_AFTER on, the app's codes are refused and
     * only a recovery code signs in.
     */
    twoFactorFailures: integer("two_factor_failures").notNull().default(0),
    createdAt: createdAt(),
  },
  (t) => [
    // "Alex" and "alex" are the same account: uniqueness ignores case.
    uniqueIndex("users_username_unique").on(sql`lower(${t.username})`),
    check("users_username_length", sql`length(${t.username}) BETWEEN 3 AND 50`),
  ],
);

/**
 * Server-side sign-ins: the cookie carries only the id, so a sign-in can be revoked. `id` is the
 * SHA-256 of the cookie's value (app/models/sign-in.server.ts), never the value itself.
 */
export const signIns = sqliteTable(
  "sign_ins",
  {
    id: text("id").primaryKey(),
    userId: integer("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    expiresAt: integer("expires_at").notNull(),
    /**
     * The last request seen, written at most about once a minute; staff sign-ins end after
     * STAFF_IDLE_MINUTES without one. Null on rows older than the column: `createdAt` stands in.
     */
    lastSeenAt: integer("last_seen_at"),
    /**
     * The sign-in proved more than a password: a two-factor or recovery code, or a passkey.
     * Staff need it when REQUIRE_STAFF_2FA is on.
     */
    secondFactor: flag("second_factor"),
    createdAt: createdAt(),
  },
  (t) => [index("sign_ins_user_id").on(t.userId), index("sign_ins_expires_at").on(t.expiresAt)],
);

/**
 * Two-factor recovery codes: ten per account, shown once. Only a SHA-256 of each is stored
 * (decision 0079); a used code is deleted.
 */
export const recoveryCodes = sqliteTable(
  "recovery_codes",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    userId: integer("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    codeHash: text("code_hash").notNull(),
    createdAt: createdAt(),
  },
  (t) => [uniqueIndex("recovery_codes_user_hash").on(t.userId, t.codeHash)],
);

export const coupons = sqliteTable(
  "coupons",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    code: text("code").notNull(),
    description: text("description").notNull().default(""),
    type: text("type", { enum: COUPON_TYPES }).notNull(),
    /** PERCENTAGE: whole percent 1-100. FIXED_AMOUNT: cents. */
    value: integer("value").notNull(),
    maxUses: integer("max_uses").notNull().default(0),
    currentUses: integer("current_uses").notNull().default(0),
    /** Studio-local yyyy-MM-dd; the coupon is valid through the end of that day. */
    expiryDate: text("expiry_date").notNull().default("2099-12-31"),
    isActive: integer("is_active", { mode: "boolean" }).notNull().default(true),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex("coupons_code_unique").on(sql`lower(${t.code})`),
    check("coupons_type", inList("type", COUPON_TYPES)),
    check("coupons_value_positive", sql`${t.value} > 0`),
    check("coupons_percentage_max", sql`${t.type} <> 'PERCENTAGE' OR ${t.value} <= 100`),
    check("coupons_max_uses", sql`${t.maxUses} >= 0`),
    // The last line of defence against over-redemption under concurrency.
    check(
      "coupons_uses_within_limit",
      sql`${t.currentUses} >= 0 AND (${t.maxUses} = 0 OR ${t.currentUses} <= ${t.maxUses})`,
    ),
  ],
);

export const services = sqliteTable(
  "services",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    name: text("name").notNull(),
    description: text("description").notNull(),
    price: integer("price").notNull(),
    duration: integer("duration"),
    isActive: integer("is_active", { mode: "boolean" }).notNull().default(true),
    createdAt: createdAt(),
  },
  (t) => [
    check("services_price", sql`${t.price} >= 0`),
    check("services_duration", sql`${t.duration} IS NULL OR ${t.duration} > 0`),
  ],
);

export const bookings = sqliteTable(
  "bookings",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    userId: integer("user_id")
      .notNull()
      .references(() => users.id),
    firstName: text("first_name").notNull(),
    lastName: text("last_name").notNull(),
    businessName: text("business_name"),
    phoneNumber: text("phone_number").notNull(),
    email: text("email").notNull(),
    stakeholder: text("stakeholder").notNull(),
    /** Studio-local wall time, as the customer chose it. */
    recordingDate: text("recording_date").notNull(),
    recordingTime: text("recording_time").notNull(),
    guestCount: text("guest_count").notNull(),
    hoursNeeded: text("hours_needed").notNull(),
    /** The same slot as UTC instants: conflicts, sorting and the 48-hour rule use these. */
    startsAt: integer("starts_at").notNull(),
    endsAt: integer("ends_at").notNull(),
    hourlyRate: integer("hourly_rate").notNull(),
    totalCost: integer("total_cost").notNull(),
    originalCost: integer("original_cost").notNull(),
    couponId: integer("coupon_id").references(() => coupons.id),
    couponCode: text("coupon_code"),
    discountAmount: integer("discount_amount").notNull().default(0),
    status: text("status", { enum: BOOKING_STATUSES }).notNull().default("PENDING_PAYMENT"),
    /** While PENDING_PAYMENT the slot is held until this instant, then released. */
    holdExpiresAt: integer("hold_expires_at"),
    cancellationReason: text("cancellation_reason"),
    cancelledAt: integer("cancelled_at"),
    isRetainer: flag("is_retainer"),
    retainerStartDate: text("retainer_start_date"),
    retainerEndDate: text("retainer_end_date"),
    retainerHoursUsed: integer("retainer_hours_used").notNull().default(0),
    retainerTotalHours: integer("retainer_total_hours").notNull().default(8),
    /** A later booking that draws hours from a customer's retainer points at it. */
    retainerBookingId: integer("retainer_booking_id").references(
      (): AnySQLiteColumn => bookings.id,
    ),
    retainerHoursDrawn: integer("retainer_hours_drawn").notNull().default(0),
    /**
     * While this session is claimed for its order's hosted checkout (CHECKOUT_OPEN), the plan's
     * expiry: the claim belongs to that plan and no other. The checkout itself is the order's.
     */
    checkoutExpiresAt: integer("checkout_expires_at"),
    /** When the 24-hours-before reminder was queued; cleared when the session moves. */
    reminderSentAt: integer("reminder_sent_at"),
    /**
     * A workflow calling the payment provider about this booking holds it (domain/booking-claim):
     * which action, since when (also the claim's token) and for whom. Null when nobody does.
     */
    claim: text("claim", { enum: BOOKING_CLAIMS }),
    claimedAt: integer("claimed_at"),
    claimedBy: integer("claimed_by").references(() => users.id),
    /**
     * The order this session was bought in (docs/product.md "Orders"): a single booking is an
     * order of one, a weekly series an order of its sessions. Set on every row the app writes.
     */
    orderId: integer("order_id").references((): AnySQLiteColumn => orders.id),
    createdAt: createdAt(),
  },
  (t) => [
    index("bookings_starts_at").on(t.startsAt),
    index("bookings_order").on(t.orderId),
    index("bookings_user_starts_at").on(t.userId, t.startsAt),
    index("bookings_status_starts_at").on(t.status, t.startsAt),
    // The sweeper's look for claims past their lease: only claimed rows are in it.
    index("bookings_claimed_at").on(t.claimedAt).where(sql`${t.claim} IS NOT NULL`),
    check("bookings_status", inList("status", BOOKING_STATUSES)),
    check("bookings_slot", sql`${t.endsAt} > ${t.startsAt}`),
    check("bookings_costs", sql`${t.totalCost} >= 0 AND ${t.originalCost} >= 0`),
    check("bookings_discount", sql`${t.discountAmount} >= 0`),
    check("bookings_hourly_rate", sql`${t.hourlyRate} >= 0`),
    check(
      "bookings_retainer_hours",
      sql`${t.retainerHoursUsed} >= 0 AND ${t.retainerHoursDrawn} >= 0`,
    ),
  ],
);

/**
 * How many bookings are in each status, kept by triggers (see the migration that creates them)
 * in the same transaction as every insert, status change and delete of a booking, from any
 * process: the admin dashboard reads seven rows instead of counting every booking ever made.
 */
export const bookingStatusCounts = sqliteTable(
  "booking_status_counts",
  {
    status: text("status", { enum: BOOKING_STATUSES }).primaryKey(),
    total: integer("total").notNull().default(0),
  },
  () => [check("booking_status_counts_status", inList("status", BOOKING_STATUSES))],
);

/**
 * One row, bumped by triggers (see the migration that creates them) in the same transaction as
 * every write to a table a visitor's page reads, from any process: a stored visitor's page
 * stands while it is unchanged (decision 0095).
 */
export const dataVersion = sqliteTable(
  "data_version",
  {
    id: integer("id").primaryKey(),
    version: integer("version").notNull().default(0),
  },
  () => [check("data_version_one_row", sql`id = 1`)],
);

export const bookingServices = sqliteTable(
  "booking_services",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    bookingId: integer("booking_id")
      .notNull()
      .references(() => bookings.id, { onDelete: "cascade" }),
    serviceId: integer("service_id")
      .notNull()
      .references(() => services.id),
    quantity: integer("quantity").notNull().default(1),
    priceAtBooking: integer("price_at_booking").notNull(),
  },
  (t) => [
    uniqueIndex("booking_services_unique").on(t.bookingId, t.serviceId),
    index("booking_services_service").on(t.serviceId),
    check("booking_services_quantity", sql`${t.quantity} > 0`),
    check("booking_services_price", sql`${t.priceAtBooking} >= 0`),
  ],
);

/** Payments and refunds: a refund is a row with a negative amount (sales are net of refunds). */
export const payments = sqliteTable(
  "payments",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    bookingId: integer("booking_id")
      .notNull()
      .references(() => bookings.id),
    userId: integer("user_id")
      .notNull()
      .references(() => users.id),
    amount: integer("amount").notNull(),
    paymentMethod: text("payment_method").notNull(),
    paymentDate: integer("payment_date").notNull().default(now),
    transactionId: text("transaction_id"),
    /** JSON: brand and last 4 digits only, never a full card number or CVV. */
    paymentDetails: text("payment_details", { mode: "json" }).$type<Record<string, unknown>>(),
    /**
     * Stakeholder, member or non-member when the money moved, set by a trigger at insert
     * (migration 0005): a refund takes its booking's charge's type. A snapshot, like
     * `priceAtBooking`, so toggling a membership later does not rewrite past sales reports.
     */
    customerType: text("customer_type", { enum: CUSTOMER_TYPES }),
  },
  (t) => [
    index("payments_booking").on(t.bookingId),
    index("payments_date").on(t.paymentDate),
    uniqueIndex("payments_transaction_unique").on(t.transactionId),
    check("payments_amount", sql`${t.amount} <> 0`),
  ],
);

/**
 * Sales totals per time block, kept by triggers on payments (migration 0005) in the same
 * transaction as every insert, update and delete, from any process. Blocks are aligned UTC
 * spans of 1, 16, 256, 4,096 and 65,536 hours (levels 0-4): a studio midnight is always a whole
 * UTC hour, so any period of whole hours is a handful of blocks, and the totals of any period
 * (All Time included) read a few dozen rows instead of every payment. Amounts are net (refunds
 * are negative), split by the payment's customer type.
 */
export const salesRollup = sqliteTable(
  "sales_rollup",
  {
    level: integer("level").notNull(),
    /** UTC epoch milliseconds, a multiple of the level's block length. */
    bucketStart: integer("bucket_start").notNull(),
    stakeholder: integer("stakeholder").notNull().default(0),
    member: integer("member").notNull().default(0),
    nonMember: integer("non_member").notNull().default(0),
    payments: integer("payments").notNull().default(0),
  },
  (t) => [primaryKey({ columns: [t.level, t.bucketStart] })],
);

/** Provider events already applied, written in the same transaction as their effect. */
export const processedPaymentEvents = sqliteTable("processed_payment_events", {
  id: text("id").primaryKey(),
  provider: text("provider").notNull(),
  type: text("type").notNull(),
  bookingId: integer("booking_id").references(() => bookings.id),
  processedAt: integer("processed_at").notNull().default(now),
});

/** Every status change: who, when, from, to, why. */
export const bookingHistory = sqliteTable(
  "booking_history",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    bookingId: integer("booking_id")
      .notNull()
      .references(() => bookings.id, { onDelete: "cascade" }),
    actorUserId: integer("actor_user_id").references(() => users.id),
    fromStatus: text("from_status", { enum: BOOKING_STATUSES }),
    toStatus: text("to_status", { enum: BOOKING_STATUSES }).notNull(),
    note: text("note"),
    createdAt: createdAt(),
  },
  (t) => [
    index("booking_history_booking").on(t.bookingId, t.createdAt),
    check("booking_history_to_status", inList("to_status", BOOKING_STATUSES)),
  ],
);

export const technicalAssistanceRequests = sqliteTable(
  "technical_assistance_requests",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    userId: integer("user_id")
      .notNull()
      .references(() => users.id),
    bookingId: integer("booking_id").references(() => bookings.id),
    name: text("name").notNull(),
    email: text("email").notNull(),
    phoneNumber: text("phone_number"),
    issueType: text("issue_type").notNull(),
    description: text("description").notNull(),
    preferredContactMethod: text("preferred_contact_method").notNull(),
    status: text("status", { enum: SUPPORT_STATUSES }).notNull().default("PENDING"),
    createdAt: createdAt(),
    resolvedAt: integer("resolved_at"),
    resolution: text("resolution"),
  },
  (t) => [
    index("tar_user").on(t.userId, t.createdAt),
    index("tar_status").on(t.status, t.createdAt),
    check("tar_status", inList("status", SUPPORT_STATUSES)),
  ],
);

/** Blocked ranges (maintenance, holidays) conflict with bookings like a booking does. */
export const blockedTimes = sqliteTable(
  "blocked_times",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    startsAt: integer("starts_at").notNull(),
    endsAt: integer("ends_at").notNull(),
    reason: text("reason").notNull(),
    createdBy: integer("created_by").references(() => users.id),
    createdAt: createdAt(),
  },
  (t) => [
    index("blocked_times_starts_at").on(t.startsAt),
    check("blocked_times_range", sql`${t.endsAt} > ${t.startsAt}`),
  ],
);

/** E-mails are written here in the same transaction as their cause, then delivered. */
export const emailOutbox = sqliteTable(
  "email_outbox",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    kind: text("kind").notNull(),
    toAddress: text("to_address").notNull(),
    subject: text("subject").notNull(),
    html: text("html").notNull(),
    text: text("text").notNull(),
    attachments: text("attachments", { mode: "json" }).$type<
      { filename: string; contentType: string; content: string }[]
    >(),
    bookingId: integer("booking_id").references(() => bookings.id),
    status: text("status", { enum: OUTBOX_STATUSES }).notNull().default("PENDING"),
    attempts: integer("attempts").notNull().default(0),
    nextAttemptAt: integer("next_attempt_at").notNull().default(now),
    lastError: text("last_error"),
    createdAt: createdAt(),
    sentAt: integer("sent_at"),
  },
  (t) => [
    index("email_outbox_due").on(t.status, t.nextAttemptAt),
    check("email_outbox_status", inList("status", OUTBOX_STATUSES)),
  ],
);

/**
 * Files staff hand to a customer after their session (docs/product.md "Session files"). The
 * bytes live in storage (a directory on the volume, or S3) under `storageKey`; a row exists only
 * for a whole, finished upload. Delivery starts the retention clock: `expiresAt` is set when
 * staff mark the files delivered, and the sweeper deletes the file then. `deletedAt` hides a
 * file at once (staff delete, expiry) while its bytes are removed from storage.
 */
export const bookingFiles = sqliteTable(
  "booking_files",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    bookingId: integer("booking_id")
      .notNull()
      .references(() => bookings.id),
    /** The name shown and offered on download: no path separators, no control characters. */
    name: text("name").notNull(),
    contentType: text("content_type").notNull(),
    size: integer("size").notNull(),
    storageKey: text("storage_key").notNull(),
    /** sha256 of the stored bytes, hex, when storage computed it. */
    sha256: text("sha256"),
    uploadedBy: integer("uploaded_by").references(() => users.id),
    createdAt: createdAt(),
    deliveredAt: integer("delivered_at"),
    expiresAt: integer("expires_at"),
    expiryReminderSentAt: integer("expiry_reminder_sent_at"),
    deletedAt: integer("deleted_at"),
  },
  (t) => [
    index("booking_files_booking").on(t.bookingId),
    index("booking_files_expires").on(t.expiresAt),
    uniqueIndex("booking_files_storage_key").on(t.storageKey),
    check("booking_files_size", sql`${t.size} >= 0`),
  ],
);

/**
 * A receipt for every payment and a credit note for every refund (docs/product.md
 * "Receipts"), numbered per kind and per studio-time year without gaps: the number is taken in
 * the transaction that records the payment, so a payment and its number land together or not at
 * all. `details` is the receipt as issued (customer, booking lines, amount, method), so the PDF
 * stays the same when the profile or the booking changes later.
 */
export const receipts = sqliteTable(
  "receipts",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    paymentId: integer("payment_id")
      .notNull()
      .references(() => payments.id),
    kind: text("kind", { enum: ["RECEIPT", "CREDIT_NOTE"] }).notNull(),
    year: integer("year").notNull(),
    number: integer("number").notNull(),
    issuedAt: integer("issued_at").notNull().default(now),
    details: text("details", { mode: "json" }).$type<Record<string, unknown>>().notNull(),
  },
  (t) => [
    uniqueIndex("receipts_payment").on(t.paymentId),
    uniqueIndex("receipts_number").on(t.kind, t.year, t.number),
    check("receipts_kind", sql`${t.kind} IN ('RECEIPT', 'CREDIT_NOTE')`),
    check("receipts_number_positive", sql`${t.number} >= 1`),
  ],
);

/**
 * Calendar feeds (docs/product.md "Calendar feeds"): one private subscription token per
 * account and kind (CUSTOMER: the account's own sessions; STUDIO: staff's feed of every live
 * session). The token is kept as its SHA-256 (`tokenHash`, what a request is looked up by) and
 * sealed under DATA_ENCRYPTION_KEY (`tokenSealed`), so the dashboard can show it again (decision
 * 0102) while the database alone gives no working link; a new one replaces it, so the old URL
 * stops working at once. `etag` and `modifiedAt`
 * are the feed's content version and when the server first served it, for cheap polling.
 */
export const calendarFeeds = sqliteTable(
  "calendar_feeds",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    userId: integer("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    kind: text("kind", { enum: ["CUSTOMER", "STUDIO"] }).notNull(),
    tokenHash: text("token_hash").notNull(),
    tokenSealed: text("token_sealed").notNull(),
    etag: text("etag"),
    modifiedAt: integer("modified_at"),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex("calendar_feeds_token_hash").on(t.tokenHash),
    uniqueIndex("calendar_feeds_user_kind").on(t.userId, t.kind),
    check("calendar_feeds_kind", sql`${t.kind} IN ('CUSTOMER', 'STUDIO')`),
  ],
);

/**
 * An order (docs/product.md "Orders"): everything a customer booked in one go, one session or a
 * weekly series of them. Its sessions are booking rows pointing here. The order holds what is
 * one per purchase: the coupon use it took (`couponId`, cleared when given back), and the hosted
 * checkout that pays its unpaid sessions together (`checkoutSessionId`, and its plan's expiry,
 * also part of the idempotency key). A series' `repeatEvery` and `occurrences` (how many the
 * customer asked for; dates they dropped are not booked); null and 1 for a single booking.
 * A series' public id (`/checkout/series/{id}`, the API's `seriesId`) is its order's id.
 */
export const orders = sqliteTable(
  "orders",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    userId: integer("user_id")
      .notNull()
      .references(() => users.id),
    repeatEvery: text("repeat_every", { enum: SERIES_REPEATS }),
    occurrences: integer("occurrences").notNull().default(1),
    couponId: integer("coupon_id").references(() => coupons.id),
    checkoutSessionId: text("checkout_session_id"),
    checkoutExpiresAt: integer("checkout_expires_at"),
    createdAt: createdAt(),
  },
  (t) => [
    index("orders_user").on(t.userId),
    uniqueIndex("orders_checkout_session").on(t.checkoutSessionId),
    check(
      "orders_repeat_every",
      sql`${t.repeatEvery} IS NULL OR ${inList("repeat_every", SERIES_REPEATS)}`,
    ),
    check(
      "orders_occurrences",
      sql`(${t.repeatEvery} IS NULL AND ${t.occurrences} = 1) OR (${t.repeatEvery} IS NOT NULL AND ${t.occurrences} BETWEEN 2 AND 12)`,
    ),
  ],
);

/**
 * The waitlist (docs/product.md "Waitlist"): a customer asks to be told when a taken range
 * (studio date, start, hours) frees up. When it does, the earliest waiting entry is OFFERED:
 * the range is held for that customer until `offerExpiresAt` (it counts as busy for everyone
 * else), and a claim books it through every booking rule. `startsAt`/`endsAt` are the range
 * as UTC instants, as on bookings.
 */
export const waitlistEntries = sqliteTable(
  "waitlist_entries",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    userId: integer("user_id")
      .notNull()
      .references(() => users.id),
    recordingDate: text("recording_date").notNull(),
    recordingTime: text("recording_time").notNull(),
    hoursNeeded: integer("hours_needed").notNull(),
    startsAt: integer("starts_at").notNull(),
    endsAt: integer("ends_at").notNull(),
    status: text("status", { enum: WAITLIST_STATUSES }).notNull().default("WAITING"),
    offeredAt: integer("offered_at"),
    offerExpiresAt: integer("offer_expires_at"),
    /** The booking made from the offer, once CLAIMED. */
    bookingId: integer("booking_id").references(() => bookings.id),
    endedAt: integer("ended_at"),
    createdAt: createdAt(),
  },
  (t) => [
    index("waitlist_entries_status_starts_at").on(t.status, t.startsAt),
    index("waitlist_entries_user_status").on(t.userId, t.status),
    index("waitlist_entries_offer_expires_at")
      .on(t.offerExpiresAt)
      .where(sql`${t.status} = 'OFFERED'`),
    check("waitlist_entries_status", inList("status", WAITLIST_STATUSES)),
    check("waitlist_entries_slot", sql`${t.endsAt} > ${t.startsAt}`),
    check("waitlist_entries_hours", sql`${t.hoursNeeded} BETWEEN 2 AND 8`),
  ],
);

export type User = typeof users.$inferSelect;
export type Booking = typeof bookings.$inferSelect;
export type Order = typeof orders.$inferSelect;
export type WaitlistEntry = typeof waitlistEntries.$inferSelect;

/**
 * Passkeys (WebAuthn credentials) an account signs in with (docs/product.md
 * "Accounts and sign-ins"): the credential's id and public key as the authenticator registered
 * them, its signature counter, and the name the owner gave it.
 */
export const passkeys = sqliteTable(
  "passkeys",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    userId: integer("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    /** The credential id, base64url, as the browser reports it. */
    credentialId: text("credential_id").notNull(),
    publicKey: blob("public_key", { mode: "buffer" }).notNull(),
    counter: integer("counter").notNull().default(0),
    /** The authenticator's transports, comma-separated ("internal,hybrid"). */
    transports: text("transports").notNull().default(""),
    name: text("name").notNull(),
    createdAt: createdAt(),
    lastUsedAt: integer("last_used_at"),
  },
  (t) => [
    uniqueIndex("passkeys_credential_id").on(t.credentialId),
    index("passkeys_user").on(t.userId),
  ],
);

/**
 * WebAuthn challenges handed out and not yet answered: each is used once (deleted when
 * answered) and dies at `expiresAt`. `userId` is set when adding a passkey, null for a
 * passkey sign-in (the account is not known until the answer names its credential).
 */
export const webauthnChallenges = sqliteTable(
  "webauthn_challenges",
  {
    id: text("id").primaryKey(),
    challenge: text("challenge").notNull(),
    userId: integer("user_id").references(() => users.id, { onDelete: "cascade" }),
    purpose: text("purpose", { enum: ["REGISTER", "SIGN_IN"] }).notNull(),
    expiresAt: integer("expires_at").notNull(),
    createdAt: createdAt(),
  },
  (t) => [
    index("webauthn_challenges_expires").on(t.expiresAt),
    check("webauthn_challenges_purpose", sql`${t.purpose} IN ('REGISTER', 'SIGN_IN')`),
  ],
);

/**
 * Free space promised to uploads under way (docs/product.md "Session files"): an upload
 * counts every other live reservation before it may start, so two cannot both pass the
 * free-space check and fill the volume. Removed when the upload ends; `expiresAt` frees the
 * space of an upload abandoned or cut off by a crash.
 */
export const uploadReservations = sqliteTable(
  "upload_reservations",
  {
    id: text("id").primaryKey(),
    bytes: integer("bytes").notNull(),
    expiresAt: integer("expires_at").notNull(),
    createdAt: createdAt(),
  },
  (t) => [
    index("upload_reservations_expires").on(t.expiresAt),
    check("upload_reservations_bytes", sql`${t.bytes} >= 0`),
  ],
);
