import { Form, Link } from "react-router";
import { AdminPage, EmptyList } from "#app/components/admin/admin-page";
import { SelectFilter } from "#app/components/admin/filter-form";
import { ColumnHeads, TableRegion, TD } from "#app/components/admin/table";
import { Pagination } from "#app/components/admin/pagination";
import { StatusBadge } from "#app/components/dashboard/status-badge";
import { HydratedField } from "#app/components/ui/hydrated-field";
import { DatabaseBusyError, writeTransaction } from "#app/db.server";
import { formatStudioInstant } from "#app/domain/booking-display";
import { parseId } from "#app/domain/ids";
import {
  OUTBOX_STATUS_LABELS,
  OUTBOX_TONES,
  type OutboxStatus,
  outboxStatusParam,
} from "#app/domain/outbox";
import { listEmailsPage, retryEmail } from "#app/models/email.server";
import { readPage } from "#app/models/pagination.server";
import { samePageUrl } from "#app/web/same-page.server";
import { readForm } from "#app/web/form.server";
import { redirectWithSuccess, replyWithToast } from "#app/web/toast.server";
import type { Route } from "./+types/emails";

/**
 * The outbox (docs/product.md "E-mail"): every e-mail the site wrote, newest first, with its
 * delivery status, so an offline demo shows what customers would receive. A FAILED e-mail can
 * be sent again.
 */
const when = (epochMs: number) => formatStudioInstant(epochMs, "MMMM d, yyyy h:mm a");

export async function loader({ request }: Route.LoaderArgs) {
  const url = new URL(request.url);
  const status = outboxStatusParam(url.searchParams.get("status"));
  const page = listEmailsPage({ status }, readPage(url));
  return {
    status,
    page: page.page,
    hasNext: page.hasNext,
    emails: page.rows.map((row) => ({
      id: row.id,
      to: row.toAddress,
      subject: row.subject,
      kind: row.kind,
      status: row.status,
      attempts: row.attempts,
      created: when(row.createdAt),
      sent: row.sentAt === null ? null : when(row.sentAt),
      lastError: row.lastError,
    })),
  };
}

/** Retry: a FAILED e-mail goes back to the queue with a fresh count of attempts. */
export async function action({ request, context }: Route.ActionArgs) {
  const formData = await readForm(request);
  const fail = (description: string, status: number) =>
    replyWithToast(
      context,
      formData,
      { failed: true },
      { type: "error", message: "Error retrying e-mail", description },
      { status },
    );
  if (formData.get("intent") !== "retry") return fail("Please use the Retry button.", 400);
  const raw = formData.get("id");
  const id = parseId(typeof raw === "string" ? raw : undefined);
  if (id === null) return fail("This e-mail was not found.", 404);
  try {
    if (!writeTransaction((tx) => retryEmail(tx, id, Date.now()))) {
      return fail(`E-mail #${id} is not failed (or not there): there is nothing to retry.`, 409);
    }
  } catch (error) {
    if (error instanceof DatabaseBusyError) {
      return fail("The system is busy right now. Please try again.", 503);
    }
    throw error;
  }
  return redirectWithSuccess(samePageUrl(request), {
    message: "E-mail queued again",
    description: `E-mail #${id} will be sent on the next delivery run.`,
  });
}

export default function Emails({ loaderData }: Route.ComponentProps) {
  const { emails, status, page, hasNext } = loaderData;
  return (
    <AdminPage
      title="Emails"
      description="Every e-mail the site has written to customers, newest first. Without SMTP they stay here as Pending: open one to read what the customer would receive."
    >
      <SelectFilter
        name="status"
        label="Status"
        value={status ?? ""}
        options={[
          { value: "", label: "All" },
          ...(Object.keys(OUTBOX_STATUS_LABELS) as OutboxStatus[]).map((value) => ({
            value,
            label: OUTBOX_STATUS_LABELS[value],
          })),
        ]}
      />
      <div className="mt-6">
        {emails.length === 0 ? (
          <EmptyList>No e-mails found</EmptyList>
        ) : (
          <TableRegion label="E-mails">
            <table className="w-full min-w-[60rem] divide-y divide-line">
              <ColumnHeads
                columns={[
                  "To",
                  "Subject",
                  "Kind",
                  "Status",
                  "Attempts",
                  "Created / Sent",
                  "Last error",
                  "Actions",
                ]}
                className="bg-paper"
              />
              <tbody className="divide-y divide-line">
                {emails.map((email) => (
                  <tr key={email.id} id={`email-${email.id}`}>
                    <td className={`${TD} break-all`}>{email.to}</td>
                    <td className={`${TD} max-w-xs`}>
                      <Link to={`/admin/emails/${email.id}`} className="font-semibold underline">
                        {email.subject}
                      </Link>
                    </td>
                    <td className={`${TD} whitespace-nowrap`}>{email.kind}</td>
                    <td className={TD}>
                      <StatusBadge
                        tone={OUTBOX_TONES[email.status]}
                        label={OUTBOX_STATUS_LABELS[email.status]}
                      />
                    </td>
                    <td className={TD}>{email.attempts}</td>
                    <td className={`${TD} whitespace-nowrap`}>
                      <p>{email.created}</p>
                      <p className="text-ink-soft">
                        {email.sent ? `Sent ${email.sent}` : "Not sent"}
                      </p>
                    </td>
                    <td className={`${TD} max-w-xs break-words`}>{email.lastError ?? "—"}</td>
                    <td className={TD}>
                      {email.status === "FAILED" ? (
                        <Form method="post" preventScrollReset>
                          <HydratedField />
                          <input type="hidden" name="id" value={email.id} />
                          <button
                            type="submit"
                            name="intent"
                            value="retry"
                            aria-label={`Retry e-mail #${email.id}`}
                            className="btn-secondary py-2 text-ink"
                          >
                            Retry
                          </button>
                        </Form>
                      ) : (
                        <span className="text-ink-soft">—</span>
                      )}
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </TableRegion>
        )}
        <Pagination page={page} hasNext={hasNext} label="E-mail pages" />
      </div>
    </AdminPage>
  );
}

export const meta: Route.MetaFunction = () => [
  { title: "Emails | Admin Dashboard | ATL Creator Studio" },
];
