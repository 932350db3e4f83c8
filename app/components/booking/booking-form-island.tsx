import { lazy, Suspense } from "react";
import type { BookingFormData, BookingFormReply } from "#app/components/booking/types";

/**
 * Hydrates when it comes near the screen: its code stays out of the landing page's first load,
 * and until then the server's HTML is a complete form that posts without JavaScript.
 */
function whenNear(id: string): Promise<void> {
  if (typeof document === "undefined") return Promise.resolve();
  const target = document.getElementById(id);
  if (!target || !("IntersectionObserver" in window)) return Promise.resolve();
  return new Promise((resolve) => {
    const start = () => {
      observer.disconnect();
      target.removeEventListener("focusin", start);
      target.removeEventListener("pointerdown", start);
      resolve();
    };
    const observer = new IntersectionObserver(
      (entries) => {
        if (entries.some((entry) => entry.isIntersecting)) start();
      },
      { rootMargin: "600px 0px" },
    );
    observer.observe(target);
    target.addEventListener("focusin", start);
    target.addEventListener("pointerdown", start);
  });
}

const BookingForm = lazy(() =>
  whenNear("booking-form-island").then(() => import("#app/components/booking/booking-form")),
);

export function BookingFormIsland({
  data,
  reply,
}: {
  data: BookingFormData;
  reply?: BookingFormReply;
}) {
  return (
    <div id="booking-form-island">
      <Suspense fallback={<p className="card p-8 text-ink-soft">Loading the booking form…</p>}>
        <BookingForm data={data} reply={reply} />
      </Suspense>
    </div>
  );
}
