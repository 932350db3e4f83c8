import { useRef } from "react";
import { useModalWhenHydrated } from "#app/components/ui/use-modal-when-hydrated";

/** docs/product.md "Booking-confirmed dialog". Rendered open by the server. */
export function BookedDialog() {
  const ref = useRef<HTMLDialogElement>(null);
  const modal = useModalWhenHydrated(ref);
  return (
    <>
      {modal ? null : <div aria-hidden="true" className="fixed inset-0 z-40 bg-night/60" />}
      <dialog
        ref={ref}
        open
        aria-labelledby="booked-title"
        aria-describedby="booked-text"
        className="fixed inset-0 z-50 m-auto w-[min(28rem,calc(100%-2rem))] rounded-2xl bg-white p-8 text-center shadow-2xl backdrop:bg-night/60"
      >
        <p aria-hidden="true" className="text-5xl">
          🎉
        </p>
        <h2 id="booked-title" className="mt-4 font-display text-2xl font-bold">
          Your session is booked!
        </h2>
        <p id="booked-text" className="mt-3 text-ink-soft">
          Thank you for booking with us. Your booking is confirmed, and the details are in your
          dashboard.
        </p>
        <a href="/#dashboard" className="btn-primary mt-6 w-full">
          OK
        </a>
      </dialog>
    </>
  );
}
