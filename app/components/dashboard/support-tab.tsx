import { getFormProps } from "@conform-to/react";
import { Form, useNavigation } from "react-router";
import {
  CONTACT_METHODS,
  type ContactMethod,
  DESCRIPTION_LIMITS,
  ISSUE_TYPES,
  supportRequestSchema,
} from "#app/domain/support";
import type { SupportStatus } from "#app/domain/support-status";
import type { PublicUser } from "#app/domain/user";
import type { SupportTabData } from "#app/components/dashboard/types";
import { ErrorList } from "#app/components/ui/error-list";
import { Choice, Field, Fieldset, SelectField, TextareaField } from "#app/components/ui/field";
import { HydratedField } from "#app/components/ui/hydrated-field";
import {
  type FormReply,
  type IntentReply,
  replyTo,
  useSchemaForm,
} from "#app/components/ui/use-schema-form";

/** Without JavaScript the answer to a refused post opens at the form, not the page top. */
const FORM_ACTION = "/dashboard?tab=support#support-form";

export default function SupportTab({
  user,
  data,
  reply,
}: {
  user: PublicUser;
  data: SupportTabData;
  reply?: IntentReply;
}) {
  return (
    <div data-slot="dashboard-support" className="space-y-10">
      {/* A new request remounts the form, so a sent one is not left filled in (with JS). */}
      <SupportForm
        key={data.requests[0]?.id ?? 0}
        user={user}
        bookings={data.bookings}
        result={replyTo(reply, "support")}
      />
      <RequestList requests={data.requests} more={data.more} />
    </div>
  );
}

function SupportForm({
  user,
  bookings,
  result,
}: {
  user: PublicUser;
  bookings: SupportTabData["bookings"];
  result: FormReply;
}) {
  const [form, fields] = useSchemaForm({
    id: "support",
    schema: supportRequestSchema,
    lastResult: result,
    defaultValue: {
      name: `${user.firstName} ${user.lastName}`,
      email: user.email,
      phoneNumber: user.phoneNumber,
      preferredContactMethod: "EMAIL",
    },
  });
  const navigation = useNavigation();
  const busy =
    navigation.state === "submitting" && navigation.formData?.get("intent") === "support";

  return (
    <section id="support-form" aria-labelledby="support-form-title">
      <h3 id="support-form-title" className="font-display text-xl font-bold">
        Get help
      </h3>
      <p className="mt-1 text-ink-soft">
        Tell us what went wrong or what you need, and the studio team will get back to you.
      </p>
      <Form
        method="post"
        action={FORM_ACTION}
        preventScrollReset
        {...getFormProps(form)}
        className="mt-6 space-y-5"
      >
        <HydratedField />
        <input type="hidden" name="intent" value="support" />
        <ErrorList id={form.errorId} errors={form.errors} />
        <div className="grid gap-5 sm:grid-cols-2">
          <SelectField
            label="What is it about?"
            meta={fields.issueType}
            options={[
              { value: "", label: "Choose a topic" },
              ...Object.entries(ISSUE_TYPES).map(([value, label]) => ({ value, label })),
            ]}
          />
          <SelectField
            label="Booking (optional)"
            meta={fields.bookingId}
            options={[
              { value: "", label: "Not about a booking" },
              ...bookings.map((booking) => ({ value: String(booking.id), label: booking.label })),
            ]}
          />
        </div>

        <TextareaField
          label="Description"
          meta={fields.description}
          hint={`${DESCRIPTION_LIMITS.min} to ${DESCRIPTION_LIMITS.max} characters: what happened, and when.`}
          rows={5}
        />

        <Fieldset
          legend="How should we contact you?"
          legendClassName="field-label"
          meta={fields.preferredContactMethod}
        >
          <div className="mt-2 flex flex-wrap gap-6">
            {(Object.entries(CONTACT_METHODS) as [ContactMethod, string][]).map(
              ([value, label]) => (
                <Choice
                  key={value}
                  meta={fields.preferredContactMethod}
                  type="radio"
                  value={value}
                  label={label}
                  className="flex items-center gap-2"
                  inputClassName="size-5 accent-brand-600"
                />
              ),
            )}
          </div>
        </Fieldset>

        <div className="grid gap-5 sm:grid-cols-2">
          <Field label="Name" meta={fields.name} type="text" autoComplete="name" />
          <Field label="Email" meta={fields.email} type="email" autoComplete="email" />
          <Field
            label="Phone number"
            meta={fields.phoneNumber}
            type="tel"
            hint="Needed if you would like a call."
            autoComplete="tel"
          />
        </div>

        <button type="submit" className="btn-primary" disabled={busy}>
          {busy ? "Sending…" : "Send request"}
        </button>
      </Form>
    </section>
  );
}

const STATUS_STYLES: Record<SupportStatus, string> = {
  PENDING: "bg-amber-100 text-amber-900 ring-amber-300",
  IN_PROGRESS: "bg-sky-100 text-sky-900 ring-sky-300",
  RESOLVED: "bg-emerald-100 text-emerald-900 ring-emerald-300",
  CANCELLED: "bg-red-100 text-red-900 ring-red-300",
};

function RequestList({ requests, more }: { requests: SupportTabData["requests"]; more: boolean }) {
  return (
    <section id="support-requests" aria-labelledby="support-requests-title">
      <h3 id="support-requests-title" className="font-display text-xl font-bold">
        Your requests
      </h3>
      {requests.length === 0 ? (
        <p className="mt-3 text-ink-soft">
          You have not sent a request yet. Once you do, you can follow its status here.
        </p>
      ) : (
        <ul className="mt-4 space-y-4">
          {requests.map((request) => (
            <li key={request.id} className="rounded-xl p-4 ring-1 ring-line sm:p-5">
              <article aria-labelledby={`support-request-${request.id}`}>
                <div className="flex flex-wrap items-center justify-between gap-3">
                  <h4 id={`support-request-${request.id}`} className="font-semibold">
                    {request.issueType}
                  </h4>
                  <span
                    className={`rounded-full px-3 py-1 text-sm font-semibold ring-1 ${STATUS_STYLES[request.status]}`}
                  >
                    <span className="sr-only">Status: </span>
                    {request.statusLabel}
                  </span>
                </div>
                <dl className="mt-2 flex flex-wrap gap-x-6 gap-y-1 text-sm text-ink-soft">
                  <div className="flex gap-1">
                    <dt>Sent</dt>
                    <dd className="font-medium text-ink">{request.submitted}</dd>
                  </div>
                  {request.booking ? (
                    <div className="flex gap-1">
                      <dt>About</dt>
                      <dd className="font-medium text-ink">{request.booking}</dd>
                    </div>
                  ) : null}
                </dl>
                <p className="mt-3 break-words whitespace-pre-line">{request.description}</p>
                {request.resolution ? (
                  <div className="mt-3 rounded-lg bg-emerald-50 p-3 text-sm">
                    <p className="font-semibold text-emerald-900">Resolution</p>
                    <p className="mt-1 break-words whitespace-pre-line">{request.resolution}</p>
                  </div>
                ) : null}
              </article>
            </li>
          ))}
        </ul>
      )}
      {more ? (
        <p className="mt-4 text-sm text-ink-soft">
          Showing your {requests.length} most recent requests.
        </p>
      ) : null}
    </section>
  );
}
