// Schedule-X v4 reads dates as the global Temporal API: see calendar.tsx for the polyfill.
import "@schedule-x/theme-default/dist/calendar.css";
import "./schedule-x.css";
import {
  type CalendarConfig,
  createViewDay,
  createViewMonthGrid,
  createViewWeek,
} from "@schedule-x/calendar";
import { createCurrentTimePlugin } from "@schedule-x/current-time";
import { ScheduleXCalendar as Calendar, useCalendarApp } from "@schedule-x/react";
import { useEffect, useId, useMemo, useRef, useState } from "react";
import { Link, useNavigate } from "react-router";
import type { BookingStatus } from "#app/domain/booking-status";
import {
  type CalendarData,
  type CalendarEvent,
  type CalendarView,
  dayOf,
  formatDay,
  wallTimeRange,
} from "#app/domain/calendar-range";
import { toScheduleX } from "#app/components/admin/schedule-x-events";
import { STUDIO_TIME_ZONE } from "#app/domain/studio-time";
import { StatusBadge, withParams } from "#app/components/admin/calendar-parts";
import {
  calendarIdOf,
  LEGEND_STATUSES,
  OTHER_COLORS,
  statusColors,
} from "#app/components/admin/calendar-status";

const VIEW_NAMES: Record<CalendarView, string> = {
  month: "month-grid",
  week: "week",
  day: "day",
};

/** One Schedule-X "calendar" per status: that is how it colours events. */
const CALENDARS: NonNullable<CalendarConfig["calendars"]> = Object.fromEntries(
  [...LEGEND_STATUSES, "other"].map((status) => {
    const colors = status === "other" ? OTHER_COLORS : statusColors(status);
    const id = calendarIdOf(status);
    return [id, { colorName: id, lightColors: colors, darkColors: colors }];
  }),
);

/** docs/product.md "Calendar". */
function EventNotice({
  event,
  detailsHref,
  onClose,
}: {
  event: CalendarEvent;
  detailsHref: (date: string) => string;
  onClose: () => void;
}) {
  const ref = useRef<HTMLDialogElement>(null);
  const titleId = useId();
  useEffect(() => {
    const dialog = ref.current;
    if (dialog && !dialog.open) dialog.showModal();
  }, []);
  const day = dayOf(event.start);
  return (
    // Native modal: keeps focus inside, closes on Escape, gives focus back.
    <dialog
      ref={ref}
      aria-labelledby={titleId}
      onClose={onClose}
      className="fixed inset-0 z-50 m-auto w-[min(26rem,calc(100%-2rem))] rounded-2xl bg-white p-6 text-ink shadow-2xl backdrop:bg-night/60"
    >
      <h3 id={titleId} className="font-display text-xl font-bold">
        {event.title}
      </h3>
      <dl className="mt-4 grid grid-cols-[auto_1fr] gap-x-4 gap-y-2">
        <dt className="font-semibold text-ink-soft">Status</dt>
        <dd>
          <StatusBadge status={event.status as BookingStatus} />
        </dd>
        <dt className="font-semibold text-ink-soft">Date</dt>
        <dd>{formatDay(day, "MMMM d, yyyy")}</dd>
        <dt className="font-semibold text-ink-soft">Time</dt>
        <dd>{wallTimeRange(event.start, event.end)}</dd>
        <dt className="font-semibold text-ink-soft">Phone</dt>
        <dd>
          <a href={`tel:${event.phone}`} className="underline underline-offset-2">
            {event.phone}
          </a>
        </dd>
      </dl>
      <div className="mt-6 flex flex-wrap justify-end gap-3">
        <button
          type="button"
          onClick={() => ref.current?.close()}
          className="rounded-full px-4 py-2 font-semibold ring-1 ring-line hover:bg-paper"
        >
          Close
        </button>
        <Link
          to={detailsHref(day)}
          className="rounded-full bg-night px-4 py-2 font-semibold text-white hover:bg-night-soft"
        >
          View Details
        </Link>
      </div>
    </dialog>
  );
}

/** Without its own toolbar: our links above are the controls (docs/product.md "Calendar"). */
export default function ScheduleXCalendar({
  data,
  detailsHref,
  pathname,
  search,
}: {
  data: CalendarData;
  detailsHref: (date: string) => string;
  pathname: string;
  search: string;
}) {
  const navigate = useNavigate();
  const [open, setOpen] = useState<CalendarEvent | null>(null);
  const byId = useMemo(() => new Map(data.events.map((event) => [event.id, event])), [data]);
  // Schedule-X keeps the callbacks it was created with: read the latest through refs.
  const latest = useRef({ byId, navigate, pathname, search });
  latest.current = { byId, navigate, pathname, search };

  // Read once: Schedule-X takes its settings when it is created (a new period is a new one).
  const [config] = useState(
    (): CalendarConfig => ({
      views: [createViewMonthGrid(), createViewWeek(), createViewDay()],
      defaultView: VIEW_NAMES[data.view],
      selectedDate: Temporal.PlainDate.from(data.date),
      timezone: STUDIO_TIME_ZONE,
      locale: "en-US",
      firstDayOfWeek: 7,
      // Our links choose the view: a narrow screen scrolls sideways instead.
      isResponsive: false,
      skipAnimations: true,
      dayBoundaries: { start: "08:00", end: "20:00" },
      weekOptions: { gridHeight: 720, gridStep: 30, eventOverlap: false },
      monthGridOptions: { nEventsPerDay: 3 },
      calendars: CALENDARS,
      events: data.events.map(toScheduleX),
      callbacks: {
        onEventClick(event) {
          setOpen(latest.current.byId.get(Number(event.id)) ?? null);
        },
        onClickPlusEvents(date) {
          const { navigate, pathname, search } = latest.current;
          navigate(withParams(pathname, search, { cal: "day", around: date.toString() }));
        },
      },
    }),
  );
  const [plugins] = useState(() => [createCurrentTimePlugin()]);
  const calendar = useCalendarApp(config, plugins);

  // Schedule-X names its day columns and cells with aria-label on plain divs, which assistive
  // technology ignores (and axe refuses): as named groups, "April 11, 2027" is announced.
  const frame = useRef<HTMLDivElement>(null);
  useEffect(() => {
    const root = frame.current;
    if (!root) return;
    const nameGroups = () => {
      for (const element of root.querySelectorAll("div[aria-label]:not([role])")) {
        element.setAttribute("role", "group");
      }
    };
    nameGroups();
    const observer = new MutationObserver(nameGroups);
    observer.observe(root, { childList: true, subtree: true });
    return () => observer.disconnect();
  }, []);

  // The same period reloaded (after a status change, say): new events, same calendar.
  useEffect(() => {
    calendar?.events.set(data.events.map(toScheduleX));
  }, [calendar, data.events]);

  return (
    <>
      <section
        aria-labelledby="calendar-heading"
        // biome-ignore lint/a11y/noNoninteractiveTabindex: a scrolling region must be reachable by keyboard.
        tabIndex={0}
        className="admin-calendar overflow-x-auto rounded-2xl focus-visible:outline-2 focus-visible:outline-brand-600"
        data-view={data.view}
      >
        <div ref={frame} className="admin-calendar__frame min-w-[40rem]">
          <Calendar calendarApp={calendar} />
        </div>
      </section>
      {open ? (
        <EventNotice event={open} detailsHref={detailsHref} onClose={() => setOpen(null)} />
      ) : null}
    </>
  );
}
