import { getFormProps } from "@conform-to/react";
import { useEffect } from "react";
import { parseWithZod } from "@conform-to/zod/v4";
import { data, Form, Link, useNavigation, useSubmit } from "react-router";
import { StartTimeSelect } from "#app/components/booking/start-time-select";
import { FormErrors } from "#app/components/ui/error-list";
import { Field } from "#app/components/ui/field";
import { HydratedField } from "#app/components/ui/hydrated-field";
import { RouteDialog } from "#app/components/ui/route-dialog";
import { type FormReply, useSchemaForm } from "#app/components/ui/use-schema-form";
import { DatabaseBusyError } from "#app/db.server";
import { earliestBookableDate } from "#app/domain/availability";
import { sessionDate, sessionTimeRange } from "#app/domain/booking-display";
import { lastBookableDate } from "#app/domain/booking-limits";
import { quoteQuerySchema, rescheduleSchema } from "#app/domain/booking-form";
import { studioDateOf } from "#app/domain/studio-time";
import { getAvailability } from "#app/models/booking.server";
import { rescheduleOwnBooking, rescheduleProblem } from "#app/workflows/reschedule.server";
import { Refusal } from "#app/domain/refusal";
import { formRefusal } from "#app/web/refusals.server";
import { requireOwnBooking } from "#app/web/own-booking.server";
import { env } from "#app/env.server";
import { readForm } from "#app/web/form.server";
import {
  retryAfterHeaders,
  takeBookingChange,
  tooManyBookingChangesMessage,
} from "#app/web/rate-limit.server";
import { clientAddressContext } from "#app/web/request-context.server";
import { redirectWithSuccess, replyWithToast } from "#app/web/toast.server";
import type { Route } from "./+types/sessions.$id.reschedule";

/** Built once; the 48-hour rule reads the clock at each check, the server's too. */
const formSchema = rescheduleSchema(Date.now);

/**
 * Reschedule: a new date and start time for the same session length, with the free start
 * times shown as on the booking form (the session's own slot does not count against it).
 * Without JavaScript "Show free times" reloads the list for the chosen date; with it the list
 * follows the date as it changes.
 */
const BACK = "/dashboard?tab=bookings";

export async function loader({ request, params, context }: Route.LoaderArgs) {
  const now = Date.now();
  const { booking } = await requireOwnBooking(request, context, params.id, { seenAt: now });
  const hours = Number(booking.hoursNeeded);
  const earliestDate = earliestBookableDate(now);
  const latestDate = lastBookableDate(studioDateOf(now), env.BOOKING_HORIZON_DAYS);
  const asked = quoteQuerySchema.safeParse({
    date: new URL(request.url).searchParams.get("recordingDate"),
    hours,
  });
  // Dates compare as text (yyyy-MM-dd): the later of the session's day and the first free one.
  const fallback = [booking.recordingDate, earliestDate].sort().at(-1) ?? earliestDate;
  const date = asked.success ? asked.data.date : fallback;
  return {
    booking: {
      id: booking.id,
      date: sessionDate(booking),
      time: sessionTimeRange(booking),
      recordingDate: booking.recordingDate,
      recordingTime: booking.recordingTime,
      hours,
    },
    problem: rescheduleProblem(booking, now),
    earliestDate,
    latestDate,
    availability: {
      date,
      hours,
      // The session's own start is shown, but it is not a move.
      times: getAvailability(date, hours, now, env.BUFFER_MINUTES, booking.id).map((option) =>
        date === booking.recordingDate && option.time === booking.recordingTime
          ? { ...option, available: false, reason: "current" as const }
          : option,
      ),
    },
  };
}

/** A limited move's Retry-After reaches the page too, not only its data request. */
export const headers: Route.HeadersFunction = retryAfterHeaders;

export async function action({ request, params, context }: Route.ActionArgs) {
  const { user, booking } = await requireOwnBooking(request, context, params.id);
  const now = Date.now();
  const formData = await readForm(request);
  const submission = parseWithZod(formData, { schema: rescheduleSchema(now) });
  const fail = (
    message: string,
    {
      title,
      status,
      field,
      headers,
    }: { title: string; status: number; field?: string; headers?: Record<string, string> },
  ) =>
    replyWithToast(
      context,
      formData,
      {
        result: submission.reply(
          field ? { fieldErrors: { [field]: [message] } } : { formErrors: [message] },
        ),
      },
      {
        type: "error",
        message: title,
        description: message,
      },
      { status, headers },
    );
  if (submission.status !== "success") {
    return data({ result: submission.reply() }, { status: 400 });
  }
  // A move is a calendar write and a mail: limited with bookings, per account and per address.
  const retryAfter = await takeBookingChange(context.get(clientAddressContext), user.id);
  if (retryAfter !== null) {
    return fail(tooManyBookingChangesMessage(retryAfter), {
      title: "Too Many Changes",
      status: 429,
      headers: { "Retry-After": String(retryAfter) },
    });
  }
  try {
    const moved = rescheduleOwnBooking(
      { bookingId: booking.id, userId: user.id, ...submission.value },
      now,
    );
    return redirectWithSuccess(BACK, {
      message: "Session rescheduled",
      description: `Booking #${moved.id} is now on ${sessionDate(moved)}, ${sessionTimeRange(moved)}.`,
    });
  } catch (error) {
    if (error instanceof DatabaseBusyError) {
      return fail("The studio's system is busy. Please try again.", {
        title: "Reschedule Failed",
        status: 503,
      });
    }
    if (!(error instanceof Refusal)) throw error;
    if (error.kind === "not-found") throw data("Not found", { status: 404 });
    const { toast, init, field } = formRefusal(error);
    return fail(error.message, { title: toast.message, status: init.status, field });
  }
}

export default function RescheduleSession({ loaderData, actionData }: Route.ComponentProps) {
  const { booking, problem } = loaderData;
  return (
    <RouteDialog title="Reschedule session" closeTo={BACK}>
      <p className="text-ink-soft">
        Booking #{booking.id} is on {booking.date}, {booking.time} (Atlanta time). Choose a new
        start for the same {booking.hours} hours; the price stays the same.
      </p>
      {problem ? (
        <>
          <p className="mt-4" role="alert">
            {problem}
          </p>
          <Link to={BACK} preventScrollReset className="btn-primary mt-6 w-full">
            Back to my sessions
          </Link>
        </>
      ) : (
        <RescheduleForm loaderData={loaderData} result={actionData?.result} />
      )}
    </RouteDialog>
  );
}

function RescheduleForm({
  loaderData,
  result,
}: {
  loaderData: Route.ComponentProps["loaderData"];
  result: FormReply;
}) {
  const { availability, earliestDate, latestDate } = loaderData;
  const [form, fields] = useSchemaForm({
    id: "reschedule-form",
    schema: formSchema,
    lastResult: result,
    defaultValue: { recordingDate: availability.date, recordingTime: "" },
  });
  const submit = useSubmit();
  const busy = useNavigation().state === "submitting";
  // The free times of the new date come from this route's loader, which leaves the session's
  // own slot out. A year being typed (0002-…) is not a date to look up yet.
  const showFreeTimes = (date: string) => {
    if (/^\d{4}-\d{2}-\d{2}$/.test(date) && date >= earliestDate && date !== availability.date) {
      submit({ recordingDate: date }, { method: "get", replace: true, preventScrollReset: true });
    }
  };
  // A date changed before the page's JavaScript ran had no change event to follow.
  // biome-ignore lint/correctness/useExhaustiveDependencies: once, as the page starts to run.
  useEffect(() => {
    const input = document.forms.namedItem(form.id)?.elements.namedItem("recordingDate");
    if (input instanceof HTMLInputElement) showFreeTimes(input.value);
  }, []);
  return (
    <Form method="post" preventScrollReset {...getFormProps(form)} className="mt-4 space-y-4">
      <HydratedField />
      <FormErrors id={form.errorId} errors={form.errors} />
      <Field
        label="New date"
        meta={fields.recordingDate}
        type="date"
        hint="At least 48 hours ahead. The studio is open 24/7."
        min={earliestDate}
        max={latestDate}
        onChange={(event) => showFreeTimes(event.currentTarget.value)}
      />
      <noscript>
        <button type="submit" formMethod="get" formNoValidate className="btn-secondary text-ink">
          Show free times
        </button>
      </noscript>
      <StartTimeSelect
        meta={fields.recordingTime}
        availability={availability}
        date={availability.date}
        hours={availability.hours}
      />
      <div className="flex flex-col gap-3 pt-2 sm:flex-row-reverse">
        <button type="submit" className="btn-primary sm:flex-1" disabled={busy}>
          {busy ? "Moving…" : "Move my session"}
        </button>
        <Link to={BACK} preventScrollReset className="btn-secondary text-ink sm:flex-1">
          Keep current time
        </Link>
      </div>
    </Form>
  );
}

export const meta: Route.MetaFunction = () => [
  { title: "Reschedule session | ATL Creator Studio" },
  { name: "robots", content: "noindex" },
];
