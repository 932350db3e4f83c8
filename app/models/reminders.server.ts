import { and, eq, gt, isNull, lte, sql } from "drizzle-orm";
import { bookings } from "#db/schema";
import { db, writeTransaction } from "#app/db.server";
import { sessionCalendarAttachment } from "#app/emails/calendar.server";
import { enqueueEmail } from "#app/models/outbox.server";
import { sessionReminderEmail } from "#app/emails/templates.server";

/** Reminders go out this long before a confirmed session starts. */
export const REMINDER_LEAD_MS = 24 * 60 * 60_000;

// Runs every minute: prepared once. The (status, starts_at) index bounds it to the next day.
const dueReminders = db
  .select()
  .from(bookings)
  .where(
    and(
      eq(bookings.status, "CONFIRMED"),
      gt(bookings.startsAt, sql.placeholder("now")),
      lte(bookings.startsAt, sql.placeholder("until")),
      isNull(bookings.reminderSentAt),
    ),
  )
  .prepare();

/**
 * Queues the reminder of every confirmed session starting within the next 24 hours that has
 * not had one. Marking and queueing share a transaction and the mark is guarded, so a
 * reminder is sent once even with two processes sweeping at the same moment. A session
 * confirmed or moved less than 24 hours ahead gets its reminder at once.
 */
export function queueSessionReminders(now: number, appUrl: string): number {
  const due = dueReminders.all({ now, until: now + REMINDER_LEAD_MS });
  if (due.length === 0) return 0;
  return writeTransaction((tx) => {
    let queued = 0;
    for (const booking of due) {
      const marked = tx
        .update(bookings)
        .set({ reminderSentAt: now })
        .where(
          and(
            eq(bookings.id, booking.id),
            eq(bookings.status, "CONFIRMED"),
            eq(bookings.startsAt, booking.startsAt),
            isNull(bookings.reminderSentAt),
          ),
        )
        .run();
      if (marked.changes !== 1) continue;
      enqueueEmail(tx, {
        kind: "session-reminder",
        to: booking.email,
        bookingId: booking.id,
        ...sessionReminderEmail({
          booking,
          detailsUrl: `${appUrl}/dashboard/sessions/${booking.id}`,
        }),
        attachments: [sessionCalendarAttachment(booking, appUrl, now)],
      });
      queued++;
    }
    return queued;
  });
}
