import type { TestInfo } from "@playwright/test";
import type { BookingStatus } from "#app/domain/booking-status";
import { studioSession } from "#app/domain/studio-time";
import { addDays, db, jsOn, studioToday, type TestUser } from "#tests/e2e/fixtures";

/**
 * Data for the admin journeys, written straight into the server's SQLite file. The browser
 * suite shares one database, so every admin test works on its own days and its own clients
 * (unique usernames) and asserts only on those.
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
  const time = options.time ?? "10:00";
  const hours = options.hours ?? 2;
  const total = options.total ?? hours * 200;
  const { startsAt, endsAt } = studioSession(options.date, time, hours);
  const booking = db()
    .prepare(
      `INSERT INTO bookings (user_id, first_name, last_name, phone_number, email, stakeholder,
         recording_date, recording_time, guest_count, hours_needed, starts_at, ends_at,
         hourly_rate, total_cost, original_cost, status, hold_expires_at)
       VALUES (?, ?, ?, '404-555-0100', ?, 'no', ?, ?, '1', ?, ?, ?, 200, ?, ?, ?, ?)`,
    )
    .run(
      user.id,
      user.firstName,
      user.lastName,
      user.email,
      options.date,
      time,
      String(hours),
      startsAt,
      endsAt,
      total,
      total,
      options.status,
      options.status === "PENDING_PAYMENT" ? Date.now() + 30 * 60_000 : null,
    );
  const id = Number(booking.lastInsertRowid);
  if (options.paid) {
    db()
      .prepare(
        `INSERT INTO payments (booking_id, user_id, amount, payment_method, transaction_id,
           payment_details)
         VALUES (?, ?, ?, 'card', ?, '{"brand":"visa","last4":"4242"}')`,
      )
      .run(id, user.id, options.paid, `sandbox_e2e_admin_${id}`);
  }
  return id;
}
