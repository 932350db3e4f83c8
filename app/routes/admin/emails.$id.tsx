import { data, Link } from "react-router";
import { AdminPage } from "#app/components/admin/admin-page";
import { StatusBadge } from "#app/components/dashboard/status-badge";
import { formatStudioInstant } from "#app/domain/booking-display";
import { parseId } from "#app/domain/ids";
import { OUTBOX_STATUS_LABELS, OUTBOX_TONES } from "#app/domain/outbox";
import { getEmail } from "#app/models/email.server";
import type { Route } from "./+types/emails.$id";

/**
 * One e-mail as the customer would receive it: its headers, the text body, and the HTML body
 * in a sandboxed frame. The HTML is served by its own resource route under a policy that
 * runs no script and loads nothing, so a hostile value that slipped into a template could not
 * act in the admin's session.
 */
const when = (epochMs: number) => formatStudioInstant(epochMs, "MMMM d, yyyy h:mm a");

export async function loader({ params }: Route.LoaderArgs) {
  const id = parseId(params.id);
  const email = id === null ? undefined : getEmail(id);
  if (!email) throw data("E-mail not found", { status: 404 });
  return {
    email: {
      id: email.id,
      to: email.toAddress,
      subject: email.subject,
      kind: email.kind,
      status: email.status,
      attempts: email.attempts,
      created: when(email.createdAt),
      sent: email.sentAt === null ? null : when(email.sentAt),
      lastError: email.lastError,
      bookingId: email.bookingId,
      text: email.text,
      attachments: (email.attachments ?? []).map((attachment, index) => ({
        index,
        filename: attachment.filename,
        contentType: attachment.contentType,
      })),
    },
  };
}

export default function EmailPreview({ loaderData }: Route.ComponentProps) {
  const { email } = loaderData;
  const rows: [string, React.ReactNode][] = [
    ["To", email.to],
    ["Subject", email.subject],
    ["Kind", email.kind],
    [
      "Status",
      <StatusBadge
        key="status"
        tone={OUTBOX_TONES[email.status]}
        label={OUTBOX_STATUS_LABELS[email.status]}
      />,
    ],
    ["Attempts", email.attempts],
    ["Created", email.created],
    ["Sent", email.sent ?? "Not sent"],
  ];
  if (email.lastError) rows.push(["Last error", email.lastError]);
  if (email.bookingId !== null) {
    rows.push([
      "Booking",
      <Link key="booking" to={`/admin/bookings/${email.bookingId}`} className="underline">
        Booking #{email.bookingId}
      </Link>,
    ]);
  }
  return (
    <AdminPage
      title={`E-mail #${email.id}`}
      actions={
        <Link to="/admin/emails" className="btn-secondary py-2 text-ink">
          Back to Emails
        </Link>
      }
    >
      <dl className="grid gap-x-6 gap-y-2 sm:grid-cols-[10rem_1fr]">
        {rows.map(([label, value]) => (
          <div key={label} className="contents">
            <dt className="font-semibold text-ink-soft">{label}</dt>
            <dd className="break-words">{value}</dd>
          </div>
        ))}
        <div className="contents">
          <dt className="font-semibold text-ink-soft">Attachments</dt>
          <dd>
            {email.attachments.length === 0 ? (
              "None"
            ) : (
              <ul>
                {email.attachments.map((attachment) => (
                  <li key={attachment.index}>
                    <a
                      href={`/admin/emails/${email.id}/attachments/${attachment.index}`}
                      download={attachment.filename}
                      className="underline"
                    >
                      {attachment.filename}
                    </a>{" "}
                    <span className="text-ink-soft">({attachment.contentType})</span>
                  </li>
                ))}
              </ul>
            )}
          </dd>
        </div>
      </dl>

      <h3 className="mt-8 font-display text-xl font-bold">HTML version</h3>
      <iframe
        title={`HTML version of e-mail #${email.id}`}
        src={`/admin/emails/${email.id}/html`}
        sandbox=""
        className="mt-3 h-[36rem] w-full rounded-xl bg-white ring-1 ring-line"
      />

      <h3 className="mt-8 font-display text-xl font-bold">Text version</h3>
      <pre className="mt-3 overflow-x-auto whitespace-pre-wrap break-words rounded-xl bg-paper p-4 font-mono text-sm ring-1 ring-line">
        {email.text}
      </pre>
    </AdminPage>
  );
}

export const meta: Route.MetaFunction = ({ data }) => [
  {
    title: `${data?.email.subject ?? "E-mail"} | Emails | Admin Dashboard | ATL Creator Studio`,
  },
];
