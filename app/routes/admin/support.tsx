import { getFormProps } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod/v4";
import { Form, Link } from "react-router";
import { AdminPage, EmptyList } from "#app/components/admin/admin-page";
import { SelectFilter } from "#app/components/admin/filter-form";
import { ColumnHeads, TableRegion, TD } from "#app/components/admin/table";
import { Pagination } from "#app/components/admin/pagination";
import { StatusBadge } from "#app/components/dashboard/status-badge";
import { TextareaField } from "#app/components/ui/field";
import { HydratedField } from "#app/components/ui/hydrated-field";
import { type FormReply, useSchemaForm } from "#app/components/ui/use-schema-form";
import { DatabaseBusyError } from "#app/db.server";
import { formatStudioInstant } from "#app/domain/booking-display";
import { STATUS_LABELS } from "#app/domain/booking-status";
import { parseId } from "#app/domain/ids";
import type { StatusTone } from "#app/domain/session-list";
import {
  CONTACT_METHODS,
  type ContactMethod,
  ISSUE_TYPES,
  type IssueType,
  RESOLUTION_MAX,
  SUPPORT_ACTION_MESSAGES,
  supportActionSchema,
  supportStatusParam,
} from "#app/domain/support";
import { SUPPORT_STATUS_LABELS, type SupportStatus } from "#app/domain/support-status";
import { listSupportRequestsPage } from "#app/models/support.server";
import { readPage } from "#app/models/pagination.server";
import { samePageUrl } from "#app/web/same-page.server";
import { env } from "#app/env.server";
import { readForm } from "#app/web/form.server";
import { redirectWithSuccess, replyWithToast } from "#app/web/toast.server";
import { updateSupportRequest } from "#app/workflows/support.server";
import { Refusal } from "#app/domain/refusal";
import { formRefusal } from "#app/web/refusals.server";
import type { Route } from "./+types/support";

/**
 * The Support tab (docs/product.md "Support tab", "Technical assistance statuses",
 * "Support and chat"): every customer's requests, filtered by status in the URL and paged in SQL,
 * each with the booking it is about, worked by staff with the buttons of
 * docs/product.md "Technical assistance statuses". Mark Resolved needs resolution details, which
 * the customer is e-mailed.
 */
const ERROR_TITLE = "Error updating request";

const TONES: Record<SupportStatus, StatusTone> = {
  PENDING: "yellow",
  IN_PROGRESS: "blue",
  RESOLVED: "green",
  CANCELLED: "grey",
};

const date = (epochMs: number) => formatStudioInstant(epochMs, "MMMM d, yyyy");
const time = (epochMs: number) => formatStudioInstant(epochMs, "h:mm a");

export async function loader({ request }: Route.LoaderArgs) {
  const url = new URL(request.url);
  const status = supportStatusParam(url.searchParams.get("status"));
  const page = listSupportRequestsPage({ status }, readPage(url));
  return {
    status,
    page: page.page,
    hasNext: page.hasNext,
    requests: page.rows.map((row) => ({
      id: row.id,
      userId: row.userId,
      username: row.username,
      name: row.name,
      email: row.email,
      phoneNumber: row.phoneNumber,
      contact:
        CONTACT_METHODS[row.preferredContactMethod as ContactMethod] ?? row.preferredContactMethod,
      created: `${date(row.createdAt)} ${time(row.createdAt)}`,
      issueType: ISSUE_TYPES[row.issueType as IssueType] ?? row.issueType,
      description: row.description,
      resolution: row.resolution,
      resolved: row.resolvedAt === null ? null : `${date(row.resolvedAt)} ${time(row.resolvedAt)}`,
      status: row.status,
      booking:
        row.bookingId !== null && row.bookingStartsAt !== null && row.bookingStatus !== null
          ? {
              id: row.bookingId,
              date: date(row.bookingStartsAt),
              time: time(row.bookingStartsAt),
              status: STATUS_LABELS[row.bookingStatus],
            }
          : null,
    })),
  };
}

export async function action({ request, context }: Route.ActionArgs) {
  const formData = await readForm(request);
  const submission = parseWithZod(formData, { schema: supportActionSchema });
  // Which request's form the reply belongs to (0: none of them).
  const rawId = formData.get("id");
  const requestId = parseId(typeof rawId === "string" ? rawId : undefined) ?? 0;
  const fail = (description: string, status: number, result = submission.reply()) =>
    replyWithToast(
      context,
      formData,
      { id: requestId, result },
      { type: "error", message: ERROR_TITLE, description },
      { status },
    );

  if (submission.status !== "success") {
    const error = submission.error ?? {};
    if (error.intent) return fail(SUPPORT_ACTION_MESSAGES.intent, 400);
    if (error.id) return fail(SUPPORT_ACTION_MESSAGES.notFound, 404);
    const message = Object.values(error).flat()[0] ?? SUPPORT_ACTION_MESSAGES.intent;
    return fail(message, 400);
  }
  const { id, update } = submission.value;
  try {
    const updated = updateSupportRequest(id, update, Date.now(), env.APP_URL);
    return redirectWithSuccess(samePageUrl(request), {
      message: "Request updated",
      description:
        updated.status === "RESOLVED"
          ? `Request #${id} is resolved; the customer is e-mailed the resolution.`
          : `Request #${id} is now ${SUPPORT_STATUS_LABELS[updated.status]}.`,
    });
  } catch (error) {
    if (error instanceof Refusal) {
      const { init, field } = formRefusal(error);
      const errors = field ? { fieldErrors: { [field]: [error.message] } } : undefined;
      return fail(error.message, init.status, submission.reply(errors));
    }
    if (error instanceof DatabaseBusyError) {
      return fail("The system is busy right now. Please try again.", 503);
    }
    throw error;
  }
}

export default function SupportTab({ loaderData, actionData }: Route.ComponentProps) {
  const { requests, status, page, hasNext } = loaderData;
  return (
    <AdminPage
      title="Technical Support Requests"
      description="Customers' requests for help, newest first. Start working on a request, then mark it resolved with the details the customer will be e-mailed."
    >
      <SelectFilter
        name="status"
        label="Status"
        value={status ?? ""}
        options={[
          { value: "", label: "All" },
          ...(Object.keys(SUPPORT_STATUS_LABELS) as SupportStatus[]).map((value) => ({
            value,
            label: SUPPORT_STATUS_LABELS[value],
          })),
        ]}
      />
      <div className="mt-6">
        {requests.length === 0 ? (
          <EmptyList>No technical assistance requests found</EmptyList>
        ) : (
          <TableRegion label="Technical support requests">
            <table className="w-full min-w-[56rem] divide-y divide-line">
              <ColumnHeads
                columns={["User", "Request", "Booking", "Status", "Actions"]}
                className="bg-paper"
              />
              <tbody className="divide-y divide-line">
                {requests.map((request) => (
                  <RequestRow
                    key={request.id}
                    request={request}
                    reply={actionData?.id === request.id ? actionData.result : undefined}
                  />
                ))}
              </tbody>
            </table>
          </TableRegion>
        )}
        <Pagination page={page} hasNext={hasNext} label="Support request pages" />
      </div>
    </AdminPage>
  );
}

type RequestView = Route.ComponentProps["loaderData"]["requests"][number];

function RequestRow({ request, reply }: { request: RequestView; reply: FormReply }) {
  return (
    <tr id={`request-${request.id}`}>
      <td className={TD}>
        <p className="font-semibold">User #{request.userId}</p>
        <p className="break-all text-ink-soft">{request.username}</p>
        <p className="text-ink-soft">{request.created}</p>
        <p className="mt-2">{request.name}</p>
        <p className="break-all">
          <a href={`mailto:${request.email}`} className="underline">
            {request.email}
          </a>
        </p>
        {request.phoneNumber ? <p>{request.phoneNumber}</p> : null}
        <p className="text-ink-soft">Prefers: {request.contact}</p>
      </td>
      <td className={`${TD} max-w-md`}>
        <p className="font-semibold">
          #{request.id} · {request.issueType}
        </p>
        <p className="mt-1 whitespace-pre-line break-words">{request.description}</p>
        {request.resolution ? (
          <div className="mt-2 rounded-lg bg-emerald-50 p-2">
            <p className="font-semibold">
              Resolution{request.resolved ? ` (${request.resolved})` : ""}
            </p>
            <p className="whitespace-pre-line break-words">{request.resolution}</p>
          </div>
        ) : null}
      </td>
      <td className={TD}>
        {request.booking ? (
          <>
            <Link to={`/admin/bookings/${request.booking.id}`} className="font-semibold underline">
              Booking #{request.booking.id}
            </Link>
            <p>{request.booking.date}</p>
            <p>{request.booking.time}</p>
            <p className="text-ink-soft">{request.booking.status}</p>
          </>
        ) : (
          <p className="text-ink-soft">None</p>
        )}
      </td>
      <td className={TD}>
        <StatusBadge tone={TONES[request.status]} label={SUPPORT_STATUS_LABELS[request.status]} />
      </td>
      <td className={`${TD} min-w-[15rem]`}>
        <Actions request={request} reply={reply} />
      </td>
    </tr>
  );
}

function Actions({ request, reply }: { request: RequestView; reply: FormReply }) {
  if (request.status === "RESOLVED" || request.status === "CANCELLED") {
    return <p className="text-ink-soft">No actions</p>;
  }
  return (
    <div className="space-y-3">
      {request.status === "PENDING" ? (
        <Form method="post" preventScrollReset>
          <HydratedField />
          <input type="hidden" name="id" value={request.id} />
          <button type="submit" name="intent" value="start" className="btn-primary w-full py-2">
            Start Working
          </button>
        </Form>
      ) : (
        <ResolveForm id={request.id} reply={reply} />
      )}
      <Form method="post" preventScrollReset>
        <HydratedField />
        <input type="hidden" name="id" value={request.id} />
        <button
          type="submit"
          name="intent"
          value="cancel"
          className="btn-secondary w-full py-2 text-ink"
        >
          Cancel
        </button>
      </Form>
    </div>
  );
}

/**
 * Mark Resolved with the details the customer is e-mailed. Its intent is a field of the form
 * (not the button's), so the details are checked as they are left; the server answers every
 * submit, as a refusal comes with a toast.
 */
function ResolveForm({ id, reply }: { id: number; reply: FormReply }) {
  const [form, fields] = useSchemaForm({
    id: `resolve-${id}`,
    schema: supportActionSchema,
    lastResult: reply,
    submitCheckedBy: "server",
  });
  return (
    <Form method="post" preventScrollReset {...getFormProps(form)} className="space-y-2">
      <HydratedField />
      <input type="hidden" name="intent" value="resolve" />
      <input type="hidden" name="id" value={id} />
      <TextareaField
        label="Resolution details"
        meta={fields.resolution}
        rows={3}
        maxLength={RESOLUTION_MAX}
      />
      <button type="submit" className="btn-primary w-full py-2">
        Mark Resolved
      </button>
    </Form>
  );
}

export const meta: Route.MetaFunction = () => [
  { title: "Support | Admin Dashboard | ATL Creator Studio" },
];
