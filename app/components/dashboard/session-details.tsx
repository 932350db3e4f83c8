import type { SessionDetails } from "#app/components/dashboard/types";
import { PriceLine, PriceTotal } from "#app/components/booking/price-lines";
import { StatusBadge } from "#app/components/dashboard/status-badge";

/** docs/product.md "Session Details": the dialog and the printable page. */
export function SessionDetailsBody({
  details,
  headingLevel = 3,
}: {
  details: SessionDetails;
  headingLevel?: 2 | 3;
}) {
  const Heading = headingLevel === 2 ? "h2" : "h3";
  const heading = "font-display text-base font-bold";
  return (
    <div className="space-y-6 text-[0.9375rem]">
      <div className="flex flex-wrap items-center justify-between gap-3">
        <p className="font-semibold">Booking #{details.id}</p>
        <StatusBadge tone={details.tone} label={details.statusLabel} />
      </div>

      <section
        aria-labelledby={`when-${details.id}`}
        className="rounded-xl bg-paper p-4 ring-1 ring-line"
      >
        <Heading id={`when-${details.id}`} className="sr-only">
          When and where
        </Heading>
        <dl className="grid gap-3 sm:grid-cols-2">
          <Item label="Date" value={details.date} />
          <Item label="Time (Atlanta time)" value={details.time} />
          <div className="sm:col-span-2">
            <dt className="text-sm text-ink-soft">Studio location</dt>
            <dd className="font-semibold">
              <address className="not-italic">
                {details.studio.name}, {details.studio.street}, {details.studio.locality}
              </address>
            </dd>
          </div>
          {details.cancellationReason ? (
            <div className="sm:col-span-2">
              <dt className="text-sm text-ink-soft">Cancellation</dt>
              <dd className="font-semibold">{details.cancellationReason}</dd>
            </div>
          ) : null}
        </dl>
      </section>

      <section aria-labelledby={`price-${details.id}`}>
        <Heading id={`price-${details.id}`} className={heading}>
          Session and price
        </Heading>
        <dl className="mt-3 space-y-2">
          <PriceLine label="Hours" amount={details.hours} />
          <PriceLine label="Guests" amount={details.guests} />
          <PriceLine label="Rate" amount={details.rate} />
          {details.retainerHoursDrawn > 0 ? (
            <PriceLine label="From your retainer" amount={`${details.retainerHoursDrawn} hours`} />
          ) : null}
          {details.services.map((service) => (
            <PriceLine key={service.id} label={service.name} amount={service.price} />
          ))}
          {details.discount ? (
            <>
              <PriceLine label="Before discount" amount={details.originalCost} />
              <PriceLine
                label={`Discount${details.couponCode ? ` (${details.couponCode})` : ""}`}
                amount={`−${details.discount}`}
              />
            </>
          ) : null}
          <PriceTotal amount={details.total} />
        </dl>
      </section>

      <section aria-labelledby={`payments-${details.id}`}>
        <Heading id={`payments-${details.id}`} className={heading}>
          Payments and refunds
        </Heading>
        {details.payments.length === 0 ? (
          <p className="mt-2 text-ink-soft">No payments yet.</p>
        ) : (
          <ul className="mt-3 divide-y divide-line rounded-xl ring-1 ring-line">
            {details.payments.map((payment) => (
              <li key={payment.id} className="flex flex-wrap justify-between gap-x-4 gap-y-1 p-3">
                <span>
                  <span className="block font-semibold">
                    {payment.kind} · {payment.method}
                  </span>
                  <span className="block text-sm text-ink-soft">{payment.date}</span>
                </span>
                <span className="font-semibold tabular-nums">
                  {payment.kind === "Refund" ? `−${payment.amount}` : payment.amount}
                </span>
              </li>
            ))}
          </ul>
        )}
      </section>

      <section aria-labelledby={`customer-${details.id}`}>
        <Heading id={`customer-${details.id}`} className={heading}>
          Booked by
        </Heading>
        <dl className="mt-3 grid gap-3 sm:grid-cols-2">
          <Item label="Name" value={details.customer.name} />
          <Item label="Business" value={details.customer.business} />
          <Item label="E-mail" value={details.customer.email} />
          <Item label="Phone" value={details.customer.phone} />
        </dl>
      </section>
    </div>
  );
}

function Item({ label, value }: { label: string; value: string }) {
  return (
    <div className="min-w-0">
      <dt className="text-sm text-ink-soft">{label}</dt>
      <dd className="font-semibold break-words">{value}</dd>
    </div>
  );
}
