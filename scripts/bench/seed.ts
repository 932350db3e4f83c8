import Database from "better-sqlite3";
import type { BookingStatus } from "#app/domain/booking-status";
import { addStudioDays, studioDateOf, studioSession } from "#app/domain/studio-time";

/**
 * Fills a database the app has already migrated with `count` bookings like a real studio's
 * calendar: one room, so live sessions never overlap (eight two-hour slots a day, which makes
 * 100,000 bookings reach back decades), most in the past and done, some upcoming, a few
 * cancelled or waiting for payment, each paid one with its payment row and each with its
 * history line, spread over a few thousand customers. Payments are what the Sales tab reads:
 * each paid booking's charge when it was booked, and for about half of the cancelled ones a
 * charge and its refund (full, or less the 50% late fee); about a third of the bookings are at
 * the stakeholder rate and a fifth of the customers are members, so every customer type has
 * sales. Plain SQL in one transaction (migration 0005's triggers keep the sales rollup as the
 * rows go in): seconds, not the minutes the API would take.
 */
export type SeedPlan = {
  count: number;
  /** The bench customer: gets exactly OWN_BOOKINGS of them, past and upcoming. */
  customerId: number;
  /** The date the availability benchmark asks about: the same two bookings at every scale. */
  availabilityDate: string;
  now: number;
};

export const OWN_BOOKINGS = 20;
const SLOTS = ["06:00", "08:00", "10:00", "12:00", "14:00", "16:00", "18:00", "20:00"];
const HOURS = 2;
const RATE = 100;
/** Shares of the seeded calendar: stakeholder bookings, member customers, refunded cancellations. */
const STAKEHOLDER_SHARE = 0.3;
const MEMBER_SHARE = 0.2;
const REFUNDED_SHARE = 0.5;
const DAY_MS = 24 * 60 * 60 * 1000;
const PAID: readonly BookingStatus[] = [
  "PENDING",
  "CONFIRMED",
  "RECORDED",
  "POST_PRODUCTION",
  "COMPLETED",
];

/** A small deterministic generator, so every run seeds the same calendar. */
function random(seed: number) {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

type Slot = { date: string; time: string; future: boolean };

/** The slots to fill: the availability day's two, upcoming ones, then the past backwards. */
function slotsFor(plan: SeedPlan, next: () => number): Slot[] {
  const today = studioDateOf(plan.now);
  const slots: Slot[] = [
    { date: plan.availabilityDate, time: "10:00", future: true },
    { date: plan.availabilityDate, time: "14:00", future: true },
  ];
  // A busy studio: up to a thousand upcoming sessions over the next year, about a third of
  // each day's slots taken.
  const upcoming = Math.min(Math.round(plan.count * 0.3), 1000);
  for (let day = 3; slots.length < upcoming + 2; day += 1) {
    const date = addStudioDays(today, day);
    if (date === plan.availabilityDate) continue;
    for (const time of SLOTS) {
      if (next() < 0.35 && slots.length < upcoming + 2) slots.push({ date, time, future: true });
    }
  }
  for (let day = 1; slots.length < plan.count; day += 1) {
    const date = addStudioDays(today, -day);
    for (const time of SLOTS) {
      if (slots.length < plan.count) slots.push({ date, time, future: false });
    }
  }
  return slots;
}

function statusFor(slot: Slot, startsAt: number, now: number, roll: number): BookingStatus {
  if (roll < 0.1) return "CANCELLED";
  if (slot.future) {
    if (roll < 0.13) return "PENDING_PAYMENT";
    if (roll < 0.2) return "PENDING";
    return "CONFIRMED";
  }
  if (now - startsAt < 14 * DAY_MS) return roll < 0.5 ? "RECORDED" : "POST_PRODUCTION";
  return "COMPLETED";
}

export function seedBookings(dbPath: string, plan: SeedPlan): void {
  const sqlite = new Database(dbPath);
  sqlite.pragma("busy_timeout = 5000");
  const next = random(plan.count);
  const insertUser = sqlite.prepare(
    `INSERT INTO users (username, password_hash, first_name, last_name, phone_number, email, is_member, created_at)
     VALUES (?, 'not-a-hash: seeded for the bench, cannot log in', ?, 'Bench', '404-555-0100', ?, ?, ?)`,
  );
  const insertBooking = sqlite.prepare(
    `INSERT INTO bookings (user_id, first_name, last_name, phone_number, email, stakeholder,
       recording_date, recording_time, guest_count, hours_needed, starts_at, ends_at, hourly_rate,
       total_cost, original_cost, status, hold_expires_at, cancellation_reason, cancelled_at, created_at)
     VALUES (@userId, @firstName, 'Bench', '404-555-0100', @email, @stakeholder, @date, @time, '2',
       @hours, @startsAt, @endsAt, @rate, @total, @total, @status, @holdExpiresAt, @reason,
       @cancelledAt, @createdAt)`,
  );
  const insertPayment = sqlite.prepare(
    `INSERT INTO payments (booking_id, user_id, amount, payment_method, payment_date, transaction_id, payment_details)
     VALUES (?, ?, ?, 'card', ?, ?, '{"brand":"visa","last4":"4242"}')`,
  );
  const insertRefund = sqlite.prepare(
    `INSERT INTO payments (booking_id, user_id, amount, payment_method, payment_date, transaction_id, payment_details)
     VALUES (?, ?, ?, 'refund', ?, ?, '{"refundOf":"seeded"}')`,
  );
  const insertHistory = sqlite.prepare(
    `INSERT INTO booking_history (booking_id, actor_user_id, from_status, to_status, note, created_at)
     VALUES (?, ?, NULL, ?, 'Seeded for the bench', ?)`,
  );

  sqlite
    .transaction(() => {
      const userCount = Math.max(10, Math.round(plan.count / 30));
      const userIds: number[] = [];
      for (let i = 0; i < userCount; i += 1) {
        const created = plan.now - Math.floor(next() * 3 * 365) * DAY_MS;
        const result = insertUser.run(
          `bench-${i}`,
          `Customer${i}`,
          `bench${i}@example.com`,
          next() < MEMBER_SHARE ? 1 : 0,
          created,
        );
        userIds.push(Number(result.lastInsertRowid));
      }
      const slots = slotsFor(plan, next);
      // Every n-th booking is the bench customer's, so they own past and upcoming ones.
      const ownEvery = Math.floor(slots.length / OWN_BOOKINGS);
      slots.forEach((slot, index) => {
        const own = index % ownEvery === 0 && index / ownEvery < OWN_BOOKINGS;
        const userId = own ? plan.customerId : (userIds[Math.floor(next() * userIds.length)] ?? 0);
        const { startsAt, endsAt } = studioSession(slot.date, slot.time, HOURS);
        const onAvailabilityDay = slot.date === plan.availabilityDate;
        const status = onAvailabilityDay
          ? "CONFIRMED"
          : statusFor(slot, startsAt, plan.now, next());
        const createdAt = Math.min(plan.now, startsAt - Math.ceil(next() * 30) * DAY_MS);
        const booking = insertBooking.run({
          userId,
          firstName: `Customer${userId}`,
          email: `bench${userId}@example.com`,
          date: slot.date,
          time: slot.time,
          hours: String(HOURS),
          startsAt,
          endsAt,
          stakeholder: next() < STAKEHOLDER_SHARE ? "yes" : "no",
          rate: RATE,
          total: RATE * HOURS,
          status,
          holdExpiresAt: status === "PENDING_PAYMENT" ? plan.now + 30 * 60_000 : null,
          reason: status === "CANCELLED" ? "Plans changed" : null,
          cancelledAt: status === "CANCELLED" ? createdAt + DAY_MS : null,
          createdAt,
        });
        const bookingId = Number(booking.lastInsertRowid);
        insertHistory.run(bookingId, userId, status, createdAt);
        if (PAID.includes(status)) {
          insertPayment.run(bookingId, userId, RATE * HOURS, createdAt, `bench-${bookingId}`);
        } else if (status === "CANCELLED" && next() < REFUNDED_SHARE) {
          // Paid when booked, refunded when cancelled: in full, or less the late fee.
          const refund = next() < 0.8 ? RATE * HOURS : (RATE * HOURS) / 2;
          insertPayment.run(bookingId, userId, RATE * HOURS, createdAt, `bench-${bookingId}`);
          const refundedAt = Math.min(plan.now, createdAt + DAY_MS);
          insertRefund.run(bookingId, userId, -refund, refundedAt, `bench-refund-${bookingId}`);
        }
      });
    })
    .immediate();
  sqlite.pragma("wal_checkpoint(TRUNCATE)");
  sqlite.close();
}
