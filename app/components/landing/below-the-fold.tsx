import type { BookingFormData, BookingFormReply } from "#app/components/booking/types";
import { Audiences } from "#app/components/landing/audiences";
import { BookingInfo } from "#app/components/landing/booking-info";
import { Faq } from "#app/components/landing/faq";
import { Features } from "#app/components/landing/features";
import { Partnership } from "#app/components/landing/partnership";

/** Its own chunk, so the first screen hydrates without these texts. */
export function BelowTheFold({
  bookingForm,
  bookingReply,
}: {
  /** Null on /dashboard: the form is /'s (docs/product.md "Client dashboard"). */
  bookingForm: BookingFormData | null;
  bookingReply?: BookingFormReply;
}) {
  return (
    <>
      <Features />
      <Audiences />
      <Faq />
      <BookingInfo bookingForm={bookingForm} bookingReply={bookingReply} />
      <Partnership />
    </>
  );
}
