import { TZDate } from "@date-fns/tz";
import { format } from "date-fns";
import { STUDIO_TIME_ZONE } from "#app/domain/studio-time";

/**
 * A session's dates and times read the same on every request (a list shows the same sessions
 * again and again), and formatting one in the studio's zone costs tens of microseconds: the
 * recent answers are kept, up to a bound.
 */
const FORMATTED_LIMIT = 10_000;
const formatted = new Map<string, string>();

/** How sessions read to people: studio wall time, whatever the reader's zone. */
export function formatStudioInstant(epochMs: number, pattern: string): string {
  const key = `${epochMs} ${pattern}`;
  let text = formatted.get(key);
  if (text === undefined) {
    text = format(new TZDate(epochMs, STUDIO_TIME_ZONE), pattern);
    if (formatted.size >= FORMATTED_LIMIT) formatted.clear();
    formatted.set(key, text);
  }
  return text;
}

/** "Tuesday, November 24, 2026" */
export function sessionDate(session: { startsAt: number }): string {
  return formatStudioInstant(session.startsAt, "EEEE, MMMM d, yyyy");
}

/** "10:00 AM – 12:00 PM", the end on the next day marked: "10:00 PM – 2:00 AM (next day)". */
export function sessionTimeRange(session: { startsAt: number; endsAt: number }): string {
  const start = formatStudioInstant(session.startsAt, "h:mm a");
  const end = formatStudioInstant(session.endsAt, "h:mm a");
  const sameDay =
    formatStudioInstant(session.startsAt, "yyyy-MM-dd") ===
    formatStudioInstant(session.endsAt, "yyyy-MM-dd");
  return `${start} – ${end}${sameDay ? "" : " (next day)"}`;
}

/** "3:45 PM on Nov 24 (Atlanta time)": until when an unpaid booking's slot is held. */
export function holdDeadline(epochMs: number): string {
  return `${formatStudioInstant(epochMs, "h:mm a 'on' MMM d")} (Atlanta time)`;
}
