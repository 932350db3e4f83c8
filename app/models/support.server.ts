import { and, desc, eq, lt, lte, or, type SQL, sql } from "drizzle-orm";
import { bookings, technicalAssistanceRequests, users } from "#db/schema";
import { db, type Tx } from "#app/db.server";
import type { SupportRequestInput, SupportUpdate } from "#app/domain/support";
import type { SupportStatus } from "#app/domain/support-status";
import { type Page, pageWindow, toPage } from "#app/models/pagination.server";

/** docs/product.md "Support and chat": every customer query here is scoped by the caller's user id. */

export const OWN_REQUESTS_LIMIT = 50;
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
    // The owner is checked in the join too: the list never shows another customer's session.
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

export function listOwnSupportRequests(userId: number, limit = OWN_REQUESTS_LIMIT) {
  const rows = ownRequests.all({ userId, limit: limit + 1 });
  return { requests: rows.slice(0, limit), more: rows.length > limit };
}

/** Any status: a refund is asked after a cancel. */
export function listBookingChoices(userId: number) {
  return db
    .select({ id: bookings.id, startsAt: bookings.startsAt, status: bookings.status })
    .from(bookings)
    .where(eq(bookings.userId, userId))
    .orderBy(desc(bookings.startsAt), desc(bookings.id))
    .limit(BOOKING_CHOICES_LIMIT)
    .all();
}

export function isOwnBooking(reader: Reader, bookingId: number, userId: number): boolean {
  const own = reader
    .select({ id: bookings.id })
    .from(bookings)
    .where(and(eq(bookings.id, bookingId), eq(bookings.userId, userId)))
    .get();
  return own !== undefined;
}

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

const adminRequests = () =>
  db
    .select(adminColumns)
    .from(technicalAssistanceRequests)
    .innerJoin(users, eq(users.id, technicalAssistanceRequests.userId))
    .leftJoin(bookings, eq(bookings.id, technicalAssistanceRequests.bookingId));

export type AdminSupportRequest = ReturnType<ReturnType<typeof adminRequests>["all"]>[number];

/** Filtered by the `tar_status` index; all statuses walk the primary key backwards, so neither sorts the table. */
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

export type SupportCursor = { createdAt: number; id: number };

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

/** The old status is part of the condition: belt and braces under the caller's lock. */
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
