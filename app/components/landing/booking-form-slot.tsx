import { Link } from "react-router";
import type { PublicUser } from "../../models/user.server";
import { Icon } from "./icons";
import { STUDIO } from "./studio";

/**
 * SLOT FOR THE BOOKING FORM (spec section 2, "Booking section"). The real form arrives in a
 * later issue and replaces this component's body; until then it says honestly how to book.
 * Keep the props: the form needs the signed-in user to prefill name, e-mail and phone.
 */
export function BookingFormSlot({ user }: { user: PublicUser | null }) {
  return (
    <div
      data-slot="booking-form"
      className="card flex flex-col gap-6 p-6 sm:p-8 md:flex-row md:items-center md:justify-between md:gap-10"
    >
      <div className="flex gap-4">
        <span className="hidden size-12 shrink-0 items-center justify-center rounded-xl bg-brand-50 text-brand-600 ring-1 ring-brand-100 sm:flex">
          <Icon name="calendar" className="size-6" />
        </span>
        <div>
          <h3 className="font-display text-xl font-bold">Book your session</h3>
          <p className="mt-2 max-w-xl leading-relaxed text-ink-soft">
            {user
              ? "Online booking opens here soon — call or e-mail us to book today."
              : "Booking is for signed-in customers, so your sessions, payments and receipts stay in one place. Creating an account takes a minute."}
          </p>
        </div>
      </div>
      {user ? (
        <ul className="flex shrink-0 flex-col gap-3 sm:flex-row md:flex-col lg:flex-row">
          <li>
            <a href={STUDIO.phoneHref} className="btn-primary w-full">
              <Icon name="phone" className="size-5" />
              Call {STUDIO.phone}
            </a>
          </li>
          <li>
            <a
              href={`mailto:${STUDIO.email}?subject=${encodeURIComponent("Studio booking")}`}
              className="btn-secondary w-full text-ink"
            >
              <Icon name="mail" className="size-5" />
              E-mail us<span className="sr-only"> at {STUDIO.email}</span>
            </a>
          </li>
        </ul>
      ) : (
        <Link to="/auth" className="btn-primary shrink-0 self-start md:self-auto">
          Sign in to book
          <Icon name="arrow" className="size-5" />
        </Link>
      )}
    </div>
  );
}
