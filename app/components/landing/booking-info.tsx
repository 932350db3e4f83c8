import { BookingFormIsland } from "#app/components/booking/booking-form-island";
import type { BookingFormData, BookingFormReply } from "#app/components/booking/types";
import { BOOKING_GUIDELINES, RETAINER, STUDIO_RULES } from "#app/components/landing/content";
import { RATES } from "#app/components/landing/studio";
import { Icon } from "#app/components/landing/icons";
import { SectionHeader } from "#app/components/landing/section-header";
import { SectionLink } from "#app/components/site-nav";

export function BookingInfo({
  bookingForm,
  bookingReply,
}: {
  bookingForm: BookingFormData | null;
  /** The booking form's action (/'s) answering its last post. */
  bookingReply?: BookingFormReply;
}) {
  return (
    <section id="booking" aria-labelledby="booking-title" className="border-y border-line bg-white">
      <div className="section">
        <div className="grid items-center gap-10 md:grid-cols-2 md:gap-14">
          <div>
            <SectionHeader
              id="booking-title"
              eyebrow="Book the studio"
              title="Your session, your schedule"
              align="left"
            >
              Pick a date at least two days out, choose 2 to 8 hours and bring up to 4 people on
              mic, host included. We prepare the room, your engineer runs the desk and you leave
              with your files.
            </SectionHeader>
            <h3 className="mt-8 font-display text-lg font-bold">Booking guidelines</h3>
            <ul className="mt-3 space-y-3">
              {BOOKING_GUIDELINES.map((line) => (
                <li key={line} className="flex gap-3">
                  <span className="mt-0.5 flex size-6 shrink-0 items-center justify-center rounded-full bg-brand-600 text-white">
                    <Icon name="check" className="size-4" strokeWidth={2.6} />
                  </span>
                  <span>{line}</span>
                </li>
              ))}
            </ul>
          </div>
          <img
            src="/images/studio-room.svg"
            alt="Illustration of the studio: a desk with two microphones on boom arms, a camera on a tripod, a softbox light, an ON AIR sign and a window onto the Atlanta skyline."
            width={640}
            height={440}
            loading="lazy"
            decoding="async"
            className="h-auto w-full rounded-3xl bg-night-soft shadow-xl ring-1 ring-black/5"
          />
        </div>

        <div className="mt-14 grid gap-6 md:grid-cols-2">
          <div className="card p-6 sm:p-8">
            <h3 className="font-display text-xl font-bold">Hourly rates</h3>
            <p className="mt-2 text-ink-soft">An engineer and all equipment are included.</p>
            <dl className="mt-6 grid gap-4 sm:grid-cols-2 md:grid-cols-1 lg:grid-cols-2">
              <div className="rounded-xl bg-brand-50 p-5 ring-1 ring-brand-100">
                <dt className="text-sm font-semibold text-brand-700">Stakeholders</dt>
                <dd className="mt-1 font-display text-3xl font-bold">
                  ${RATES.stakeholder}
                  <span className="text-base font-semibold text-ink-soft"> / hour</span>
                </dd>
              </div>
              <div className="rounded-xl bg-paper p-5 ring-1 ring-line">
                <dt className="text-sm font-semibold text-ink-soft">Non-members</dt>
                <dd className="mt-1 font-display text-3xl font-bold">
                  ${RATES.nonMember}
                  <span className="text-base font-semibold text-ink-soft"> / hour</span>
                </dd>
              </div>
            </dl>
            <p className="mt-4 text-sm text-ink-soft">
              Stakeholders are members of the Atlanta Entrepreneur Innovation Center. A 2-hour
              session costs ${2 * RATES.stakeholder} or ${2 * RATES.nonMember}.
            </p>
          </div>
          <div className="card p-6 sm:p-8">
            <h3 className="font-display text-xl font-bold">Studio rules</h3>
            <ul className="mt-5 space-y-3.5 text-[0.9375rem]">
              {STUDIO_RULES.map((rule) => (
                <li key={rule.text} className="flex gap-3">
                  <Icon name={rule.icon} className="mt-0.5 size-5 shrink-0 text-brand-600" />
                  <span>{rule.text}</span>
                </li>
              ))}
            </ul>
          </div>
        </div>

        <div className="mt-6 grid gap-8 overflow-hidden rounded-3xl bg-night p-6 text-white sm:p-10 md:grid-cols-[1fr_1.4fr] md:items-center">
          <div>
            <p className="eyebrow text-brand-300">For regular shows</p>
            <h3 className="mt-3 font-display text-2xl font-bold md:text-3xl">Retainer package</h3>
            <p className="mt-4 flex flex-wrap items-baseline gap-x-2">
              <span className="font-display text-5xl font-bold">${RETAINER.price}</span>
              <span className="text-white/80">per month · {RETAINER.period}</span>
            </p>
            <p className="mt-4 inline-flex rounded-full bg-gold-400 px-3 py-1 text-sm font-bold text-ink">
              {RETAINER.savings}
            </p>
          </div>
          <ul className="grid gap-3 sm:grid-cols-2">
            {RETAINER.perks.map((perk) => (
              <li
                key={perk}
                className="flex items-center gap-3 rounded-xl bg-white/5 px-4 py-3 ring-1 ring-white/10"
              >
                <Icon name="check" className="size-5 shrink-0 text-brand-300" strokeWidth={2.4} />
                <span>{perk}</span>
              </li>
            ))}
          </ul>
        </div>

        <div className="mt-6">
          {bookingForm ? (
            <BookingFormIsland data={bookingForm} reply={bookingReply} />
          ) : (
            <div className="card flex flex-wrap items-center justify-between gap-4 p-6 sm:p-8">
              <p className="text-ink-soft">
                The booking form is on the home page, filled in from your profile.
              </p>
              <SectionLink id="booking-form" className="btn-primary">
                Book a session
              </SectionLink>
            </div>
          )}
        </div>
      </div>
    </section>
  );
}
