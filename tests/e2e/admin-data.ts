import type { TestInfo } from "@playwright/test";
import type { BookingStatus } from "#app/domain/booking-status";
import { addDays, db, jsOn, studioToday, type TestUser } from "#tests/e2e/fixtures";
import { createBooking } from "#tests/factories/booking";
import { CARD_DETAILS, createPayment } from "#tests/factories/payment";

/**
 * Data for the admin journeys, written into the server's SQLite file by tests/factories. The
 * browser suite shares one database, so every admin test works on its own days and its own
 * clients (unique usernames) and asserts only on those.
 */

/**
 * A studio day no other test of the run uses, within `band` (each admin spec has its own band
 * of 40 days, from 400 days ahead: customer journeys use days 10-250) by project and journey.
 */
export function adminDay(testInfo: TestInfo, band: number, journey: number): string {
  const projectDays = jsOn(testInfo) ? 0 : 20;
  return addDays(studioToday(), 400 + band * 40 + projectDays + journey);
}

/** A session of `user` written straight into SQLite; `paid` adds a card payment of that amount. */
export function insertSession(
  user: TestUser,
  options: {
    date: string;
    time?: string;
    hours?: number;
    status: BookingStatus;
    total?: number;
    paid?: number;
  },
): number {
  const booking = createBooking(db(), {
    user,
    date: options.date,
    time: options.time ?? "10:00",
    hours: options.hours ?? 2,
    status: options.status,
    ...(options.total === undefined ? {} : { totalCost: options.total }),
  });
  if (options.paid) {
    createPayment(db(), {
      booking,
      amount: options.paid,
      paymentMethod: "card",
      transactionId: `sandbox_e2e_admin_${booking.id}`,
      paymentDetails: CARD_DETAILS,
    });
  }
  return booking.id;
}
