import { lazy, Suspense } from "react";
import { useLocation } from "react-router";
import { useHydrated } from "#app/components/ui/use-hydrated";
import { type CalendarData, EVENT_CAP_TEXT } from "#app/domain/calendar-range";
import { CalendarControls, CalendarList, StatusLegend } from "#app/components/admin/calendar-parts";

/**
 * Its own chunk, fetched only when a calendar is on screen in a browser (it needs `window`); the
 * Temporal polyfill only by browsers without Temporal.
 */
const ScheduleXCalendar = lazy(async () => {
  if (!("Temporal" in globalThis)) await import("temporal-polyfill/global");
  return import("#app/components/admin/schedule-x-calendar.client");
});

/**
 * The bookings calendar. Its controls are links (view, period), so every calendar view is a
 * URL; without JavaScript, and until Schedule-X has loaded, the period's sessions show as a
 * list. `detailsHref(date)` is where 'View Details' goes: the tab's list mode on that day.
 */
export function AdminCalendar({
  data,
  detailsHref,
}: {
  data: CalendarData;
  detailsHref: (date: string) => string;
}) {
  const { pathname, search } = useLocation();
  const hydrated = useHydrated();
  const list = <CalendarList data={data} detailsHref={detailsHref} />;
  return (
    <div className="space-y-4">
      <CalendarControls data={data} pathname={pathname} search={search} />
      <StatusLegend />
      {data.truncated ? (
        <p className="rounded-xl bg-gold-300/40 px-4 py-2 text-sm font-semibold">
          {EVENT_CAP_TEXT}
        </p>
      ) : null}
      {hydrated ? (
        <Suspense fallback={list}>
          {/* A new period or view is a new calendar: Schedule-X takes them at creation. */}
          <ScheduleXCalendar
            key={`${data.view}:${data.date}`}
            data={data}
            detailsHref={detailsHref}
            pathname={pathname}
            search={search}
          />
        </Suspense>
      ) : (
        list
      )}
    </div>
  );
}
