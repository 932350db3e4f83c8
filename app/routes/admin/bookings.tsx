import * as Headless from "@headlessui/react";
import { Form, Link } from "react-router";
import { AdminPage, EmptyList } from "#app/components/admin/admin-page";
import { AdminCalendar } from "#app/components/admin/calendar";
import { Pagination } from "#app/components/admin/pagination";
import {
  BookingLink,
  CalendarKeys,
  RowActions,
  ViewToggle,
  WorkflowBadge,
} from "#app/components/admin/workflow";
import { ColumnHeads, TableRegion, TD } from "#app/components/admin/table";
import { BOOKING_STATUSES } from "#app/domain/booking-status";
import { emptyBookingsText, filterSearch } from "#app/domain/booking-filters";
import { STATUS_LABELS } from "#app/domain/booking-status";
import { currentAdmin } from "#app/web/user-context.server";
import { loadBookingsTab } from "#app/routes/admin/bookings-tab.server";
import { workflowAction } from "#app/routes/admin/workflow-actions.server";
import { FormErrors } from "#app/components/ui/error-list";
import type { Route } from "./+types/bookings";

const PATH = "/admin/bookings";

/**
 * The Bookings tab (docs/product.md "Screens"): every booking, filtered by day, status and
 * membership.
 */
export async function loader({ request }: Route.LoaderArgs) {
  return loadBookingsTab(request);
}

/** The single-row status changes; the bulk menu lives on the Sessions tab. */
export async function action({ request, context }: Route.ActionArgs) {
  const admin = currentAdmin(context);
  return workflowAction(request, context, admin, ["status"]);
}

export default function BookingsTab({ loaderData, actionData }: Route.ComponentProps) {
  const { filters, search, list, calendar } = loaderData;
  const params = new URLSearchParams(search);
  return (
    <AdminPage
      title="Bookings Management"
      description="View and manage all studio bookings"
      actions={<ViewToggle path={PATH} filters={filters} current={search} />}
    >
      {/* Keyed by the query, so the inputs show the filters of the URL after every navigation. */}
      <Form
        key={search}
        method="get"
        action={PATH}
        className="grid gap-4 rounded-xl bg-paper p-4 ring-1 ring-line sm:grid-cols-2 md:grid-cols-4 md:items-end"
      >
        <CalendarKeys filters={filters} current={search} />
        <Headless.Field>
          <Headless.Label className="field-label">Date</Headless.Label>
          <Headless.Input
            type="date"
            name="date"
            defaultValue={filters.date ?? ""}
            className="field-input"
          />
        </Headless.Field>
        <Headless.Field>
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
        <Headless.Field>
          <Headless.Label className="field-label">Membership</Headless.Label>
          <Headless.Select
            name="membership"
            defaultValue={filters.membership}
            className="field-input"
          >
            <option value="all">All Clients</option>
            <option value="members">Members Only</option>
            <option value="non-members">Non-Members Only</option>
          </Headless.Select>
        </Headless.Field>
        <div className="flex flex-wrap gap-2">
          <button type="submit" className="btn-primary px-5 py-2.5">
            Apply
          </button>
        </div>
        <div className="flex flex-wrap gap-2 sm:col-span-2 md:col-span-4">
          <Link
            to={`${PATH}${filterSearch(
              { ...filters, date: null, status: null, membership: "all", page: 1 },
              {},
              params,
            )}`}
            className="btn-secondary px-4 py-2 text-sm"
          >
            Clear All Filters
          </Link>
          <Link to={PATH} className="btn-secondary px-4 py-2 text-sm">
            Reset &amp; Show All
          </Link>
        </div>
      </Form>

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
            <TableRegion label="Bookings">
              <table className="w-full min-w-[44rem] bg-white">
                <caption className="sr-only">Bookings</caption>
                <ColumnHeads columns={["Client", "Date & Time", "Status", "Actions"]} />
                <tbody className="divide-y divide-line">
                  {list.rows.map((row) => (
                    <tr key={row.id} data-booking-id={row.id}>
                      <td className={TD}>
                        <p className="font-semibold">{row.name}</p>
                        <p className="text-ink-soft">{row.email}</p>
                        <p className="text-ink-soft">{row.phone}</p>
                      </td>
                      <td className={TD}>
                        <p className="font-semibold">{row.date}</p>
                        <p className="text-ink-soft">
                          {row.start} – {row.end}
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
            <Pagination page={list.page} hasNext={list.hasNext} label="Bookings pages" />
          </>
        ) : null}
      </div>
    </AdminPage>
  );
}

export const meta: Route.MetaFunction = () => [{ title: "Bookings | Admin Dashboard" }];
