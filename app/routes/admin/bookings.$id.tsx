import { data, Form, Link } from "react-router";
import { AdminPage } from "#app/components/admin/admin-page";
import { StatusForm } from "#app/components/admin/status-form";
import { ReceiptsList } from "#app/components/receipts-list";
import { WorkflowBadge } from "#app/components/admin/workflow";
import { ColumnHeads, TableRegion, TD } from "#app/components/admin/table";
import { formatStudioInstant, sessionTimeRange } from "#app/domain/booking-display";
import { STATUS_LABELS } from "#app/domain/booking-status";
import { parseId } from "#app/domain/ids";
import { formatDollars } from "#app/domain/pricing";
import { guestsLabel, hoursLabel, paymentMethodLabel } from "#app/domain/session-list";
import { getAdminBookingDetails } from "#app/models/admin-bookings.server";
import { listBookingReceipts } from "#app/models/receipt.server";
import { receiptLink } from "#app/domain/receipts";
import { workflowAction } from "#app/routes/admin/workflow-actions.server";
import { isFileFormReply, SessionFilesSection } from "#app/components/admin/session-files";
import {
  adminSessionFiles,
  isFileForm,
  sessionFilesAction,
} from "#app/routes/admin/booking-files.server";
import { currentAdmin } from "#app/web/user-context.server";
import { FormErrors } from "#app/components/ui/error-list";
import { SeriesSiblings } from "#app/components/series/series-siblings";
import { seriesSiblings } from "#app/routes/series-siblings.server";
import { studioCancelFollowing } from "#app/routes/admin/cancel-following.server";
import type { Route } from "./+types/bookings.$id";

const WHEN = "MMMM d, yyyy, h:mm a";

/**
 * One booking for staff (docs/product.md "Admin"): who, when, money, and its history of
 * status changes (who, when, from, to, note), with the same workflow buttons as the lists.
 */
export async function loader({ params }: Route.LoaderArgs) {
  const now = Date.now();
  const id = parseId(params.id);
  const details = id === null ? null : getAdminBookingDetails(id, now);
  if (!details) throw data("Booking not found", { status: 404 });
  const { booking, client, payments, paid, history } = details;
  return {
    booking: {
      id: booking.id,
      name: `${booking.firstName} ${booking.lastName}`,
      businessName: booking.businessName,
      email: booking.email,
      phone: booking.phoneNumber,
      date: formatStudioInstant(booking.startsAt, "MMMM d, yyyy"),
      time: sessionTimeRange(booking),
      hours: hoursLabel(booking.hoursNeeded),
      guests: guestsLabel(booking.guestCount),
      status: booking.status,
      cancellationReason: booking.cancellationReason,
      totalCost: booking.totalCost,
      originalCost: booking.originalCost,
      couponCode: booking.couponCode,
      discountAmount: booking.discountAmount,
      isRetainer: booking.isRetainer,
      bookedAt: formatStudioInstant(booking.createdAt, WHEN),
    },
    client,
    paid,
    receipts: listBookingReceipts(booking.id).map(receiptLink),
    payments: payments.map((payment) => ({
      id: payment.id,
      amount: payment.amount,
      method: payment.amount < 0 ? "Refund" : paymentMethodLabel(payment.method, payment.details),
      date: formatStudioInstant(payment.date, WHEN),
      reference: payment.transactionId,
    })),
    history: history.map((row) => ({
      id: row.id,
      when: formatStudioInstant(row.createdAt, WHEN),
      who: row.username ?? "System",
      from: row.fromStatus ? STATUS_LABELS[row.fromStatus] : "—",
      to: STATUS_LABELS[row.toStatus],
      note: row.note ?? "",
    })),
    files: adminSessionFiles(booking),
    series: seriesSiblings(booking, "staff", now),
    cancelFollowing: studioCancelFollowing(booking),
  };
}

export async function action({ request, context, params }: Route.ActionArgs) {
  const admin = currentAdmin(context);
  const id = parseId(params.id);
  if (id === null) throw data("Booking not found", { status: 404 });
  if (await isFileForm(request)) return sessionFilesAction(request, context, admin, id);
  return workflowAction(request, context, admin, ["status", "cancel-following"], id);
}

export default function AdminBooking({ loaderData, actionData }: Route.ComponentProps) {
  const { booking, client, paid, payments, history, files } = loaderData;
  // The file forms answer with their own reply (docs/product.md "Session files").
  const fileReply = actionData && isFileFormReply(actionData) ? actionData : null;
  const statusReply = actionData && !isFileFormReply(actionData) ? actionData : undefined;
  return (
    <AdminPage
      title={`Booking #${booking.id}`}
      description={`${booking.name}, ${booking.date}`}
      actions={
        <Link to="/admin/bookings" className="btn-secondary px-4 py-2 text-sm">
          Back to bookings
        </Link>
      }
    >
      <div className="grid gap-6 md:grid-cols-3">
        <section
          aria-labelledby="booking-client"
          className="min-w-0 rounded-xl p-4 ring-1 ring-line"
        >
          <h3 id="booking-client" className="font-display text-lg font-bold">
            Client
          </h3>
          <dl className="mt-2 space-y-1 text-sm">
            <Row label="Name" value={booking.name} />
            {booking.businessName ? <Row label="Business" value={booking.businessName} /> : null}
            <Row label="E-mail" value={booking.email} />
            <Row label="Phone" value={booking.phone} />
            {client ? (
              <>
                <Row label="Account" value={client.username} />
                <Row label="Membership" value={client.isMember ? "Member" : "Non-Member"} />
              </>
            ) : null}
          </dl>
        </section>
        <section
          aria-labelledby="booking-session"
          className="min-w-0 rounded-xl p-4 ring-1 ring-line"
        >
          <h3 id="booking-session" className="font-display text-lg font-bold">
            Session
          </h3>
          <dl className="mt-2 space-y-1 text-sm">
            <Row label="Date" value={booking.date} />
            <Row label="Time" value={booking.time} />
            <Row label="Length" value={booking.hours} />
            <Row label="Guests" value={booking.guests} />
            {booking.isRetainer ? <Row label="Package" value="Retainer" /> : null}
            <Row label="Booked" value={booking.bookedAt} />
          </dl>
          <div className="mt-3 flex items-center gap-2">
            <span className="text-sm text-ink-soft">Status</span>
            <WorkflowBadge status={booking.status} />
          </div>
          {booking.cancellationReason ? (
            <p className="mt-2 text-sm text-ink-soft">{booking.cancellationReason}</p>
          ) : null}
        </section>
        <section
          aria-labelledby="booking-money"
          className="min-w-0 rounded-xl p-4 ring-1 ring-line"
        >
          <h3 id="booking-money" className="font-display text-lg font-bold">
            Money
          </h3>
          <dl className="mt-2 space-y-1 text-sm">
            <Row label="Total" value={formatDollars(booking.totalCost)} />
            {booking.discountAmount > 0 ? (
              <Row
                label={booking.couponCode ? `Discount (${booking.couponCode})` : "Discount"}
                value={`−${formatDollars(booking.discountAmount)}`}
              />
            ) : null}
            <Row label="Paid, net of refunds" value={formatDollars(paid)} />
          </dl>
        </section>
      </div>

      {loaderData.series ? (
        <SeriesSiblings data={loaderData.series} className="mt-6 rounded-xl p-4 ring-1 ring-line" />
      ) : null}

      <section aria-labelledby="booking-actions" className="mt-6">
        <h3 id="booking-actions" className="font-display text-lg font-bold">
          Change status
        </h3>
        <FormErrors
          errors={statusReply ? [statusReply.message] : null}
          className="mt-2 font-semibold"
        />
        <div className="mt-2">
          {/* Keyed by the status: after a status change the note starts empty again. */}
          <StatusForm
            key={booking.status}
            id={booking.id}
            status={booking.status}
            who={booking.name}
            reply={statusReply?.result}
          />
          {booking.status === "CANCELLED" || booking.status === "COMPLETED" ? (
            <p className="text-sm text-ink-soft">
              A {STATUS_LABELS[booking.status].toLowerCase()} booking does not change status.
            </p>
          ) : null}
          {loaderData.cancelFollowing ? (
            <Form method="post" preventScrollReset className="mt-4">
              <input type="hidden" name="intent" value="cancel-following" />
              <p className="text-sm text-ink-soft" id="cancel-following-help">
                {`Cancels this session and every later one of its series for the studio (${loaderData.cancelFollowing.dates.join(", ")}), refunding ${formatDollars(loaderData.cancelFollowing.refund)} in all.`}
              </p>
              <button
                type="submit"
                className="btn-secondary mt-2 px-4 py-2 text-sm"
                aria-describedby="cancel-following-help"
              >
                {`Cancel this and all later sessions (${loaderData.cancelFollowing.count})`}
              </button>
            </Form>
          ) : null}
        </div>
      </section>

      <section aria-labelledby="booking-payments" className="mt-8">
        <h3 id="booking-payments" className="font-display text-lg font-bold">
          Payments and refunds
        </h3>
        {payments.length === 0 ? (
          <p className="mt-2 text-sm text-ink-soft">No payments recorded.</p>
        ) : (
          <div className="mt-2">
            <TableRegion label="Payment records">
              <table className="w-full min-w-[36rem] bg-white">
                <ColumnHeads columns={["Date", "Method", "Amount", "Reference"]} />
                <tbody className="divide-y divide-line">
                  {payments.map((payment) => (
                    <tr key={payment.id}>
                      <td className={TD}>{payment.date}</td>
                      <td className={TD}>{payment.method}</td>
                      <td className={TD}>
                        {payment.amount < 0
                          ? `−${formatDollars(-payment.amount)}`
                          : formatDollars(payment.amount)}
                      </td>
                      <td className={`${TD} break-all`}>{payment.reference ?? "—"}</td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </TableRegion>
          </div>
        )}
      </section>

      <ReceiptsList receipts={loaderData.receipts} />
      <SessionFilesSection data={files} reply={fileReply} />

      <section aria-labelledby="booking-history" className="mt-8">
        <h3 id="booking-history" className="font-display text-lg font-bold">
          History
        </h3>
        <div className="mt-2">
          <TableRegion label="Booking history">
            <table className="w-full min-w-[40rem] bg-white">
              <ColumnHeads columns={["When", "Who", "From", "To", "Note"]} />
              <tbody className="divide-y divide-line">
                {history.map((row) => (
                  <tr key={row.id}>
                    <td className={TD}>{row.when}</td>
                    <td className={TD}>{row.who}</td>
                    <td className={TD}>{row.from}</td>
                    <td className={TD}>{row.to}</td>
                    <td className={TD}>{row.note}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </TableRegion>
        </div>
      </section>
    </AdminPage>
  );
}

function Row({ label, value }: { label: string; value: string }) {
  return (
    <div className="flex justify-between gap-4">
      <dt className="text-ink-soft">{label}</dt>
      <dd className="min-w-0 text-right font-medium [overflow-wrap:anywhere]">{value}</dd>
    </div>
  );
}

export const meta: Route.MetaFunction = ({ params }) => [
  { title: `Booking #${params.id} | Admin Dashboard` },
];
