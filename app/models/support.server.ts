import { and, desc, eq, sql } from "drizzle-orm";
import { bookings, technicalAssistanceRequests, users } from "#db/schema";
import { db, writeTransaction } from "#app/db.server";
import {
  ISSUE_TYPES,
  type IssueType,
  type SupportRequestInput,
  type SupportUpdate,
  supportTransitionMessage,
  supportTransitionProblem,
  SUPPORT_UPDATE_MESSAGES,
} from "#app/domain/support";
import type { SupportStatus } from "#app/domain/support-status";
import { type Page, pageWindow, toPage } from "#app/models/pagination.server";
import { enqueueEmail } from "#app/models/outbox.server";
import { supportResolvedEmail } from "#app/emails/templates.server";

/**
 * Technical-support requests of customers (spec section 3, product-decisions "Support and
 * chat"). A customer only ever reads and references their own rows: every query here is
 * scoped by the caller's user id.
 */

/** A customer's list; more than this is old history, not something to scroll through. */
export const OWN_REQUESTS_LIMIT = 50;
/** Bookings offered in the form's "about a booking" select, newest sessions first. */
export const BOOKING_CHOICES_LIMIT = 50;

export class SupportBookingError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "SupportBookingError";
  }
}

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

/**
 * Files a request for `userId`. A booking it names must be that customer's own, checked in the
 * same transaction as the insert; another customer's booking is refused exactly like one that
 * does not exist, so ids cannot be probed.
 */
export function createSupportRequest(userId: number, input: SupportRequestInput, now: number) {
  return writeTransaction((tx) => {
    if (input.bookingId !== undefined) {
      const own = tx
        .select({ id: bookings.id })
        .from(bookings)
        .where(and(eq(bookings.id, input.bookingId), eq(bookings.userId, userId)))
        .get();
      if (!own) throw new SupportBookingError("Please choose one of your own bookings");
    }
    const created = tx
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
    return created;
  });
}

type RequestRow = Omit<OwnSupportRequest, "bookingStartsAt">;

/** A request as the JSON API shows it: the spec's fields with ISO instants. */
export function toSupportRequestJson(request: RequestRow) {
  return {
    id: request.id,
    userId: request.userId,
    bookingId: request.bookingId,
    name: request.name,
    email: request.email,
    phoneNumber: request.phoneNumber,
    issueType: request.issueType,
    description: request.description,
    preferredContactMethod: request.preferredContactMethod,
    status: request.status,
    createdAt: new Date(request.createdAt).toISOString(),
    resolvedAt: request.resolvedAt === null ? null : new Date(request.resolvedAt).toISOString(),
    resolution: request.resolution,
  };
}

// --- staff: the Support tab and /api/admin/tech-assistance ----------------------------------

export class SupportUpdateError extends Error {
  constructor(
    readonly kind: "not-found" | "not-allowed" | "resolution-required",
    message: string,
  ) {
    super(message);
    this.name = "SupportUpdateError";
  }
}

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
): Page<AdminSupportRequest> {
  const { limit, offset } = pageWindow(page);
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
  return toPage(rows, page);
}

/**
 * Staff move a request (spec section 4): the check and the write in one IMMEDIATE
 * transaction, so of two admins pressing buttons on the same request at once, the second
 * sees the first's result and is refused with a message naming it. Resolving stores the
 * resolution and resolvedAt and writes the customer's e-mail in the same transaction.
 */
export function updateSupportRequest(
  id: number,
  update: SupportUpdate,
  now: number,
  appUrl: string,
) {
  return writeTransaction((tx) => {
    const current = tx
      .select()
      .from(technicalAssistanceRequests)
      .where(eq(technicalAssistanceRequests.id, id))
      .get();
    if (!current) throw new SupportUpdateError("not-found", `Request #${id} was not found.`);
    const problem = supportTransitionProblem(current.status, update.status, update.resolution);
    if (problem === "not-allowed") {
      throw new SupportUpdateError(
        "not-allowed",
        supportTransitionMessage(id, current.status, update.status),
      );
    }
    if (problem === "resolution-required") {
      throw new SupportUpdateError(
        "resolution-required",
        SUPPORT_UPDATE_MESSAGES.resolutionRequired,
      );
    }
    const resolving = update.status === "RESOLVED";
    const updated = tx
      .update(technicalAssistanceRequests)
      .set({
        status: update.status,
        ...(resolving ? { resolution: update.resolution, resolvedAt: now } : {}),
      })
      // The status read above is part of the condition: belt and braces under the lock.
      .where(
        and(
          eq(technicalAssistanceRequests.id, id),
          eq(technicalAssistanceRequests.status, current.status),
        ),
      )
      .returning()
      .get();
    if (!updated) throw new Error(`Request ${id} changed inside its own transaction`);
    if (resolving && updated.resolution) {
      enqueueEmail(tx, {
        kind: "support-resolved",
        to: updated.email,
        ...supportResolvedEmail({
          request: {
            id: updated.id,
            name: updated.name,
            issueLabel: ISSUE_TYPES[updated.issueType as IssueType] ?? updated.issueType,
            description: updated.description,
            resolution: updated.resolution,
          },
          dashboardUrl: `${appUrl}/dashboard?tab=support`,
        }),
        bookingId: updated.bookingId,
      });
    }
    return updated;
  });
}
