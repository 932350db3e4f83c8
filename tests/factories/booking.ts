import { type Booking, bookingServices, bookings, orders, type User } from "#db/schema";
import { addStudioDays, studioDateOf, studioSession } from "#app/domain/studio-time";
import type { FactoryDb } from "#tests/factories/database";

type NewBooking = typeof bookings.$inferInsert;

/** Whose booking: the contact fields the form copies from the profile default to theirs. */
export type BookingOwner = { id: number } & Partial<
  Pick<User, "firstName" | "lastName" | "businessName" | "phoneNumber" | "email">
>;

export type BookingInput = Partial<Omit<NewBooking, "userId">> & {
  user: BookingOwner;
  /** Studio-local day (yyyy-MM-dd); 30 days ahead unless given. */
  date?: string;
  /** Studio-local start (HH:mm). */
  time?: string;
  /** Elapsed hours, billed at `hourlyRate`. */
  hours?: number;
  /** How long a PENDING_PAYMENT booking holds its slot from now (the app's default, 30). */
  holdMinutes?: number;
  /** A hosted checkout left open on the booking's order (its expiry: `checkoutExpiresAt`). */
  checkoutSessionId?: string | null;
};

const MINUTE = 60_000;

/**
 * A booking as the booking form would leave it, written straight into the table: slot
 * instants from the studio-local day and time, cost from hours x rate, a CONFIRMED status and,
 * for PENDING_PAYMENT, a live hold, in an order of its own unless `orderId` names one. Any
 * column can be set; explicit values win.
 */
export function createBooking(db: FactoryDb, input: BookingInput): Booking {
  const {
    user,
    date = addStudioDays(studioDateOf(Date.now()), 30),
    time = "10:00",
    hours = 2,
    holdMinutes = 30,
    checkoutSessionId = null,
    ...rest
  } = input;
  const orderId =
    rest.orderId ??
    db
      .insert(orders)
      .values({
        userId: user.id,
        couponId: rest.couponId ?? null,
        checkoutSessionId,
        checkoutExpiresAt: checkoutSessionId === null ? null : (rest.checkoutExpiresAt ?? null),
      })
      .returning({ id: orders.id })
      .get().id;
  // A session keeps a plan's expiry only while claimed for it; an open checkout's is the order's.
  const columns =
    checkoutSessionId === null
      ? { ...rest, orderId }
      : { ...rest, orderId, checkoutExpiresAt: null };
  const status = columns.status ?? "CONFIRMED";
  const hourlyRate = columns.hourlyRate ?? 200;
  const totalCost = columns.totalCost ?? hours * hourlyRate;
  return db
    .insert(bookings)
    .values({
      userId: user.id,
      firstName: user.firstName ?? "Ada",
      lastName: user.lastName ?? "Lovelace",
      businessName: user.businessName ?? null,
      phoneNumber: user.phoneNumber ?? "404-555-0100",
      email: user.email ?? "ada@example.com",
      stakeholder: "no",
      recordingDate: date,
      recordingTime: time,
      guestCount: "1",
      hoursNeeded: String(hours),
      ...studioSession(date, time, hours),
      originalCost: totalCost,
      holdExpiresAt: status === "PENDING_PAYMENT" ? Date.now() + holdMinutes * MINUTE : null,
      ...columns,
      status,
      hourlyRate,
      totalCost,
    })
    .returning()
    .get();
}

type BookingService = typeof bookingServices.$inferSelect;

/** An add-on on a booking, at the service's price unless told otherwise. */
export function addBookingService(
  db: FactoryDb,
  input: {
    booking: { id: number };
    service: { id: number; price: number };
    quantity?: number;
    priceAtBooking?: number;
  },
): BookingService {
  return db
    .insert(bookingServices)
    .values({
      bookingId: input.booking.id,
      serviceId: input.service.id,
      quantity: input.quantity ?? 1,
      priceAtBooking: input.priceAtBooking ?? input.service.price,
    })
    .returning()
    .get();
}
