import { and, desc, eq, lt, lte, or, type SQL, sql } from "drizzle-orm";
import { bookings, technicalAssistanceRequests, users } from "#db/schema";
import { db, type Tx } from "#app/db.server";
import type { SupportRequestInput, SupportUpdate } from "#app/domain/support";
import type { SupportStatus } from "#app/domain/support-status";
import { type Page, pageWindow, toPage } from "#app/models/pagination.server";

/**
 * Technical-support requests of customers (docs/product.md "Data", "Support and chat"). A customer
 * only ever reads and references their own rows: every customer query here is scoped by the
 * caller's user id. Filing and working a request (with its e-mail) is the support workflow's
 * (workflows/support.server.ts).
 */

/** A customer's list; more than this is old history, not something to scroll through. */
export const OWN_REQUESTS_LIMIT = 50;
/** Bookings offered in the form's "about a booking" select, newest sessions first. */
export const BOOKING_CHOICES_LIMIT = 50;

export type SupportRequest = typeof technicalAssistanceRequests.$inferSelect;
type Reader = Pick<typeof db, "select">;

const ownRequests = db
  .select({
    id: technicalAssistanceRequests.id,
    userId: technicalAssistanceRequests.userId,
    bookingId: technicalAssistanceRequests.bookingId,
    name: technicalAssistanceRequests.name,
    email: technicalAssistanceRequests.email,
    phoneNumber: technicalAssistanceRequests.phoneNumber,
    issueType: technicalAssistanceRequests.issueType,
    description: technicalAssistanceRequests.description,
    preferredContactMethod: technicalAssistanceRequests.preferredContactMethod,
    status: technicalAssistanceRequests.status,
    createdAt: technicalAssistanceRequests.createdAt,
    resolvedAt: technicalAssistanceRequests.resolvedAt,
    resolution: technicalAssistanceRequests.resolution,
    // The booking's own owner is checked in the join too: a row can only point at the
    // requester's booking, but the list never shows another customer's session either way.
    bookingStartsAt: bookings.startsAt,
  })
  .from(technicalAssistanceRequests)
  .leftJoin(
    bookings,
    and(
      eq(bookings.id, technicalAssistanceRequests.bookingId),
      eq(bookings.userId, technicalAssistanceRequests.userId),
    ),
  )
  .where(eq(technicalAssistanceRequests.userId, sql.placeholder("userId")))
  .orderBy(desc(technicalAssistanceRequests.createdAt), desc(technicalAssistanceRequests.id))
  .limit(sql.placeholder("limit"))
  .prepare();

export type OwnSupportRequest = ReturnType<typeof ownRequests.all>[number];

/** The customer's requests, newest first; `more` says older ones were left out. */
export function listOwnSupportRequests(userId: number, limit = OWN_REQUESTS_LIMIT) {
  const rows = ownRequests.all({ userId, limit: limit + 1 });
  return { requests: rows.slice(0, limit), more: rows.length > limit };
}

/** The customer's bookings a request may be about (any status: a refund is asked after a cancel). */
export function listBookingChoices(userId: number) {
  return db
    .select({ id: bookings.id, startsAt: bookings.startsAt, status: bookings.status })
    .from(bookings)
    .where(eq(bookings.userId, userId))
    .orderBy(desc(bookings.startsAt), desc(bookings.id))
    .limit(BOOKING_CHOICES_LIMIT)
    .all();
}

/** Whether `bookingId` is one of `userId`'s bookings. */
export function isOwnBooking(reader: Reader, bookingId: number, userId: number): boolean {
  const own = reader
    .select({ id: bookings.id })
    .from(bookings)
    .where(and(eq(bookings.id, bookingId), eq(bookings.userId, userId)))
    .get();
  return own !== undefined;
}

/** Writes a customer's new request (status PENDING). */
export function insertSupportRequest(
  tx: Tx,
  userId: number,
  input: SupportRequestInput,
  now: number,
): SupportRequest {
  return tx
    .insert(technicalAssistanceRequests)
    .values({
      userId,
      bookingId: input.bookingId ?? null,
      name: input.name,
      email: input.email,
      phoneNumber: input.phoneNumber ?? null,
      issueType: input.issueType,
      description: input.description,
      preferredContactMethod: input.preferredContactMethod,
      createdAt: now,
    })
    .returning()
    .get();
}

// --- staff: the Support tab and /api/admin/tech-assistance ----------------------------------

const adminColumns = {
  id: technicalAssistanceRequests.id,
  userId: technicalAssistanceRequests.userId,
  bookingId: technicalAssistanceRequests.bookingId,
  name: technicalAssistanceRequests.name,
  email: technicalAssistanceRequests.email,
  phoneNumber: technicalAssistanceRequests.phoneNumber,
  issueType: technicalAssistanceRequests.issueType,
  description: technicalAssistanceRequests.description,
  preferredContactMethod: technicalAssistanceRequests.preferredContactMethod,
  status: technicalAssistanceRequests.status,
  createdAt: technicalAssistanceRequests.createdAt,
  resolvedAt: technicalAssistanceRequests.resolvedAt,
  resolution: technicalAssistanceRequests.resolution,
  username: users.username,
  bookingStartsAt: bookings.startsAt,
  bookingEndsAt: bookings.endsAt,
  bookingStatus: bookings.status,
};

/** Requests with their requester's account and the booking they are about, if any. */
const adminRequests = () =>
  db
    .select(adminColumns)
    .from(technicalAssistanceRequests)
    .innerJoin(users, eq(users.id, technicalAssistanceRequests.userId))
    .leftJoin(bookings, eq(bookings.id, technicalAssistanceRequests.bookingId));

export type AdminSupportRequest = ReturnType<ReturnType<typeof adminRequests>["all"]>[number];

/**
 * One page of every customer's requests, newest first, optionally of one status, with the
 * requester's account and the booking the request is about. Filtered by the `tar_status`
 * index (status, created_at); all statuses walk the primary key backwards (ids grow with
 * creation time), so neither sorts the table.
 */
export function listSupportRequestsPage(
  filter: { status: SupportStatus | null },
  page: number,
  size?: number,
): Page<AdminSupportRequest> {
  const { limit, offset } = pageWindow(page, size);
  const rows = filter.status
    ? adminRequests()
        .where(eq(technicalAssistanceRequests.status, filter.status))
        .orderBy(desc(technicalAssistanceRequests.createdAt), desc(technicalAssistanceRequests.id))
        .limit(limit)
        .offset(offset)
        .all()
    : adminRequests()
        .orderBy(desc(technicalAssistanceRequests.id))
        .limit(limit)
        .offset(offset)
        .all();
  return toPage(rows, page, size);
}

/** Where a walk through the requests stopped: the last row it gave. */
export type SupportCursor = { createdAt: number; id: number };

/**
 * The next `limit` requests after `cursor`, in the Support tab's order (newest first): the whole
 * list of GET /api/admin/tech-assistance is walked this way, by key.
 */
export function supportRequestsAfter(
  filter: { status: SupportStatus | null },
  cursor: SupportCursor | null,
  limit: number,
): AdminSupportRequest[] {
  const t = technicalAssistanceRequests;
  if (filter.status) {
    const conditions: (SQL | undefined)[] = [eq(t.status, filter.status)];
    if (cursor) {
      conditions.push(
        lte(t.createdAt, cursor.createdAt),
        or(lt(t.createdAt, cursor.createdAt), lt(t.id, cursor.id)),
      );
    }
    return adminRequests()
      .where(and(...conditions))
      .orderBy(desc(t.createdAt), desc(t.id))
      .limit(limit)
      .all();
  }
  return adminRequests()
    .where(cursor ? lt(t.id, cursor.id) : undefined)
    .orderBy(desc(t.id))
    .limit(limit)
    .all();
}

export function getSupportRequest(reader: Reader, id: number): SupportRequest | undefined {
  return reader
    .select()
    .from(technicalAssistanceRequests)
    .where(eq(technicalAssistanceRequests.id, id))
    .get();
}

/**
 * Moves a request to `update.status`, provided it is still in the status it was read with
 * (part of the condition: belt and braces under the caller's lock). Resolving stores the
 * resolution and resolvedAt. Undefined when the request changed meanwhile.
 */
export function setSupportRequestStatus(
  tx: Tx,
  current: Pick<SupportRequest, "id" | "status">,
  update: SupportUpdate,
  now: number,
): SupportRequest | undefined {
  const resolving = update.status === "RESOLVED";
  return tx
    .update(technicalAssistanceRequests)
    .set({
      status: update.status,
      ...(resolving ? { resolution: update.resolution, resolvedAt: now } : {}),
    })
    .where(
      and(
        eq(technicalAssistanceRequests.id, current.id),
        eq(technicalAssistanceRequests.status, current.status),
      ),
    )
    .returning()
    .get();
}
