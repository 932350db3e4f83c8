import { Form, Link, useNavigation } from "react-router";
import { type BookingStatus, STATUS_LABELS } from "#app/domain/booking-status";
import { rowActions, workflowTone } from "#app/domain/admin-workflow";
import {
  type BookingFilters,
  CALENDAR_KEYS,
  filterSearch,
  VIEWS,
} from "#app/domain/booking-filters";
import { StatusBadge } from "#app/components/dashboard/status-badge";
import { Confirm } from "#app/components/ui/confirm";
import { HydratedField } from "#app/components/ui/hydrated-field";

export function WorkflowBadge({ status }: { status: BookingStatus }) {
  return <StatusBadge tone={workflowTone(status)} label={STATUS_LABELS[status]} />;
}

/** Formatted on the server in studio time. */
export type AdminBookingRow = {
  id: number;
  name: string;
  email: string;
  phone: string;
  date: string;
  start: string;
  end: string;
  hours: string;
  status: BookingStatus;
};

const SMALL_BUTTON =
  "inline-flex min-h-11 items-center rounded-full px-3 text-sm font-semibold ring-1 ring-line hover:bg-black/5 disabled:opacity-60";

/** docs/product.md "States and transitions": a post, so it works without JavaScript. */
export function RowActions({
  id,
  status,
  who,
}: {
  id: number;
  status: BookingStatus;
  who: string;
}) {
  if (rowActions(status).length === 0) return null;
  return (
    <Form
      id={`row-status-${id}`}
      method="post"
      preventScrollReset
      className="flex flex-wrap items-end gap-2"
    >
      <HydratedField />
      <input type="hidden" name="intent" value="status" />
      <input type="hidden" name="id" value={id} />
      <ActionButtons formId={`row-status-${id}`} id={id} status={status} who={who} />
    </Form>
  );
}

/** `formId`: Cancel's confirmation opens outside the form once the page runs. */
export function ActionButtons({
  formId,
  id,
  status,
  who,
}: {
  formId: string;
  id: number;
  status: BookingStatus;
  who: string;
}) {
  const busy = useNavigation().state === "submitting";
  return rowActions(status).map((action) => {
    const button = (
      <button
        key={action.to}
        type="submit"
        form={formId}
        name="status"
        value={action.to}
        disabled={busy}
        className={
          action.to === "CANCELLED"
            ? `${SMALL_BUTTON} bg-brand-700 text-white ring-brand-700 hover:bg-brand-600`
            : `${SMALL_BUTTON} bg-ink text-white ring-ink hover:bg-ink/90`
        }
      >
        {action.label}
        <span className="sr-only">
          {" "}
          for {who}, booking #{id}
        </span>
      </button>
    );
    if (action.to !== "CANCELLED") return button;
    // Cancelling refunds and e-mails the customer: it takes a second, deliberate click.
    return (
      <Confirm
        key={action.to}
        className="w-full"
        summary={
          <>
            Cancel…<span className="sr-only"> booking #{id}</span>
          </>
        }
        summaryClassName={`${SMALL_BUTTON} w-fit cursor-pointer text-brand-700`}
      >
        {() => (
          <div className="mt-2 space-y-2 rounded-xl bg-brand-50 p-3 text-sm">
            <p>Everything paid is refunded in full and the client is e-mailed.</p>
            {button}
          </div>
        )}
      </Confirm>
    );
  });
}

export function BookingLink({ id }: { id: number }) {
  return (
    <Link
      to={`/admin/bookings/${id}`}
      className="inline-flex min-h-11 items-center text-sm font-semibold text-brand-700 underline underline-offset-2"
    >
      View booking<span className="sr-only"> #{id}</span>
    </Link>
  );
}

/** Links, so each view has its URL and the filters stay. */
export function ViewToggle({
  path,
  filters,
  current,
}: {
  path: string;
  filters: BookingFilters;
  current: string;
}) {
  const params = new URLSearchParams(current);
  const linkClass =
    "inline-flex min-h-11 items-center rounded-full px-4 text-sm font-semibold ring-1 ring-line hover:bg-black/5 aria-[current=page]:bg-ink aria-[current=page]:text-white";
  return (
    <nav aria-label="View" className="flex gap-2">
      {VIEWS.map((view) => (
        <Link
          key={view}
          to={`${path}${filterSearch(filters, { view, page: 1 }, params)}`}
          aria-current={filters.view === view ? "page" : undefined}
          className={linkClass}
        >
          {view === "list" ? "List" : "Calendar"}
        </Link>
      ))}
    </nav>
  );
}

export function CalendarKeys({ filters, current }: { filters: BookingFilters; current: string }) {
  if (filters.view !== "calendar") return null;
  const params = new URLSearchParams(current);
  return (
    <>
      <input type="hidden" name="view" value="calendar" />
      {CALENDAR_KEYS.map((key) => {
        const value = params.get(key);
        return value === null ? null : <input key={key} type="hidden" name={key} value={value} />;
      })}
    </>
  );
}
