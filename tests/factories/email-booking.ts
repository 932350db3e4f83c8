import { studioSession } from "#app/domain/studio-time";
import type { EmailBooking } from "#app/emails/templates.server";

/**
 * A session as the e-mail templates and calendar files read it (no database row): booking `id`
 * on `date` at 7 PM studio time for 2 hours, $400 to pay, no coupon or retainer hours drawn.
 */
export function emailSession(
  id: number,
  date: string,
  overrides: Partial<EmailBooking> = {},
): EmailBooking {
  return {
    id,
    status: "PENDING",
    firstName: "Ada",
    recordingDate: date,
    recordingTime: "19:00",
    hoursNeeded: "2",
    guestCount: "1",
    ...studioSession(date, "19:00", 2),
    totalCost: 400,
    discountAmount: 0,
    couponCode: null,
    isRetainer: false,
    retainerHoursDrawn: 0,
    retainerTotalHours: 8,
    ...overrides,
  };
}
