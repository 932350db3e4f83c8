import { Link } from "react-router";
import { type BookingStatus, STATUS_LABELS } from "#app/domain/booking-status";
import {
  type CalendarData,
  type CalendarEvent,
  type CalendarView,
  dayOf,
  formatDay,
  rangeHeading,
  wallTimeRange,
} from "#app/domain/calendar-range";
import { LEGEND_STATUSES, statusColors } from "#app/components/admin/calendar-status";

const VIEW_LABELS: Record<CalendarView, string> = { month: "Month", week: "Week", day: "Day" };

/** Every filter of the tab stays as it is. */
export function withParams(
  pathname: string,
  search: string,
  changes: Record<string, string>,
): string {
  const params = new URLSearchParams(search);
  for (const [name, value] of Object.entries(changes)) params.set(name, value);
  return `${pathname}?${params}`;
}

const linkShape =
  "inline-flex items-center rounded-full px-3 py-1.5 text-sm font-semibold ring-1 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-brand-600";
const buttonLink = `${linkShape} ring-line hover:bg-paper`;
const currentLink = `${linkShape} bg-night text-white ring-night hover:bg-night-soft`;

export function CalendarControls({
  data,
  pathname,
  search,
}: {
  data: CalendarData;
  pathname: string;
  search: string;
}) {
  const go = (changes: Record<string, string>) => withParams(pathname, search, changes);
  return (
    <div className="flex flex-wrap items-center justify-between gap-3">
      <h3 className="font-display text-xl font-bold" id="calendar-heading" aria-live="polite">
        {rangeHeading(data)}
      </h3>
      <div className="flex flex-wrap gap-3">
        <nav aria-label="Calendar period" className="flex flex-wrap gap-2">
          <Link to={go({ around: data.previous })} className={buttonLink}>
            Previous
          </Link>
          <Link
            to={go({ around: data.today })}
            className={buttonLink}
            aria-current={data.date === data.today ? "date" : undefined}
          >
            Today
          </Link>
          <Link to={go({ around: data.next })} className={buttonLink}>
            Next
          </Link>
        </nav>
        <nav aria-label="Calendar view" className="flex flex-wrap gap-2">
          {(Object.keys(VIEW_LABELS) as CalendarView[]).map((view) => (
            <Link
              key={view}
              to={go({ cal: view, around: data.date })}
              className={view === data.view ? currentLink : buttonLink}
              aria-current={view === data.view ? "page" : undefined}
            >
              {VIEW_LABELS[view]}
            </Link>
          ))}
        </nav>
      </div>
    </div>
  );
}

export function StatusBadge({ status }: { status: BookingStatus }) {
  const colors = statusColors(status);
  return (
    <span
      className="inline-flex items-center whitespace-nowrap rounded-full px-2.5 py-0.5 text-sm font-semibold ring-1 ring-black/10"
      style={{ backgroundColor: colors.container, color: colors.onContainer }}
    >
      {STATUS_LABELS[status] ?? status}
    </span>
  );
}

export function StatusLegend() {
  return (
    <section aria-labelledby="calendar-legend">
      <h4 id="calendar-legend" className="sr-only">
        Status colours
      </h4>
      <ul className="flex flex-wrap gap-2">
        {LEGEND_STATUSES.map((status) => (
          <li key={status}>
            <StatusBadge status={status} />
          </li>
        ))}
      </ul>
    </section>
  );
}

function byDay(events: CalendarEvent[]): [string, CalendarEvent[]][] {
  const days = new Map<string, CalendarEvent[]>();
  for (const event of events) {
    const day = dayOf(event.start);
    days.set(day, [...(days.get(day) ?? []), event]);
  }
  return [...days];
}

/** The calendar needs JavaScript; this list is its fallback. */
export function CalendarList({
  data,
  detailsHref,
}: {
  data: CalendarData;
  detailsHref: (date: string) => string;
}) {
  const days = byDay(data.events);
  return (
    <div className="space-y-4" data-testid="calendar-list">
      <p className="text-sm text-ink-soft">
        The interactive calendar needs JavaScript; here are the sessions of this period as a list.
      </p>
      {days.length === 0 ? (
        <p className="rounded-2xl border border-dashed border-ink-soft/30 px-6 py-10 text-center font-semibold text-ink-soft">
          No bookings found for this period
        </p>
      ) : (
        <ol className="space-y-4" aria-labelledby="calendar-heading">
          {days.map(([day, events]) => {
            const label = formatDay(day, "EEEE, MMMM d, yyyy");
            return (
              <li key={day} className="rounded-2xl ring-1 ring-line">
                <div className="flex flex-wrap items-center justify-between gap-2 border-b border-line px-4 py-2">
                  <h4 className="font-semibold">{label}</h4>
                  <Link
                    to={detailsHref(day)}
                    className="text-sm font-semibold text-brand-700 underline underline-offset-2"
                  >
                    View Details<span className="sr-only"> for {label}</span>
                  </Link>
                </div>
                <ul className="divide-y divide-line">
                  {events.map((event) => (
                    <li
                      key={event.id}
                      className="flex flex-wrap items-center gap-x-4 gap-y-1 px-4 py-2"
                    >
                      <span className="tabular-nums text-ink-soft">
                        {wallTimeRange(event.start, event.end)}
                      </span>
                      <span className="font-semibold">{event.title}</span>
                      <StatusBadge status={event.status} />
                    </li>
                  ))}
                </ul>
              </li>
            );
          })}
        </ol>
      )}
    </div>
  );
}
