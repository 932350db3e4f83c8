import { getFormProps, getInputProps } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod/v4";
import { useMemo } from "react";
import { data, Form, Link, redirect, useNavigation } from "react-router";
import { PriceLine, PriceTotal } from "../components/booking/price-lines";
import { Field, ErrorList } from "../components/ui/field";
import { HydratedField } from "../components/ui/hydrated-field";
import { type FormReply, useSchemaForm } from "../components/ui/use-schema-form";
import { holdDeadline, sessionDate, sessionTimeRange } from "../domain/booking-display";
import { STATUS_LABELS } from "../domain/booking-status";
import { type CardInput, cardFormSchema, formatExpiry, SANDBOX_CARDS } from "../domain/card";
import { formatDollars } from "../domain/pricing";
import { parseId } from "../domain/ids";
import { studioDateOf } from "../domain/studio-time";
import { getBookingServices, getOwnBooking, isPayable } from "../models/booking.server";
import { requireUser } from "../services/auth.server";
import { env } from "../services/env.server";
import { readForm } from "../services/form.server";
import { logError } from "../services/log.server";
import { paymentProvider } from "../services/payments/provider.server";
import { chargeSandboxCard, notPayableMessage } from "../services/payments/sandbox.server";
import {
  CheckoutUnavailableError,
  PAYMENT_SERVICE_UNAVAILABLE_MESSAGE,
} from "../services/payments/stripe.server";
import { replyWithToast } from "../services/toast.server";
import type { Route } from "./+types/checkout";

/** The current studio year and month: a card is valid through the end of its month. */
function studioMonth(now: number) {
  const [year, month] = studioDateOf(now).split("-").map(Number);
  return { year: year ?? 0, month: month ?? 0 };
}

async function requireOwnBooking(request: Request, bookingId: string) {
  const user = await requireUser(request);
  const id = parseId(bookingId);
  const booking = id === null ? undefined : getOwnBooking(id, user.id);
  // Another customer's booking is as missing as one that does not exist.
  if (!booking) throw data("Not found", { status: 404 });
  return booking;
}

export async function loader({ request, params }: Route.LoaderArgs) {
  const booking = await requireOwnBooking(request, params.bookingId);
  const now = Date.now();
  return {
    booking: {
      id: booking.id,
      status: booking.status,
      date: sessionDate(booking),
      time: sessionTimeRange(booking),
      hours: booking.hoursNeeded,
      guests: booking.guestCount,
      isRetainer: booking.isRetainer,
      originalCost: booking.originalCost,
      discountAmount: booking.discountAmount,
      couponCode: booking.couponCode,
      totalCost: booking.totalCost,
      services: getBookingServices(booking.id),
    },
    payable: isPayable(booking, now),
    problem: isPayable(booking, now) ? null : notPayableMessage(booking, now),
    heldUntil: booking.holdExpiresAt ? holdDeadline(booking.holdExpiresAt) : null,
    provider: paymentProvider().checkout,
    testCards: env.PAYMENT_PROVIDER === "sandbox",
  };
}

export async function action({ request, params, context }: Route.ActionArgs) {
  const booking = await requireOwnBooking(request, params.bookingId);
  const now = Date.now();
  const provider = paymentProvider();
  const formData = await readForm(request);

  if (!isPayable(booking, now)) {
    const message = notPayableMessage(booking, now);
    return replyWithToast(
      context,
      formData,
      {
        result: parseWithZod(formData, { schema: cardFormSchema(studioMonth(now)) }).reply({
          formErrors: [message],
          hideFields: ["cardNumber", "cvv"],
        }),
      },
      { type: "error", message: "Payment Failed", description: message },
      { status: 409 },
    );
  }

  if (provider.checkout === "hosted") {
    try {
      const { url } = await provider.createHostedCheckout(booking, env.APP_URL);
      return redirect(url);
    } catch (error) {
      // The provider logs its own failures and says what the customer may be told.
      if (!(error instanceof CheckoutUnavailableError)) logError("checkout", error);
      const message =
        error instanceof CheckoutUnavailableError
          ? error.message
          : PAYMENT_SERVICE_UNAVAILABLE_MESSAGE;
      return replyWithToast(
        context,
        formData,
        { result: null },
        { type: "error", message: "Payment Failed", description: message },
        { status: 502 },
      );
    }
  }

  const submission = parseWithZod(formData, { schema: cardFormSchema(studioMonth(now)) });
  const hidden = ["cardNumber", "cvv"];
  if (submission.status !== "success") {
    return data({ result: submission.reply({ hideFields: hidden }) }, { status: 400 });
  }
  const charge = chargeSandboxCard(booking, submission.value as CardInput, now);
  if (!charge.ok) {
    return replyWithToast(
      context,
      formData,
      { result: submission.reply({ formErrors: [charge.message], hideFields: hidden }) },
      { type: "error", message: "Payment Failed", description: charge.message },
      { status: 402 },
    );
  }
  return redirect(`/booking-success?session_id=${encodeURIComponent(charge.transactionId)}`);
}

export default function Checkout({ loaderData, actionData }: Route.ComponentProps) {
  const { booking, payable, problem, heldUntil, provider, testCards } = loaderData;
  return (
    <div className="mx-auto grid max-w-5xl gap-8 px-5 py-12 sm:px-8 md:grid-cols-[1fr_1.1fr] md:py-16">
      <section aria-labelledby="summary-title" className="card h-fit p-6 sm:p-8">
        <p className="eyebrow">Booking #{booking.id}</p>
        <h1 id="summary-title" className="mt-2 font-display text-2xl font-bold">
          {payable ? "Complete Your Payment" : "Your booking"}
        </h1>
        <dl className="mt-6 space-y-3 text-[0.9375rem]">
          <Row label="Date" value={booking.date} />
          <Row label="Time" value={`${booking.time} (Atlanta time)`} />
          <Row label="Duration" value={`${booking.hours} hours`} />
          <Row label="Guests" value={booking.guests} />
          <Row label="Status" value={STATUS_LABELS[booking.status]} />
          {booking.isRetainer ? (
            <Row label="Package" value="Retainer package (8 hours, 30 days)" />
          ) : null}
          {booking.services.map((service) => (
            <PriceLine
              key={service.serviceId}
              label={service.name}
              amount={formatDollars(service.priceAtBooking)}
            />
          ))}
          {booking.discountAmount > 0 ? (
            <PriceLine
              label={`Discount${booking.couponCode ? ` (${booking.couponCode})` : ""}`}
              amount={`−${formatDollars(booking.discountAmount)}`}
            />
          ) : null}
          <PriceTotal amount={formatDollars(booking.totalCost)} />
        </dl>
        {payable && heldUntil ? (
          <p className="mt-6 rounded-xl bg-gold-300/30 p-4 text-sm">
            We hold this time slot for you until <strong>{heldUntil}</strong>. If it is not paid by
            then, the slot is released.
          </p>
        ) : null}
      </section>

      <section aria-labelledby="pay-title" className="card h-fit p-6 sm:p-8">
        <h2 id="pay-title" className="font-display text-xl font-bold">
          {payable ? "Pay by card" : "Nothing to pay here"}
        </h2>
        {payable ? (
          provider === "hosted" ? (
            <HostedCheckout total={booking.totalCost} />
          ) : (
            <CardForm total={booking.totalCost} result={actionData?.result} testCards={testCards} />
          )
        ) : (
          <>
            <p className="mt-3 text-ink-soft">{problem}</p>
            <div className="mt-6 flex flex-wrap gap-3">
              <Link to="/dashboard" className="btn-primary">
                View My Dashboard
              </Link>
              <Link to="/#booking" className="btn-secondary text-ink">
                Book a session
              </Link>
            </div>
          </>
        )}
      </section>
    </div>
  );
}

function Row({ label, value }: { label: string; value: string }) {
  return (
    <div className="flex justify-between gap-4">
      <dt className="text-ink-soft">{label}</dt>
      <dd className="text-right font-medium">{value}</dd>
    </div>
  );
}

function HostedCheckout({ total }: { total: number }) {
  const busy = useNavigation().state !== "idle";
  return (
    <Form method="post" className="mt-4">
      <p className="text-ink-soft">
        You pay on Stripe's secure checkout page and come back here when it is done.
      </p>
      <button type="submit" className="btn-primary mt-6 w-full" disabled={busy}>
        {busy ? "Opening checkout…" : `Pay ${formatDollars(total)} securely`}
      </button>
    </Form>
  );
}

function CardForm({
  total,
  result,
  testCards,
}: {
  total: number;
  result: FormReply;
  testCards: boolean;
}) {
  const schema = useMemo(() => cardFormSchema(studioMonth(Date.now())), []);
  const [form, fields] = useSchemaForm("card-form", schema, result, { paymentMethod: "card" });
  const busy = useNavigation().state !== "idle";
  return (
    <Form method="post" {...getFormProps(form)} className="mt-4 space-y-4">
      {testCards ? (
        <div className="rounded-xl bg-paper p-4 text-sm ring-1 ring-line">
          <p className="font-semibold">Test mode: no real card is charged.</p>
          <p className="mt-1 text-ink-soft">
            Use {groupDigits(SANDBOX_CARDS.success)} to pay, {groupDigits(SANDBOX_CARDS.declined)}{" "}
            to see a decline; any future expiry and any 3-digit CVV.
          </p>
        </div>
      ) : null}
      <HydratedField />
      <ErrorList id={form.errorId} errors={form.errors} />
      <input type="hidden" name="paymentMethod" value="card" />
      <Field label="Cardholder name" meta={fields.cardName} type="text" autoComplete="cc-name" />
      <Field
        label="Card number"
        meta={fields.cardNumber}
        type="text"
        inputMode="numeric"
        autoComplete="cc-number"
        maxLength={19}
        placeholder="1234 5678 9012 3456"
      />
      <div className="grid grid-cols-2 gap-4">
        <ExpiryField meta={fields.expirationDate} />
        <Field
          label="CVV"
          meta={fields.cvv}
          type="password"
          inputMode="numeric"
          autoComplete="cc-csc"
          maxLength={3}
        />
      </div>
      <button type="submit" className="btn-primary w-full" disabled={busy}>
        {busy ? "Paying…" : `Pay ${formatDollars(total)}`}
      </button>
    </Form>
  );
}

/** MM/YY with the slash inserted as the customer types (spec section 5). */
function ExpiryField({
  meta,
}: {
  // biome-ignore lint/suspicious/noExplicitAny: conform field metadata.
  meta: any;
}) {
  const props = getInputProps(meta, { type: "text", ariaDescribedBy: `${meta.id}-hint` });
  return (
    <div>
      <label htmlFor={meta.id} className="field-label">
        Expiration date
      </label>
      <input
        {...props}
        key={props.key}
        inputMode="numeric"
        autoComplete="cc-exp"
        maxLength={5}
        placeholder="MM/YY"
        onInput={(event) => {
          const input = event.currentTarget;
          input.value = formatExpiry(input.value);
        }}
        className="field-input"
      />
      <p id={`${meta.id}-hint`} className="sr-only">
        Month and year, MM/YY
      </p>
      <ErrorList id={meta.errorId} errors={meta.errors} />
    </div>
  );
}

function groupDigits(number: string): string {
  return number.replace(/(\d{4})(?=\d)/g, "$1 ");
}

export const meta: Route.MetaFunction = () => [
  { title: "Complete Your Payment | ATL Creator Studio" },
  { name: "robots", content: "noindex" },
];
