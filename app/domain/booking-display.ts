import { TZDate } from "@date-fns/tz";
import { format } from "date-fns";
import { STUDIO_TIME_ZONE } from "#app/domain/studio-time";

/** A list formats the same sessions again and again, at tens of microseconds each: kept. */
const FORMATTED_LIMIT = 10_000;
const formatted = new Map<string, string>();

/** Studio wall time, whatever the reader's zone. */
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

export function sessionDate(session: { startsAt: number }): string {
  return formatStudioInstant(session.startsAt, "EEEE, MMMM d, yyyy");
}

export function sessionTimeRange(session: { startsAt: number; endsAt: number }): string {
  const start = formatStudioInstant(session.startsAt, "h:mm a");
  const end = formatStudioInstant(session.endsAt, "h:mm a");
  const sameDay =
    formatStudioInstant(session.startsAt, "yyyy-MM-dd") ===
    formatStudioInstant(session.endsAt, "yyyy-MM-dd");
  return `${start} – ${end}${sameDay ? "" : " (next day)"}`;
}

export function holdDeadline(epochMs: number): string {
  return `${formatStudioInstant(epochMs, "h:mm a 'on' MMM d")} (Atlanta time)`;
}
