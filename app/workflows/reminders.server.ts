import { writeTransaction } from "#app/db.server";
import { sessionCalendarAttachment } from "#app/emails/calendar.server";
import { sessionReminderEmail } from "#app/emails/templates.server";
import { listDueReminders, markReminderSent } from "#app/models/booking.server";
import { enqueueEmail } from "#app/models/outbox.server";
import { accountEmail } from "#app/models/user.server";

/** Reminders go out this long before a confirmed session starts. */
export const REMINDER_LEAD_MS = 24 * 60 * 60_000;

/**
 * Queues the reminder of every confirmed session starting within the next 24 hours that has
 * not had one. Marking and queueing share a transaction and the mark is guarded, so a
 * reminder is sent once even with two processes sweeping at the same moment. A session
 * confirmed or moved less than 24 hours ahead gets its reminder at once.
 */
export function queueSessionReminders(now: number, appUrl: string): number {
  const due = listDueReminders(now, now + REMINDER_LEAD_MS);
  if (due.length === 0) return 0;
  return writeTransaction((tx) => {
    let queued = 0;
    for (const booking of due) {
      if (!markReminderSent(tx, booking, now)) continue;
      enqueueEmail(tx, {
        kind: "session-reminder",
        to: accountEmail(tx, booking.userId),
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
