import { type FieldMetadata, getFormProps } from "@conform-to/react";
import * as Headless from "@headlessui/react";
import { useEffect } from "react";
import { Form, useFetcher, useNavigation } from "react-router";
import { GUEST_OPTIONS, HOUR_OPTIONS } from "#app/domain/availability";
import { bookingFormSchema } from "#app/domain/booking-form";
import type { OpenHold } from "#app/domain/booking-limits";
import {
  formatDollars,
  formatQuoteAmount,
  HOURLY_RATES,
  priceBooking,
  quoteLines,
  RETAINER_PACKAGE,
} from "#app/domain/pricing";
import { retainerHoursLeft, retainerHoursToDraw, retainerWindow } from "#app/domain/retainer";
import { ErrorList } from "#app/components/ui/error-list";
import { Choice, Field, Fieldset, SelectField } from "#app/components/ui/field";
import { HydratedField } from "#app/components/ui/hydrated-field";
import { PriceLine, PriceTotal } from "#app/components/booking/price-lines";
import { StartTimeSelect } from "#app/components/booking/start-time-select";
import { SeriesFields } from "#app/components/booking/series-fields";
import { useSchemaForm } from "#app/components/ui/use-schema-form";
import type {
  AppliedCoupon,
  Availability,
  BookingFormData,
  BookingFormReply,
} from "#app/components/booking/types";
import {
  claimDefaults,
  WaitlistClaimNotice,
  WaitlistJoin,
} from "#app/components/booking/waitlist-offer";

type RepeatMeta = FieldMetadata<
  { every: string; count: string; skip: string[] },
  Record<string, unknown>,
  string[]
>;

/**
 * Built once (a schema costs more than the rest of the render): the 48-hour rule reads the clock
 * at each check, and the server checks again at submit.
 */
const formSchema = bookingFormSchema(Date.now);

const HOURS = HOUR_OPTIONS.map((option) => ({ value: String(option), label: `${option} hours` }));
const GUESTS = GUEST_OPTIONS.map((option) => ({
  value: String(option),
  label: `${option} ${option === 1 ? "guest" : "guests"}`,
}));

/**
 * Every button is a real submit to `/?index`, so the form works without JavaScript
 * (docs/product.md "Screens"); the summary uses the same `priceBooking` the server charges with.
 */
export default function BookingForm({
  data,
  reply,
}: {
  data: BookingFormData;
  /** On /dashboard there is none: it posts to /. */
  reply?: BookingFormReply;
}) {
  // conform keeps its first defaults: a profile saved on the same page must start afresh.
  return (
    <BookingFormFields key={JSON.stringify([data.prefill, data.claim])} data={data} reply={reply} />
  );
}

function BookingFormFields({
  data,
  reply,
}: {
  data: BookingFormData;
  reply: BookingFormReply | undefined;
}) {
  const navigation = useNavigation();
  const coupon: AppliedCoupon | null = reply ? reply.coupon : null;
  const [form, fields] = useSchemaForm({
    id: "booking-form",
    schema: formSchema,
    lastResult: reply?.result,
    defaultValue: {
      ...data.prefill,
      stakeholder: data.prefill?.stakeholder ?? "no",
      recordingDate: data.earliestDate,
      recordingTime: "",
      guestCount: "1",
      hoursNeeded: "2",
      // The schema's input type for `repeat` is `unknown` (it turns "No repeat" into none).
      repeat: { every: "none", count: "4" } as never,
      ...claimDefaults(data.claim),
    },
    checkedIntent: "book",
  });

  const value = form.value ?? {};
  const date = String(value.recordingDate ?? data.earliestDate);
  const hours = Number(value.hoursNeeded) || 2;
  const buysRetainer = value.isRetainer === "on";
  const selected = new Set([value.selectedServices ?? []].flat().map(Number));
  const chosenServices = data.services.filter((service) => selected.has(service.id));
  const drawn = buysRetainer ? 0 : retainerHoursToDraw(data.retainer, date, hours);
  const price = priceBooking({
    hours,
    stakeholder: String(value.stakeholder ?? "no"),
    servicePrices: chosenServices.map((service) => service.price),
    coupon,
    buysRetainer,
    retainerHoursDrawn: drawn,
  });

  const availability = useAvailability(date, hours, reply?.availability ?? data.availability);
  const busy = navigation.state !== "idle" && navigation.formData?.get("intent") === "book";

  // Turning the retainer on sets 8 hours (docs/product.md "States and transitions").
  const onRetainerToggle = (event: React.ChangeEvent<HTMLInputElement>) => {
    if (event.currentTarget.checked) {
      form.update({ name: fields.hoursNeeded.name, value: String(RETAINER_PACKAGE.hours) });
    }
  };

  return (
    <Form
      method="post"
      action="/?index#booking-form"
      preventScrollReset
      {...getFormProps(form)}
      className="card p-6 sm:p-8"
    >
      <h3 className="font-display text-2xl font-bold">Book your session</h3>
      <p className="mt-1 text-ink-soft">
        {data.signedIn
          ? "Your details are filled in from your profile. Times are studio time (Atlanta)."
          : "Sign in to book: you can explore dates, times and prices first. Times are studio time (Atlanta)."}
      </p>
      {/* Enter in a field submits with the form's first submit button: make that "book",
          not the coupon's Apply or the no-JS "Show free times". */}
      <button
        type="submit"
        name="intent"
        value="book"
        tabIndex={-1}
        aria-hidden="true"
        className="sr-only"
      >
        Book
      </button>
      <HydratedField />
      <WaitlistClaimNotice claim={data.claim} />
      <ErrorList id={form.errorId} errors={form.errors} />
      {reply?.unpaidHolds ? <UnpaidHoldsNotice {...reply.unpaidHolds} /> : null}

      <Fieldset legend="Your details" className="mt-6">
        <div className="mt-3 grid gap-4 sm:grid-cols-2">
          <Field label="First name" meta={fields.firstName} type="text" autoComplete="given-name" />
          <Field label="Last name" meta={fields.lastName} type="text" autoComplete="family-name" />
          <Field
            label="Business name (optional)"
            meta={fields.businessName}
            type="text"
            autoComplete="organization"
          />
          <Field label="Phone number" meta={fields.phoneNumber} type="tel" autoComplete="tel" />
          <Field
            label="Email"
            meta={fields.email}
            type="email"
            autoComplete="email"
            className="sm:col-span-2"
          />
        </div>
        <Fieldset
          legend="Are you a stakeholder of the innovation centre?"
          legendClassName="field-label"
          meta={fields.stakeholder}
          className="mt-4"
        >
          <div className="mt-2 flex gap-6">
            {(["yes", "no"] as const).map((answer) => (
              <Choice
                key={answer}
                meta={fields.stakeholder}
                type="radio"
                value={answer}
                label={
                  answer === "yes"
                    ? `Yes ($${HOURLY_RATES.stakeholder}/hour)`
                    : `No ($${HOURLY_RATES.nonMember}/hour)`
                }
                className="flex items-center gap-2"
                inputClassName="size-5 accent-brand-600"
              />
            ))}
          </div>
        </Fieldset>
      </Fieldset>

      <Fieldset legend="Date and time" className="mt-8">
        <div className="mt-3 grid gap-4 sm:grid-cols-2">
          <Field
            label="Recording date"
            meta={fields.recordingDate}
            type="date"
            hint="At least 48 hours ahead. The studio is open 24/7."
            min={data.earliestDate}
            max={data.latestDate}
          />
          <SelectField
            label="Hours"
            meta={fields.hoursNeeded}
            hint="Minimum 2 hours."
            options={HOURS}
          />
          <StartTimeSelect
            meta={fields.recordingTime}
            availability={availability}
            date={date}
            hours={hours}
          />
          <SelectField
            label="Guests"
            meta={fields.guestCount}
            hint="Up to 4 people on mic, host included."
            options={GUESTS}
          />
        </div>
        <noscript>
          <button
            type="submit"
            name="intent"
            value="check"
            formNoValidate
            className="btn-secondary mt-4 text-ink"
          >
            Show free times and update the price
          </button>
        </noscript>
        <WaitlistJoin availability={availability} chosen={String(value.recordingTime ?? "")} />
      </Fieldset>

      <SeriesFields
        repeat={(fields.repeat as unknown as RepeatMeta).getFieldset()}
        date={date}
        time={String(value.recordingTime ?? "")}
        hours={hours}
        initial={reply?.seriesPreview ?? null}
      />

      <Fieldset legend="Retainer package" className="mt-8">
        <Choice
          meta={fields.isRetainer}
          type="checkbox"
          onChange={onRetainerToggle}
          label={`Buy the retainer package: ${formatDollars(RETAINER_PACKAGE.price)} per month`}
          labelClassName="font-semibold"
          description={
            <>
              30-day period, 8 studio hours, up to 4 episodes, 1 social clip per episode, editing,
              priority booking, flexible scheduling: over $600 in monthly savings. This booking is
              your first session (up to 8 hours); book the rest of your hours later at no hourly
              charge.
              {buysRetainer ? <RetainerPeriod date={date} /> : null}
            </>
          }
          className="mt-3 flex items-start gap-3 rounded-xl bg-paper p-4 ring-1 ring-line"
        />
        {data.retainer && !buysRetainer ? (
          <p className="mt-3 text-sm text-ink-soft">
            Your retainer package has {retainerHoursLeft(data.retainer)} of{" "}
            {data.retainer.totalHours} hours left for sessions from {data.retainer.startDate} to
            before {data.retainer.endDate}; they are used first, at no hourly charge.
          </p>
        ) : null}
      </Fieldset>

      {data.services.length > 0 ? (
        <Fieldset legend="Additional services" meta={fields.selectedServices} className="mt-8">
          <ul className="mt-3 grid gap-3 sm:grid-cols-2">
            {data.services.map((service) => (
              <li key={service.id} className="rounded-xl p-3 ring-1 ring-line">
                <Choice
                  meta={fields.selectedServices}
                  type="checkbox"
                  value={String(service.id)}
                  label={`${service.name} · ${formatDollars(service.price)}`}
                  labelClassName="text-sm font-semibold"
                  description={service.description}
                />
              </li>
            ))}
          </ul>
        </Fieldset>
      ) : null}

      <CouponField coupon={coupon} meta={fields.couponEntry} />

      <PriceSummary
        price={price}
        hours={hours}
        buysRetainer={buysRetainer}
        drawn={drawn}
        services={chosenServices}
        coupon={coupon}
      />

      <button
        type="submit"
        name="intent"
        value="book"
        className="btn-primary mt-6 w-full"
        disabled={busy}
      >
        {busy
          ? "Booking…"
          : price.totalCost === 0
            ? "Book Free Session"
            : "Book and Continue to Payment"}
      </button>
      <p className="mt-3 text-center text-sm text-ink-soft">
        {price.totalCost === 0
          ? "Nothing to pay: your session is confirmed right away."
          : "Full payment confirms your booking. Cancel at least 24 hours ahead for a full refund."}
      </p>
    </Form>
  );
}

function useAvailability(date: string, hours: number, initial: Availability): Availability {
  const fetcher = useFetcher<Availability>();
  const { load } = fetcher;
  const matchesInitial = initial.date === date && initial.hours === hours;
  useEffect(() => {
    if (!matchesInitial && /^\d{4}-\d{2}-\d{2}$/.test(date)) {
      load(`/api/availability?date=${date}&hours=${hours}`);
    }
  }, [date, hours, matchesInitial, load]);
  if (matchesInitial) return initial;
  const fresh = fetcher.data;
  return fresh && fresh.date === date && fresh.hours === hours ? fresh : { date, hours, times: [] };
}

function RetainerPeriod({ date }: { date: string }) {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(date)) return null;
  const window = retainerWindow(date);
  return (
    <span className="mt-2 block text-sm text-ink">
      <span className="font-semibold">Package period:</span> from{" "}
      <output>{window.startDate}</output> (your first session) to before{" "}
      <output>{window.endDate}</output>.
    </span>
  );
}

function CouponField({
  coupon,
  meta,
}: {
  coupon: AppliedCoupon | null;
  meta: FieldMetadata<unknown, Record<string, unknown>, string[]>;
}) {
  return (
    <Fieldset legend="Promotional code" className="mt-8">
      {coupon ? (
        <Headless.Field className="mt-3">
          <Headless.Label className="field-label">Promo code</Headless.Label>
          <div className="flex flex-wrap items-end gap-3">
            <div className="min-w-48 flex-1">
              <Headless.Input
                value={coupon.code}
                disabled
                readOnly
                className="field-input bg-paper"
              />
            </div>
            <input type="hidden" name="couponCode" value={coupon.code} />
            <button
              type="submit"
              name="intent"
              value="remove-coupon"
              formNoValidate
              className="btn-secondary text-ink"
            >
              Remove
            </button>
          </div>
        </Headless.Field>
      ) : (
        <Field
          label="Promo code"
          meta={meta}
          type="text"
          className="mt-3"
          onKeyDown={(event) => {
            // Enter in the promo field applies the code rather than booking.
            if (event.key !== "Enter") return;
            event.preventDefault();
            event.currentTarget.form
              ?.querySelector<HTMLButtonElement>('button[value="apply-coupon"]')
              ?.click();
          }}
          autoCapitalize="characters"
          autoComplete="off"
          maxLength={50}
          beside={
            <button
              type="submit"
              name="intent"
              value="apply-coupon"
              formNoValidate
              className="btn-secondary text-ink"
            >
              Apply
            </button>
          }
        />
      )}
    </Fieldset>
  );
}

function UnpaidHoldsNotice({ message, holds }: { message: string; holds: OpenHold[] }) {
  return (
    <div role="alert" className="mt-4 rounded-md border border-red-300 bg-red-50 p-4 text-ink">
      <p>{message}</p>
      <ul className="mt-2 list-disc pl-5">
        {holds.map((hold) => (
          <li key={hold.id}>
            Session on {hold.recordingDate} at {hold.recordingTime}:{" "}
            <a
              className="underline"
              href={
                hold.seriesId
                  ? `/checkout/series/${hold.seriesId}`
                  : `/dashboard/sessions/${hold.id}/pay`
              }
            >
              Pay
            </a>{" "}
            or{" "}
            <a className="underline" href={`/dashboard/sessions/${hold.id}/cancel`}>
              cancel
            </a>
          </li>
        ))}
      </ul>
    </div>
  );
}

function PriceSummary({
  price,
  hours,
  buysRetainer,
  drawn,
  services,
  coupon,
}: {
  price: ReturnType<typeof priceBooking>;
  hours: number;
  buysRetainer: boolean;
  drawn: number;
  services: BookingFormData["services"];
  coupon: AppliedCoupon | null;
}) {
  return (
    <section
      aria-labelledby="price-summary-title"
      className="mt-8 rounded-xl bg-paper p-5 ring-1 ring-line"
    >
      <h4 id="price-summary-title" className="font-display text-lg font-bold">
        Price summary
      </h4>
      <dl className="mt-3 space-y-2 text-[0.9375rem]" aria-live="polite">
        {quoteLines({
          hours,
          hourlyRate: price.hourlyRate,
          buysRetainer,
          retainerHoursDrawn: drawn,
          services,
          discountAmount: price.discountAmount,
          couponCode: coupon?.code ?? null,
        }).map((line) => (
          <PriceLine key={line.key} label={line.label} amount={formatQuoteAmount(line)} />
        ))}
        <PriceTotal amount={formatDollars(price.totalCost)} />
      </dl>
    </section>
  );
}
