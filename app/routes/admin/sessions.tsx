import * as Headless from "@headlessui/react";
import { useState } from "react";
import { Form, Link, useLocation } from "react-router";
import { BOOKING_STATUSES } from "#app/domain/booking-status";
import { AdminPage, EmptyList } from "#app/components/admin/admin-page";
import { AdminCalendar } from "#app/components/admin/calendar";
import { Pagination } from "#app/components/admin/pagination";
import {
  type AdminBookingRow,
  BookingLink,
  CalendarKeys,
  RowActions,
  ViewToggle,
  WorkflowBadge,
} from "#app/components/admin/workflow";
import { ColumnHeads, TableRegion, TD } from "#app/components/admin/table";
import { HydratedField } from "#app/components/ui/hydrated-field";
import { useHydrated } from "#app/components/ui/use-hydrated";
import { BULK_ACTIONS } from "#app/domain/admin-workflow";
import { type BookingFilters, emptyBookingsText, filterSearch } from "#app/domain/booking-filters";
import { formatStudioInstant } from "#app/domain/booking-display";
import { STATUS_LABELS } from "#app/domain/booking-status";
import { studioInstant } from "#app/domain/studio-time";
import { loadBookingsTab } from "#app/routes/admin/bookings-tab.server";
import { workflowAction } from "#app/routes/admin/workflow-actions.server";
import { loadStudioFeed, studioFeedAction } from "#app/routes/admin/studio-feed.server";
import { NEW_STUDIO_CALENDAR_LINK } from "#app/domain/calendar-feed";
import { CalendarFeedLink } from "#app/components/calendar-feed-link";
import { currentAdmin } from "#app/web/user-context.server";
import { safeMethodContext } from "#app/web/request-context.server";
import { FormErrors } from "#app/components/ui/error-list";
import type { Route } from "./+types/sessions";

const PATH = "/admin/sessions";
const BULK_FORM = "bulk-update";

/**
 * The Sessions tab (docs/product.md "Sessions tab"): the workflow list with the
 * bulk 'Update Status' menu. Without JavaScript the row checkboxes post with the menu's form
 * and 'Select all' is a link (`?selected=all`) that renders every row of the page checked.
 */
export async function loader({ request, context }: Route.LoaderArgs) {
  const tab = loadBookingsTab(request);
  const selectedAll = new URL(request.url).searchParams.get("selected") === "all";
  return {
    ...tab,
    selectedAll,
    studioFeed: loadStudioFeed(currentAdmin(context), context.get(safeMethodContext)),
  };
}

export async function action({ request, context }: Route.ActionArgs) {
  const admin = currentAdmin(context);
  const newFeedLink = await studioFeedAction(request, admin, PATH);
  if (newFeedLink) return newFeedLink;
  return workflowAction(request, context, admin, ["status", "bulk"]);
}

export default function SessionsTab({ loaderData, actionData }: Route.ComponentProps) {
  const { filters, search, list, calendar, selectedAll, studioFeed } = loaderData;
  const location = useLocation();
  const params = new URLSearchParams(search);
  return (
    <AdminPage
      title="Session Workflow Management"
      description="Change the status of sessions in the studio workflow, one at a time or several at once"
      actions={<ViewToggle path={PATH} filters={filters} current={search} />}
    >
      {/* Keyed by the query, so the inputs show the filters of the URL after every navigation. */}
      <Form
        key={search}
        method="get"
        action={PATH}
        className="flex flex-wrap items-end gap-3 rounded-xl bg-paper p-4 ring-1 ring-line"
      >
        <CalendarKeys filters={filters} current={search} />
        {filters.date ? <input type="hidden" name="date" value={filters.date} /> : null}
        {filters.membership !== "all" ? (
          <input type="hidden" name="membership" value={filters.membership} />
        ) : null}
        <Headless.Field className="min-w-48 flex-1 sm:flex-none">
          <Headless.Label className="field-label">Status</Headless.Label>
          <Headless.Select
            name="status"
            defaultValue={filters.status ?? ""}
            className="field-input"
          >
            <option value="">All Statuses</option>
            {BOOKING_STATUSES.map((status) => (
              <option key={status} value={status}>
                {STATUS_LABELS[status]}
              </option>
            ))}
          </Headless.Select>
        </Headless.Field>
        <button type="submit" className="btn-primary px-5 py-2.5">
          Apply
        </button>
        <Link
          to={`${PATH}${filterSearch({ ...filters, status: null, date: null, page: 1 }, {}, params)}`}
          className="btn-secondary px-4 py-2 text-sm"
        >
          Clear filter
        </Link>
      </Form>
      {filters.date ? (
        <p className="mt-3 text-sm">
          Showing sessions on{" "}
          <strong>
            {formatStudioInstant(studioInstant(filters.date, "12:00"), "MMMM d, yyyy")}
          </strong>
          .{" "}
          <Link
            to={`${PATH}${filterSearch(filters, { date: null, page: 1 }, params)}`}
            className="font-semibold text-brand-700 underline underline-offset-2"
          >
            Show all dates
          </Link>
        </p>
      ) : null}

      <FormErrors
        errors={actionData ? [actionData.message] : null}
        className="mt-4 font-semibold"
      />

      <div className="mt-6">
        {calendar ? (
          <AdminCalendar
            data={calendar}
            detailsHref={(date) =>
              `${PATH}${filterSearch(filters, { view: "list", date, page: 1 })}`
            }
          />
        ) : list && list.rows.length === 0 ? (
          <EmptyList>{emptyBookingsText(filters)}</EmptyList>
        ) : list ? (
          <>
            {/* A new page (or the redirect after an update) starts with a fresh selection. */}
            <SessionsList
              key={location.key}
              rows={list.rows}
              selectedAll={selectedAll}
              filters={filters}
              search={search}
            />
            <Pagination page={list.page} hasNext={list.hasNext} label="Sessions pages" />
          </>
        ) : null}
      </div>

      <div className="mt-10 rounded-xl bg-paper p-6 ring-1 ring-line">
        <CalendarFeedLink
          id="studio-calendar-feed"
          title="The studio in your calendar"
          description="Your private link to every live session, with client names and phone numbers. Subscribe to it in Google Calendar, Apple Calendar or Outlook; it stays up to date."
          urls={studioFeed}
          action={PATH}
          intent={NEW_STUDIO_CALENDAR_LINK}
        />
      </div>
    </AdminPage>
  );
}

function SessionsList({
  rows,
  selectedAll,
  filters,
  search,
}: {
  rows: AdminBookingRow[];
  selectedAll: boolean;
  filters: BookingFilters;
  search: string;
}) {
  const hydrated = useHydrated();
  const [selected, setSelected] = useState<Set<number>>(
    () => new Set(selectedAll ? rows.map((row) => row.id) : []),
  );
  const params = new URLSearchParams(search);
  const withSelection = (all: boolean) => {
    const next = new URLSearchParams(params);
    if (all) next.set("selected", "all");
    else next.delete("selected");
    const query = next.toString();
    return query ? `${PATH}?${query}` : PATH;
  };
  const allChecked = rows.length > 0 && rows.every((row) => selected.has(row.id));
  const toggle = (id: number, on: boolean) =>
    setSelected((current) => {
      const next = new Set(current);
      if (on) next.add(id);
      else next.delete(id);
      return next;
    });

  return (
    <>
      <Form
        id={BULK_FORM}
        method="post"
        action={`${PATH}${filterSearch(filters, {}, params)}`}
        preventScrollReset
        className="mb-4 flex flex-wrap items-center gap-3"
      >
        <HydratedField />
        <input type="hidden" name="intent" value="bulk" />
        <details className="relative">
          <summary className="btn-secondary cursor-pointer px-4 py-2 text-sm">
            Update Status
          </summary>
          <div className="absolute z-10 mt-2 flex w-64 flex-col gap-1 rounded-xl bg-white p-2 shadow-lg ring-1 ring-line">
            {BULK_ACTIONS.map((bulk) => (
              <button
                key={bulk.to}
                type="submit"
                name="status"
                value={bulk.to}
                className="min-h-11 rounded-lg px-3 text-left text-sm font-semibold hover:bg-black/5"
              >
                {bulk.label}
              </button>
            ))}
          </div>
        </details>
        <div role="status" className="flex flex-wrap items-center gap-3">
          {selected.size > 0 ? (
            <>
              <span className="font-semibold">{selected.size} session(s) selected</span>
              {hydrated ? (
                <button
                  type="button"
                  onClick={() => setSelected(new Set())}
                  className="text-sm font-semibold text-brand-700 underline underline-offset-2"
                >
                  Clear Selection
                </button>
              ) : (
                <Link
                  to={withSelection(false)}
                  className="text-sm font-semibold text-brand-700 underline underline-offset-2"
                >
                  Clear Selection
                </Link>
              )}
            </>
          ) : null}
        </div>
      </Form>
      <TableRegion label="Sessions">
        <table className="w-full min-w-[56rem] bg-white">
          <caption className="sr-only">Sessions</caption>
          <ColumnHeads
            columns={[
              hydrated ? (
                <input
                  key="select"
                  type="checkbox"
                  aria-label="Select all sessions on this page"
                  checked={allChecked}
                  onChange={(event) =>
                    setSelected(new Set(event.target.checked ? rows.map((row) => row.id) : []))
                  }
                  className="size-5"
                />
              ) : (
                <Link
                  key="select"
                  to={withSelection(!selectedAll)}
                  className="font-semibold text-brand-700 underline underline-offset-2"
                >
                  {selectedAll ? "Select none" : "Select all"}
                </Link>
              ),
              "Client",
              "Phone",
              "Session Date",
              "Current Status",
              "Actions",
            ]}
          />
          <tbody className="divide-y divide-line">
            {rows.map((row) => (
              <tr key={row.id} data-booking-id={row.id}>
                <td className={TD}>
                  <input
                    type="checkbox"
                    name="ids"
                    value={row.id}
                    form={BULK_FORM}
                    checked={selected.has(row.id)}
                    onChange={(event) => toggle(row.id, event.target.checked)}
                    aria-label={`Select ${row.name}, ${row.date} ${row.start}`}
                    className="size-5"
                  />
                </td>
                <td className={TD}>
                  <p className="font-semibold">{row.name}</p>
                  <p className="text-ink-soft">{row.email}</p>
                </td>
                <td className={TD}>{row.phone}</td>
                <td className={TD}>
                  <p className="font-semibold">{row.date}</p>
                  <p className="text-ink-soft">
                    {row.start} · {row.hours}
                  </p>
                </td>
                <td className={TD}>
                  <WorkflowBadge status={row.status} />
                </td>
                <td className={TD}>
                  <div className="flex flex-col items-start gap-2">
                    <RowActions id={row.id} status={row.status} who={row.name} />
                    <BookingLink id={row.id} />
                  </div>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </TableRegion>
    </>
  );
}

export const meta: Route.MetaFunction = () => [{ title: "Sessions | Admin Dashboard" }];
