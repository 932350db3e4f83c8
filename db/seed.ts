/**
 * Demo data for a local run: `npm run seed` (DATABASE_PATH picks the file, as for the server).
 *
 * Idempotent: every part is keyed on something unique (usernames, coupon codes, service names,
 * "this customer has no bookings yet") and skipped when present, all in one IMMEDIATE
 * transaction, so running it twice, or beside a serving site, changes nothing the second time.
 * Dates are relative to today in the studio's zone, so the demo always has past and upcoming
 * sessions.
 */
import { randomBytes } from "node:crypto";
import { eq, sql } from "drizzle-orm";
import { db } from "#app/db.server";
import {
  addStudioDays,
  STUDIO_TIME_ZONE,
  studioDateOf,
  studioSession,
} from "#app/domain/studio-time";
import { passwordWeakness } from "#app/domain/password";
import { insertPayment } from "#app/models/receipt.server";
import { hashPassword } from "#app/models/user.server";
import { env } from "#app/env.server";
import { passwordEstimatorReady } from "#app/web/passwords.server";
import {
  bookingHistory,
  bookingServices,
  bookings,
  orders,
  coupons,
  services,
  technicalAssistanceRequests,
  users,
} from "#db/schema";
import { BOOKING_STATUSES, type BookingStatus } from "#app/domain/booking-status";

type Tx = Parameters<Parameters<typeof db.transaction>[0]>[0];

const MINUTE = 60 * 1000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;
const RETAINER_PRICE = 999;

const now = Date.now();
const today = studioDateOf(now);

// ---------------------------------------------------------------------------------------------
// Users

interface SeedUser {
  username: string;
  password: string;
  generated?: boolean;
  isAdmin?: boolean;
  isMember?: boolean;
  isStakeholder?: boolean;
  firstName: string;
  lastName: string;
  businessName: string | null;
  phoneNumber: string;
  email: string;
}

const adminUsername = process.env.ADMIN_USERNAME?.trim() || "admin";
const adminPassword = process.env.ADMIN_PASSWORD || randomBytes(12).toString("base64url");

const seedUsers: SeedUser[] = [
  {
    username: adminUsername,
    password: adminPassword,
    generated: !process.env.ADMIN_PASSWORD,
    isAdmin: true,
    firstName: "Studio",
    lastName: "Admin",
    businessName: "Atlanta Podcast & Video Studio",
    phoneNumber: "404-555-0100",
    email: "admin@studio.example",
  },
  {
    username: "demo",
    password: "demo-password-123",
    firstName: "Jordan",
    lastName: "Rivera",
    businessName: "Rivera Talks",
    phoneNumber: "404-555-0101",
    email: "demo@studio.example",
  },
  {
    username: "stakeholder",
    password: "stakeholder-password-123",
    isStakeholder: true,
    firstName: "Morgan",
    lastName: "Ellis",
    businessName: "Peachtree Collective",
    phoneNumber: "404-555-0102",
    email: "stakeholder@studio.example",
  },
  {
    username: "member",
    password: "member-password-123",
    isMember: true,
    firstName: "Casey",
    lastName: "Nguyen",
    businessName: null,
    phoneNumber: "404-555-0103",
    email: "member@studio.example",
  },
];

// ---------------------------------------------------------------------------------------------
// Catalogue

const seedServices = [
  {
    name: "Video Recording Add-on",
    description: "Multi-camera 4K video of your whole session.",
    price: 100,
    duration: 60,
    isActive: true,
  },
  {
    name: "Professional Editing",
    description: "Audio clean-up, cuts, intro and outro by our editor.",
    price: 150,
    duration: 120,
    isActive: true,
  },
  {
    name: "Social Media Clips Package",
    description: "Five vertical clips with captions, ready to post.",
    price: 75,
    duration: null,
    isActive: true,
  },
  {
    name: "Livestream Setup",
    description: "Stream your session live to YouTube, Twitch or LinkedIn.",
    price: 125,
    duration: 30,
    isActive: true,
  },
  {
    name: "Studio Photography",
    description: "Portraits of the hosts on set (no longer offered).",
    price: 90,
    duration: 30,
    isActive: false,
  },
] as const;
type ServiceName = (typeof seedServices)[number]["name"];

const seedCoupons = [
  {
    code: "WELCOME10",
    description: "10% off for new customers",
    type: "PERCENTAGE",
    value: 10,
    maxUses: 0,
    expiryDate: "2099-12-31",
    isActive: true,
  },
  {
    code: "SAVE50",
    description: "$50 off any session",
    type: "FIXED_AMOUNT",
    value: 5000, // cents
    maxUses: 100,
    expiryDate: "2099-12-31",
    isActive: true,
  },
  {
    code: "FREESESSION",
    description: "A free session (giveaway winners)",
    type: "PERCENTAGE",
    value: 100,
    maxUses: 5,
    expiryDate: "2099-12-31",
    isActive: true,
  },
  {
    code: "SPRING25",
    description: "25% off, last season's promotion (expired)",
    type: "PERCENTAGE",
    value: 25,
    maxUses: 0,
    expiryDate: addStudioDays(today, -30),
    isActive: true,
  },
  {
    code: "RETIRED20",
    description: "20% off (switched off)",
    type: "PERCENTAGE",
    value: 20,
    maxUses: 0,
    expiryDate: "2099-12-31",
    isActive: false,
  },
] as const;
type CouponCode = (typeof seedCoupons)[number]["code"];

// ---------------------------------------------------------------------------------------------
// Bookings

interface SeedBooking {
  /** Days from today (studio-local) of the recording date; negative is in the past. */
  day: number;
  time: string;
  hours: number;
  guests: number;
  status: BookingStatus;
  services?: ServiceName[];
  coupon?: CouponCode;
  /** Cancelled after payment: a refund row is written. */
  refunded?: boolean;
  cancellationReason?: string;
  retainer?: { startDay: number; hoursUsed: number };
  /** Draws its hours from the customer's retainer booking (no hourly charge). */
  drawsFromRetainer?: boolean;
}

const seedBookings: Record<string, SeedBooking[]> = {
  demo: [
    {
      day: 5,
      time: "14:00",
      hours: 2,
      guests: 2,
      status: "PENDING_PAYMENT",
      services: ["Video Recording Add-on"],
    },
    { day: 7, time: "10:00", hours: 3, guests: 1, status: "PENDING" },
    {
      day: 10,
      time: "18:00",
      hours: 2,
      guests: 3,
      status: "CONFIRMED",
      services: ["Professional Editing"],
      coupon: "WELCOME10",
    },
    // Runs past midnight into the next studio day.
    { day: 12, time: "22:00", hours: 4, guests: 2, status: "CONFIRMED" },
    {
      day: -20,
      time: "13:00",
      hours: 2,
      guests: 2,
      status: "COMPLETED",
      services: ["Social Media Clips Package"],
    },
    {
      day: 14,
      time: "09:00",
      hours: 2,
      guests: 1,
      status: "CANCELLED",
      refunded: true,
      cancellationReason: "Guest had to reschedule",
    },
    {
      day: -2,
      time: "16:00",
      hours: 2,
      guests: 1,
      status: "CANCELLED",
      cancellationReason: "Payment not received in time",
    },
  ],
  stakeholder: [
    {
      day: 3,
      time: "11:00",
      hours: 2,
      guests: 2,
      status: "CONFIRMED",
      services: ["Livestream Setup"],
    },
    { day: -3, time: "11:00", hours: 3, guests: 4, status: "RECORDED" },
    {
      day: -8,
      time: "15:00",
      hours: 2,
      guests: 2,
      status: "POST_PRODUCTION",
      services: ["Professional Editing", "Social Media Clips Package"],
    },
    { day: -30, time: "12:00", hours: 3, guests: 3, status: "COMPLETED", coupon: "SAVE50" },
  ],
  member: [
    {
      day: -4,
      time: "10:00",
      hours: 3,
      guests: 2,
      status: "RECORDED",
      services: ["Video Recording Add-on"],
      retainer: { startDay: -5, hoursUsed: 3 },
    },
    { day: 6, time: "10:00", hours: 2, guests: 2, status: "CONFIRMED", drawsFromRetainer: true },
  ],
};

/**
 * The statuses a booking passes through on its way to `status` (docs/product.md
 * "States and transitions").
 */
/** The statuses a booking passed through to reach each status (cancelled: straight from unpaid). */
const PATH = Object.fromEntries(
  BOOKING_STATUSES.map((status, index) => [
    status,
    status === "CANCELLED"
      ? ["PENDING_PAYMENT", "CANCELLED"]
      : BOOKING_STATUSES.slice(0, index + 1),
  ]),
) as Record<BookingStatus, BookingStatus[]>;

const STAFF_STEPS = new Set<BookingStatus>([
  "CONFIRMED",
  "RECORDED",
  "POST_PRODUCTION",
  "COMPLETED",
]);

const HISTORY_NOTES: Partial<Record<BookingStatus, string>> = {
  PENDING_PAYMENT: "Booking created",
  PENDING: "Payment received",
  CONFIRMED: "Confirmed by the studio",
  RECORDED: "Session recorded",
  POST_PRODUCTION: "Editing started",
  COMPLETED: "Files delivered",
};

/** Whole dollars after a coupon: arithmetic in cents, rounded half up, never below 0. */
function applyCoupon(originalDollars: number, coupon: (typeof seedCoupons)[number]): number {
  const cents = originalDollars * 100;
  const discounted =
    coupon.type === "PERCENTAGE" ? cents - (cents * coupon.value) / 100 : cents - coupon.value;
  return Math.max(0, Math.floor(discounted / 100 + 0.5));
}

function transactionId(kind: "pay" | "refund") {
  return `sandbox_seed_${kind}_${randomBytes(8).toString("hex")}`;
}

function seedCustomerBookings(
  tx: Tx,
  user: typeof users.$inferSelect,
  adminId: number,
  plan: SeedBooking[],
): number {
  const hasBookings = tx
    .select({ id: bookings.id })
    .from(bookings)
    .where(eq(bookings.userId, user.id))
    .limit(1)
    .get();
  if (hasBookings) return 0;

  const rate = user.isStakeholder ? 150 : 200;
  let retainerBookingId: number | null = null;

  for (const item of plan) {
    const recordingDate = addStudioDays(today, item.day);
    const { startsAt, endsAt } = studioSession(recordingDate, item.time, item.hours);
    // Booked two weeks ahead (the live hold: five minutes ago; the retainer: the day before).
    const createdAt =
      item.status === "PENDING_PAYMENT"
        ? now - 5 * MINUTE
        : item.retainer
          ? startsAt - DAY
          : Math.min(now, startsAt) - 14 * DAY;
    const paidAt = createdAt + 10 * MINUTE;

    // Prices as they are now in the database (an admin may have changed them); a service
    // renamed since is left out rather than failing the whole seed.
    const chosen = (item.services ?? []).flatMap((name) =>
      tx.select().from(services).where(eq(services.name, name)).all().slice(0, 1),
    );
    const servicesCost = chosen.reduce((sum, service) => sum + service.price, 0);
    const sessionCost = item.retainer
      ? RETAINER_PRICE
      : item.drawsFromRetainer
        ? 0
        : item.hours * rate;
    const originalCost = sessionCost + servicesCost;

    const coupon = item.coupon ? seedCoupons.find((c) => c.code === item.coupon) : undefined;
    const couponRow = coupon
      ? tx.select().from(coupons).where(sql`lower(${coupons.code}) = lower(${coupon.code})`).get()
      : undefined;
    const totalCost = coupon ? applyCoupon(originalCost, coupon) : originalCost;

    const free = totalCost === 0;
    const paid =
      !free && item.status !== "PENDING_PAYMENT" && (item.status !== "CANCELLED" || item.refunded);
    // A $0 booking is created CONFIRMED; a paid cancellation went through PENDING first.
    const path: BookingStatus[] = free
      ? PATH[item.status].slice(2)
      : item.refunded
        ? ["PENDING_PAYMENT", "PENDING", "CANCELLED"]
        : PATH[item.status];
    const holdExpiresAt = createdAt + env.HOLD_MINUTES * MINUTE;
    // An unpaid booking is cancelled when its hold runs out; a paid one by its customer.
    const cancelledAt = paid ? Math.min(now - DAY, startsAt - 2 * DAY) : holdExpiresAt;
    const stepAt: Record<BookingStatus, number> = {
      PENDING_PAYMENT: createdAt,
      PENDING: paidAt,
      CONFIRMED: free ? createdAt : paidAt + DAY,
      RECORDED: endsAt,
      POST_PRODUCTION: endsAt + DAY,
      COMPLETED: endsAt + 3 * DAY,
      CANCELLED: cancelledAt,
    };

    // Each seeded booking is an order of one; it holds its coupon's use while it is live.
    const holdsCoupon = couponRow !== undefined && item.status !== "CANCELLED";
    const order = tx
      .insert(orders)
      .values({ userId: user.id, couponId: holdsCoupon ? couponRow.id : null, createdAt })
      .returning({ id: orders.id })
      .get();
    const booking = tx
      .insert(bookings)
      .values({
        orderId: order.id,
        userId: user.id,
        firstName: user.firstName,
        lastName: user.lastName,
        businessName: user.businessName,
        phoneNumber: user.phoneNumber,
        email: user.email,
        stakeholder: user.isStakeholder ? "yes" : "no",
        recordingDate,
        recordingTime: item.time,
        guestCount: String(item.guests),
        hoursNeeded: String(item.hours),
        startsAt,
        endsAt,
        hourlyRate: rate,
        totalCost,
        originalCost,
        couponId: couponRow?.id ?? null,
        couponCode: couponRow?.code ?? null,
        discountAmount: originalCost - totalCost,
        status: item.status,
        holdExpiresAt:
          item.status === "PENDING_PAYMENT" || (item.status === "CANCELLED" && !paid)
            ? holdExpiresAt
            : null,
        cancellationReason: item.cancellationReason ?? null,
        cancelledAt: item.status === "CANCELLED" ? cancelledAt : null,
        isRetainer: Boolean(item.retainer),
        retainerStartDate: item.retainer ? addStudioDays(today, item.retainer.startDay) : null,
        retainerEndDate: item.retainer ? addStudioDays(today, item.retainer.startDay + 30) : null,
        retainerHoursUsed: item.retainer?.hoursUsed ?? 0,
        retainerTotalHours: 8,
        retainerBookingId: item.drawsFromRetainer ? retainerBookingId : null,
        retainerHoursDrawn: item.drawsFromRetainer ? item.hours : 0,
        createdAt,
      })
      .returning({ id: bookings.id })
      .get();

    if (item.retainer) retainerBookingId = booking.id;
    if (item.drawsFromRetainer && retainerBookingId !== null) {
      tx.update(bookings)
        .set({ retainerHoursUsed: sql`${bookings.retainerHoursUsed} + ${item.hours}` })
        .where(eq(bookings.id, retainerBookingId))
        .run();
    }

    for (const service of chosen) {
      tx.insert(bookingServices)
        .values({ bookingId: booking.id, serviceId: service.id, priceAtBooking: service.price })
        .run();
    }

    // A coupon use is taken at creation and given back when its order has no live session.
    if (couponRow && holdsCoupon) {
      tx.update(coupons)
        .set({ currentUses: sql`${coupons.currentUses} + 1` })
        .where(eq(coupons.id, couponRow.id))
        .run();
    }

    const card = { brand: "visa", last4: "4242" };
    const paymentTransaction = transactionId("pay");
    if (paid && totalCost > 0) {
      // Each payment with its receipt, as the site records them (docs/product.md "Receipts").
      insertPayment(tx, {
        bookingId: booking.id,
        userId: user.id,
        amount: totalCost,
        paymentMethod: "card",
        paymentDate: paidAt,
        transactionId: paymentTransaction,
        paymentDetails: card,
      });
    }
    if (item.refunded && totalCost > 0) {
      insertPayment(tx, {
        bookingId: booking.id,
        userId: user.id,
        amount: -totalCost,
        paymentMethod: "card",
        paymentDate: cancelledAt,
        transactionId: transactionId("refund"),
        paymentDetails: { ...card, refundOf: paymentTransaction },
      });
    }

    // One history row per step: who (null is the system), when, from, to, why.
    path.forEach((toStatus, index) => {
      const staffStep = STAFF_STEPS.has(toStatus) && !(free && index === 0);
      const systemStep = toStatus === "PENDING" || (toStatus === "CANCELLED" && !paid);
      tx.insert(bookingHistory)
        .values({
          bookingId: booking.id,
          actorUserId: staffStep ? adminId : systemStep ? null : user.id,
          fromStatus: path[index - 1] ?? null,
          toStatus,
          note:
            toStatus === "CANCELLED"
              ? (item.cancellationReason ?? "Cancelled")
              : free && index === 0
                ? "Booking created, nothing to pay"
                : (HISTORY_NOTES[toStatus] ?? null),
          createdAt: Math.min(stepAt[toStatus], now),
        })
        .run();
    });
  }
  return plan.length;
}

// ---------------------------------------------------------------------------------------------
// Run

async function main() {
  // A chosen ADMIN_PASSWORD follows the rule every password set on the site follows.
  await passwordEstimatorReady;
  for (const user of seedUsers) {
    const weakness = user.password.length < 8 ? "It is shorter than 8 characters." : null;
    const why = weakness ?? passwordWeakness(user.password);
    if (why) throw new Error(`The password for ${user.username} is refused: ${why}`);
  }
  // argon2 is slow and asynchronous: hash before the transaction, never inside it.
  const hashes = new Map<string, string>();
  for (const user of seedUsers) hashes.set(user.username, await hashPassword(user.password));

  const report = db.transaction(
    (tx) => {
      const lines: string[] = [];
      const userIds = new Map<string, number>();

      for (const user of seedUsers) {
        const existing = tx
          .select({ id: users.id })
          .from(users)
          .where(sql`lower(${users.username}) = lower(${user.username})`)
          .get();
        if (existing) {
          userIds.set(user.username, existing.id);
          lines.push(`user ${user.username}: exists, password unchanged`);
          continue;
        }
        const created = tx
          .insert(users)
          .values({
            username: user.username,
            passwordHash: hashes.get(user.username) ?? "",
            isAdmin: user.isAdmin ?? false,
            isMember: user.isMember ?? false,
            isStakeholder: user.isStakeholder ?? false,
            firstName: user.firstName,
            lastName: user.lastName,
            businessName: user.businessName,
            phoneNumber: user.phoneNumber,
            email: user.email,
          })
          .returning({ id: users.id })
          .get();
        userIds.set(user.username, created.id);
        const shown =
          user.isAdmin && !user.generated
            ? "from ADMIN_PASSWORD"
            : user.generated
              ? `${user.password} (generated: save it now, it is not shown again)`
              : user.password;
        lines.push(
          `user ${user.username}: created${user.isAdmin ? " (admin)" : ""}, password ${shown}`,
        );
      }

      let addedServices = 0;
      for (const service of seedServices) {
        const existing = tx
          .select({ id: services.id })
          .from(services)
          .where(eq(services.name, service.name))
          .get();
        if (existing) continue;
        tx.insert(services).values(service).run();
        addedServices++;
      }
      lines.push(
        `services: ${addedServices} added, ${seedServices.length - addedServices} existed`,
      );

      let addedCoupons = 0;
      for (const coupon of seedCoupons) {
        const existing = tx
          .select({ id: coupons.id })
          .from(coupons)
          .where(sql`lower(${coupons.code}) = lower(${coupon.code})`)
          .get();
        if (existing) continue;
        tx.insert(coupons).values(coupon).run();
        addedCoupons++;
      }
      lines.push(`coupons: ${addedCoupons} added, ${seedCoupons.length - addedCoupons} existed`);

      const adminId = userIds.get(adminUsername);
      if (adminId === undefined) throw new Error("Seed admin missing");
      for (const [username, plan] of Object.entries(seedBookings)) {
        const id = userIds.get(username);
        const user =
          id === undefined ? undefined : tx.select().from(users).where(eq(users.id, id)).get();
        if (!user) throw new Error(`Seed user missing: ${username}`);
        const added = seedCustomerBookings(tx, user, adminId, plan);
        lines.push(
          added > 0
            ? `bookings of ${username}: ${added} added`
            : `bookings of ${username}: has bookings, skipped`,
        );
      }

      const demoId = userIds.get("demo");
      const demoRequest =
        demoId === undefined
          ? undefined
          : tx
              .select({ id: technicalAssistanceRequests.id })
              .from(technicalAssistanceRequests)
              .where(eq(technicalAssistanceRequests.userId, demoId))
              .get();
      if (demoId !== undefined && !demoRequest) {
        tx.insert(technicalAssistanceRequests)
          .values({
            userId: demoId,
            name: "Jordan Rivera",
            email: "demo@studio.example",
            phoneNumber: "404-555-0101",
            issueType: "Audio",
            description:
              "The guest microphone sounded quiet in my last recording. Can you check the levels?",
            preferredContactMethod: "email",
            createdAt: now - 2 * DAY,
          })
          .run();
        lines.push("support requests: 1 added");
      }
      return lines;
    },
    { behavior: "immediate" },
  );

  console.log(`Seeded ${env.DATABASE_PATH} (today is ${today} in ${STUDIO_TIME_ZONE})`);
  for (const line of report) console.log(`  ${line}`);
}

try {
  await main();
} finally {
  db.$client.close();
}
