import { useRef } from "react";
import { Link, useNavigate } from "react-router";
import { useModalWhenHydrated } from "#app/components/ui/use-modal-when-hydrated";

const CLOSE_TO = "/dashboard?tab=bookings";

/** docs/product.md "Complete Your Payment": "a further dialog". Rendered open by the server. */
export function PaidDialog({
  paid,
}: {
  paid: { bookingId: number; date: string; time: string; statusLabel: string };
}) {
  const ref = useRef<HTMLDialogElement>(null);
  const navigate = useNavigate();
  const modal = useModalWhenHydrated(ref);
  return (
    <>
      {modal ? null : <div aria-hidden="true" className="fixed inset-0 z-40 bg-night/60" />}
      <dialog
        ref={ref}
        open
        aria-labelledby="paid-title"
        aria-describedby="paid-text"
        onCancel={(event) => {
          event.preventDefault();
          navigate(CLOSE_TO, { preventScrollReset: true, replace: true });
        }}
        className="fixed inset-0 z-50 m-auto w-[min(30rem,calc(100%-2rem))] rounded-2xl bg-white p-8 text-ink shadow-2xl backdrop:bg-night/60"
      >
        <p aria-hidden="true" className="text-center text-5xl">
          ✅
        </p>
        <h2 id="paid-title" className="mt-4 text-center font-display text-2xl font-bold">
          Payment received
        </h2>
        <p id="paid-text" className="mt-3 text-center text-ink-soft">
          Thank you! Booking #{paid.bookingId} on {paid.date}, {paid.time} is paid and now{" "}
          <strong className="text-ink">{paid.statusLabel}</strong>.
        </p>
        <h3 className="mt-6 font-display text-base font-bold">What happens next</h3>
        <ol className="mt-2 list-decimal space-y-2 pl-5 text-[0.9375rem]">
          <li>Our staff review your booking next.</li>
          <li>You get an e-mail confirmation once it is confirmed.</li>
          <li>Your session's details are in My Sessions at any time: choose View on its row.</li>
        </ol>
        <div className="mt-8 flex flex-wrap justify-end gap-3">
          <Link
            to={`/dashboard/sessions/${paid.bookingId}`}
            preventScrollReset
            className="btn-secondary text-ink"
          >
            View details
          </Link>
          <Link to={CLOSE_TO} preventScrollReset replace className="btn-primary">
            OK
          </Link>
        </div>
      </dialog>
    </>
  );
}
