import { Form, Link } from "react-router";
import { AdminPage, EmptyList } from "#app/components/admin/admin-page";
import { SelectFilter, TableRegion, TD, TH } from "#app/components/admin/filter-form";
import { Pagination } from "#app/components/admin/pagination";
import { StatusBadge } from "#app/components/dashboard/status-badge";
import { ErrorList } from "#app/components/ui/field";
import { HydratedField } from "#app/components/ui/hydrated-field";
import { isDatabaseBusyResponse } from "#app/db.server";
import { formatStudioInstant } from "#app/domain/booking-display";
import { STATUS_LABELS } from "#app/domain/booking-status";
import type { StatusTone } from "#app/domain/session-list";
import {
  CONTACT_METHODS,
  type ContactMethod,
  ISSUE_TYPES,
  type IssueType,
  RESOLUTION_MAX,
  supportStatusParam,
  supportUpdateSchema,
} from "#app/domain/support";
import { SUPPORT_STATUS_LABELS, type SupportStatus } from "#app/domain/support-status";
import { listSupportRequestsPage } from "#app/models/support.server";
import { readPage } from "#app/models/pagination.server";
import { samePageUrl } from "#app/web/same-page.server";
import { requireAdmin } from "#app/web/auth.server";
import { env } from "#app/env.server";
import { readForm } from "#app/web/form.server";
import { redirectWithSuccess, replyWithToast } from "#app/web/toast.server";
import { SupportUpdateError, updateSupportRequest } from "#app/workflows/support.server";
import type { Route } from "./+types/support";

/**
 * The Support tab (spec section 2 'Technical Support Requests panel', section 4 statuses,
 * product-decisions "Support and chat"): every customer's requests, filtered by status in the
 * URL and paged in SQL, each with the booking it is about, worked by staff with the spec's
 * buttons. Mark Resolved needs resolution details, which the customer is e-mailed.
 */
const INTENTS = {
  start: "IN_PROGRESS",
  resolve: "RESOLVED",
  cancel: "CANCELLED",
} as const satisfies Record<string, SupportStatus>;
type Intent = keyof typeof INTENTS;

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
  await requireAdmin(request);
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

/** What a refused post gives back: which request, and the resolution's error if any. */
type Reply = { id: number; resolution: string; errors: string[] };

export async function action({ request, context }: Route.ActionArgs) {
  await requireAdmin(request);
  const formData = await readForm(request);
  const intent = formData.get("intent");
  const rawId = formData.get("id");
  const id = typeof rawId === "string" && /^\d{1,15}$/.test(rawId) ? Number(rawId) : null;
  const typed = formData.get("resolution");
  const resolution = typeof typed === "string" ? typed : "";
  const fail = (description: string, status: number, errors: string[] = []) =>
    replyWithToast(
      context,
      formData,
      { id: id ?? 0, resolution, errors } satisfies Reply,
      { type: "error", message: ERROR_TITLE, description },
      { status },
    );

  if (typeof intent !== "string" || !Object.hasOwn(INTENTS, intent)) {
    return fail("Please use one of the request's buttons.", 400);
  }
  if (id === null || id > Number.MAX_SAFE_INTEGER) return fail("This request was not found.", 404);
  const parsed = supportUpdateSchema.safeParse({ status: INTENTS[intent as Intent], resolution });
  if (!parsed.success) {
    const message = parsed.error.issues[0]?.message ?? "Invalid request";
    return fail(message, 400, [message]);
  }
  try {
    const updated = updateSupportRequest(id, parsed.data, Date.now(), env.APP_URL);
    return redirectWithSuccess(samePageUrl(request), {
      message: "Request updated",
      description:
        updated.status === "RESOLVED"
          ? `Request #${id} is resolved; the customer is e-mailed the resolution.`
          : `Request #${id} is now ${SUPPORT_STATUS_LABELS[updated.status]}.`,
    });
  } catch (error) {
    if (error instanceof SupportUpdateError) {
      if (error.kind === "not-found") return fail(error.message, 404);
      if (error.kind === "resolution-required") return fail(error.message, 400, [error.message]);
      return fail(error.message, 409);
    }
    if (isDatabaseBusyResponse(error)) {
      return fail("The system is busy right now. Please try again.", 503);
    }
    throw error;
  }
}

export default function SupportTab({ loaderData, actionData }: Route.ComponentProps) {
  const { requests, status, page, hasNext } = loaderData;
  const reply = actionData as Reply | undefined;
  return (
    <AdminPage
      title="Technical Support Requests"
      description="Customers' requests for help, newest first. Start working on a request, then mark it resolved with the details the customer will be e-mailed."
    >
      <SelectFilter
        id="support-status"
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
              <thead className="bg-paper">
                <tr>
                  <th scope="col" className={TH}>
                    User
                  </th>
                  <th scope="col" className={TH}>
                    Request
                  </th>
                  <th scope="col" className={TH}>
                    Booking
                  </th>
                  <th scope="col" className={TH}>
                    Status
                  </th>
                  <th scope="col" className={TH}>
                    Actions
                  </th>
                </tr>
              </thead>
              <tbody className="divide-y divide-line">
                {requests.map((request) => (
                  <RequestRow
                    key={request.id}
                    request={request}
                    reply={reply?.id === request.id ? reply : undefined}
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

function RequestRow({ request, reply }: { request: RequestView; reply: Reply | undefined }) {
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

function Actions({ request, reply }: { request: RequestView; reply: Reply | undefined }) {
  if (request.status === "RESOLVED" || request.status === "CANCELLED") {
    return <p className="text-ink-soft">No actions</p>;
  }
  const fieldId = `resolution-${request.id}`;
  const errorId = `${fieldId}-error`;
  const invalid = (reply?.errors.length ?? 0) > 0;
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
        <Form method="post" preventScrollReset className="space-y-2">
          <HydratedField />
          <input type="hidden" name="id" value={request.id} />
          <label htmlFor={fieldId} className="field-label">
            Resolution details
          </label>
          <textarea
            id={fieldId}
            name="resolution"
            rows={3}
            maxLength={RESOLUTION_MAX}
            defaultValue={reply?.resolution ?? ""}
            aria-invalid={invalid || undefined}
            aria-describedby={invalid ? errorId : undefined}
            className="field-input"
          />
          <ErrorList id={errorId} errors={reply?.errors} />
          <button type="submit" name="intent" value="resolve" className="btn-primary w-full py-2">
            Mark Resolved
          </button>
        </Form>
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

export const meta: Route.MetaFunction = () => [
  { title: "Support | Admin Dashboard | ATL Creator Studio" },
];
