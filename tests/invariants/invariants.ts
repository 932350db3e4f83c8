import { asc, eq } from "drizzle-orm";
import {
  blockedTimes,
  bookingHistory,
  coupons,
  emailOutbox,
  orders,
  payments,
  receipts,
  users,
  waitlistEntries,
} from "#db/schema";
import { db } from "#app/db.server";
import { PAID_STATUSES } from "#app/domain/booking-status";
import { FREE_CHANGE_NOTICE_MS } from "#app/domain/cancellation";
import { receiptYear } from "#app/domain/receipts";
import { providerCharge } from "#app/domain/series-sessions";
import { HOLD_EXPIRED_REASON } from "#app/domain/holds";
import { listOwnBookings } from "#app/models/booking.server";
import { readDataVersion } from "#app/models/data-version.server";
import { findCoupon } from "#app/models/coupon.server";
import { CANCELLED_BY_CUSTOMER, CANCELLED_BY_STUDIO } from "#app/models/cancellation.server";
import type { LedgerCharge } from "#tests/invariants/provider";
import {
  BUFFER_MINUTES,
  FEE_PERCENT,
  HOLD_MINUTES,
  HOUR,
  MINUTE,
  SETTLE_WINDOW_MS,
  type Booking,
  readSessions,
  UNPAID_SESSION_CAP,
  type World,
} from "#tests/invariants/world";

/**
 * The invariants checked after every step of every history. Each is a small named function
 * reading the database and the fake provider's ledger and returning what is wrong (empty when
 * nothing is); `--only` picks some by name. They encode docs/product.md's rules; where a rule
 * is ambiguous the choice is written beside it.
 */

type Snapshot = {
  now: number;
  bookings: Booking[];
  payments: (typeof payments.$inferSelect)[];
  receipts: (typeof receipts.$inferSelect)[];
  coupons: (typeof coupons.$inferSelect)[];
  offers: (typeof waitlistEntries.$inferSelect)[];
  entries: (typeof waitlistEntries.$inferSelect)[];
  blocks: (typeof blockedTimes.$inferSelect)[];
  orders: (typeof orders.$inferSelect)[];
  outbox: { id: number; kind: string; toAddress: string; bookingId: number | null; text: string }[];
  emails: Map<number, string>;
  /** What the app's reads show at `now`: each coupon's uses, each retainer's hours used. */
  read: { couponUses: Map<number, number>; retainerUsed: Map<number, number> };
};

function snapshot(w: World): Snapshot {
  const entries = db.select().from(waitlistEntries).orderBy(asc(waitlistEntries.id)).all();
  const allCoupons = db.select().from(coupons).all();
  return {
    now: w.now,
    bookings: readSessions(),
    payments: db.select().from(payments).orderBy(asc(payments.id)).all(),
    receipts: db.select().from(receipts).orderBy(asc(receipts.id)).all(),
    coupons: allCoupons,
    entries,
    offers: entries.filter(
      (entry) => entry.status === "OFFERED" && (entry.offerExpiresAt ?? 0) > w.now,
    ),
    blocks: db.select().from(blockedTimes).all(),
    orders: db.select().from(orders).all(),
    outbox: db
      .select({
        id: emailOutbox.id,
        kind: emailOutbox.kind,
        toAddress: emailOutbox.toAddress,
        bookingId: emailOutbox.bookingId,
        text: emailOutbox.text,
      })
      .from(emailOutbox)
      .all(),
    emails: new Map(
      db
        .select({ id: users.id, email: users.email })
        .from(users)
        .all()
        .map((user) => [user.id, user.email]),
    ),
    read: {
      couponUses: new Map(
        allCoupons.map((c) => [c.id, findCoupon(db, c.code, w.now)?.currentUses ?? -1]),
      ),
      retainerUsed: new Map(
        w.customers.flatMap((customer) =>
          listOwnBookings(customer.id, w.now)
            .filter((b) => b.isRetainer)
            .map((b) => [b.id, b.retainerHoursUsed] as const),
        ),
      ),
    },
  };
}

/**
 * A session keeps its range from others: every status but CANCELLED; an unpaid one while its
 * hold lasts, or while a workflow holds it (docs/product.md "Availability and holds").
 */
function isLive(booking: Booking, now: number) {
  if (booking.status === "CANCELLED") return false;
  if (booking.status !== "PENDING_PAYMENT") return true;
  return (booking.holdExpiresAt ?? 0) > now || booking.claim !== null;
}

type Range = { startsAt: number; endsAt: number };
const PAD = BUFFER_MINUTES * MINUTE;
/** Two sessions (or a session and an offer) closer than the turnaround buffer collide. */
const collide = (a: Range, b: Range) => a.startsAt < b.endsAt + PAD && b.startsAt < a.endsAt + PAD;
/** A blocked time needs no buffer. */
const overlaps = (a: Range, b: Range) => a.startsAt < b.endsAt && b.startsAt < a.endsAt;

const money = (n: number) => `$${n}`;
const B = (b: Booking) => `B${b.id}${b.seriesId === null ? "" : ` (series S${b.seriesId})`}`;

/** The session's history tells staff the provider took this charge's money and to refund it. */
function shownToStaff(bookingId: number, chargeId: string): boolean {
  return db
    .select({ note: bookingHistory.note })
    .from(bookingHistory)
    .where(eq(bookingHistory.bookingId, bookingId))
    .all()
    .some(({ note }) => note?.includes(` in ${chargeId}, but it could not be recorded`) ?? false);
}

function moneyOf(s: Snapshot, bookingId: number) {
  const rows = s.payments.filter((p) => p.bookingId === bookingId);
  const paid = rows.filter((p) => p.amount > 0).reduce((sum, p) => sum + p.amount, 0);
  const refunded = rows.filter((p) => p.amount < 0).reduce((sum, p) => sum - p.amount, 0);
  return { rows, paid, refunded };
}

type Invariant = { name: string; describe: string; check: (s: Snapshot, w: World) => string[] };

/** What a visitor's stored page is rendered from (app/web/shared-pages.server.ts). */
const VISITOR_TABLES = ["services", "bookings", "blocked_times", "waitlist_entries"];

export const INVARIANTS: Invariant[] = [
  {
    name: "visitor-pages-see-writes",
    describe:
      "every change to a table a visitor's stored page is rendered from (services, bookings, blocked times, waitlist entries) bumps the data version",
    check(_s, w) {
      const client = db.$client;
      const print = VISITOR_TABLES.map((table) =>
        JSON.stringify(client.prepare(`SELECT * FROM "${table}" ORDER BY id`).raw().all()),
      ).join("\n");
      const version = readDataVersion();
      const before = w.visitorData;
      w.visitorData = { print, version };
      if (!before || before.print === print || before.version !== version) return [];
      return [`a visitor-page table changed, but the data version stayed ${version}`];
    },
  },
  {
    name: "no-overlap",
    describe:
      "no two live sessions overlap, buffer included; nor a session or a live waitlist offer and a blocked time (unless the block was saved over it), nor a session and a live offer",
    check(s, w) {
      const problems: string[] = [];
      const live = s.bookings.filter((b) => isLive(b, s.now));
      live.forEach((a, i) => {
        for (const b of live.slice(i + 1)) {
          if (collide(a, b)) {
            problems.push(
              `live sessions ${w.describeBooking(a)} and ${w.describeBooking(b)} overlap (buffer ${BUFFER_MINUTES} min)`,
            );
          }
        }
        for (const offer of s.offers) {
          if (collide(a, offer)) {
            problems.push(
              `live session ${w.describeBooking(a)} overlaps live waitlist offer W${offer.id} (${offer.recordingDate} ${offer.recordingTime} ${offer.hoursNeeded}h)`,
            );
          }
        }
        for (const block of s.blocks) {
          if (overlaps(a, block) && !w.excused.has(`${block.id}:b${a.id}`)) {
            problems.push(
              `live session ${w.describeBooking(a)} lies in blocked time K${block.id}, which was not there before it`,
            );
          }
        }
      });
      for (const offer of s.offers) {
        for (const block of s.blocks) {
          if (overlaps(offer, block) && !w.excused.has(`${block.id}:o${offer.id}`)) {
            problems.push(`live waitlist offer W${offer.id} lies in blocked time K${block.id}`);
          }
        }
      }
      return problems;
    },
  },
  {
    name: "coupon-uses",
    describe:
      "a coupon's use count equals the orders (a single booking or a series) with a live session carrying its discount; never above its limit",
    check(s) {
      const problems: string[] = [];
      for (const coupon of s.coupons) {
        if (coupon.maxUses > 0 && coupon.currentUses > coupon.maxUses) {
          problems.push(
            `coupon ${coupon.code} used ${coupon.currentUses} times, limit ${coupon.maxUses}`,
          );
        }
        // docs/product.md "Coupons": one use per order, held while any session of the order
        // that is not cancelled carries the discount, paid or not.
        const orders = new Map<number, Booking[]>();
        for (const b of s.bookings.filter((b) => b.couponId === coupon.id)) {
          const key = b.orderId ?? -b.id;
          orders.set(key, [...(orders.get(key) ?? []), b]);
        }
        const holding = [...orders].filter(([, sessions]) =>
          sessions.some((b) => b.status !== "CANCELLED"),
        );
        if (coupon.currentUses !== holding.length) {
          const detail = [...orders]
            .map(
              ([, sessions]) =>
                `${B(sessions[0] as Booking)}: ${sessions.map((b) => `B${b.id} ${b.status} -$${b.discountAmount}`).join(", ")}`,
            )
            .join("; ");
          problems.push(
            `coupon ${coupon.code} (limit ${coupon.maxUses || "none"}) counts ${coupon.currentUses} uses, but ${holding.length} order(s) have a live session carrying it: ${detail || "none"}`,
          );
        }
      }
      return problems;
    },
  },
  {
    name: "coupon-uses-read",
    describe:
      "a coupon's uses as every read counts them equal the orders with a session keeping its slot that carries its discount (an expired hold's use counts as given back before the sweep writes it)",
    check(s) {
      const problems: string[] = [];
      for (const coupon of s.coupons) {
        const holding = new Set(
          s.bookings
            .filter((b) => b.couponId === coupon.id && isLive(b, s.now))
            .map((b) => b.orderId ?? -b.id),
        );
        const read = s.read.couponUses.get(coupon.id);
        if (read !== holding.size) {
          problems.push(
            `coupon ${coupon.code} reads as ${read} uses (${coupon.currentUses} stored), but ${holding.size} order(s) have a live session carrying it`,
          );
        }
      }
      return problems;
    },
  },
  {
    name: "unpaid-cap",
    describe: `live unpaid sessions per account never above ${UNPAID_SESSION_CAP} (MAX_UNPAID_SESSIONS, counting sessions, not series)`,
    check(s, w) {
      const problems: string[] = [];
      for (const customer of w.customers) {
        const unpaid = unpaidSessions(s, customer.id);
        if (unpaid.length > UNPAID_SESSION_CAP) {
          problems.push(
            `${customer.label} holds ${unpaid.length} live unpaid sessions (cap ${UNPAID_SESSION_CAP}): ${summarize(unpaid)}`,
          );
        }
      }
      return problems;
    },
  },
  {
    name: "offers-within-cap",
    describe: `live unpaid sessions plus live waitlist offers per account never above ${UNPAID_SESSION_CAP} (reported only while the sessions alone are within it)`,
    check(s, w) {
      const problems: string[] = [];
      for (const customer of w.customers) {
        const unpaid = unpaidSessions(s, customer.id);
        const offers = s.offers.filter((offer) => offer.userId === customer.id);
        if (
          unpaid.length <= UNPAID_SESSION_CAP &&
          unpaid.length + offers.length > UNPAID_SESSION_CAP
        ) {
          problems.push(
            `${customer.label} holds ${unpaid.length} live unpaid sessions and ${offers.length} live waitlist offer(s) (${offers.map((o) => `W${o.id} ${o.recordingDate} ${o.recordingTime}`).join(", ")}): ${unpaid.length + offers.length} holds, cap ${UNPAID_SESSION_CAP}`,
          );
        }
      }
      return problems;
    },
  },
  {
    name: "money-per-session",
    describe: "per session 0 <= paid - refunded <= price, and at most one payment",
    check(s) {
      const problems: string[] = [];
      for (const b of s.bookings) {
        const { rows, paid, refunded } = moneyOf(s, b.id);
        const charges = rows.filter((p) => p.amount > 0).length;
        if (charges > 1 || paid > b.totalCost || paid - refunded < 0) {
          problems.push(
            `${B(b)} price ${money(b.totalCost)}: ${charges} payment(s) of ${money(paid)} in all, ${money(refunded)} refunded`,
          );
        }
      }
      return problems;
    },
  },
  {
    name: "status-agrees-with-money",
    describe:
      "a paid-status session is paid in full, free, or paid offline; an unpaid one has no payment; a cancelled one is refunded as the policy says (>=24h before: all; later: the fee kept; studio: all)",
    check(s, w) {
      const problems: string[] = [];
      for (const b of s.bookings) {
        const { paid, refunded } = moneyOf(s, b.id);
        if (b.status === "PENDING_PAYMENT") {
          if (paid > 0) problems.push(`${B(b)} is PENDING_PAYMENT but ${money(paid)} was paid`);
        } else if (PAID_STATUSES.includes(b.status)) {
          const settled = b.totalCost === 0 || paid === b.totalCost || w.offlinePaid.has(b.id);
          if (!settled || refunded > 0) {
            problems.push(
              `${B(b)} is ${b.status} at ${money(b.totalCost)} but ${money(paid)} was paid and ${money(refunded)} refunded${w.offlinePaid.has(b.id) ? " (marked paid offline)" : ""}`,
            );
          }
        } else if (b.status === "CANCELLED") {
          const expected = expectedRefund(b, paid, w, s);
          if (expected !== null && refunded !== expected.amount) {
            problems.push(
              `${B(b)} ${b.cancellationReason ?? "cancelled"} ${expected.why}: paid ${money(paid)}, so ${money(expected.amount)} should be refunded, but ${money(refunded)} was`,
            );
          }
        }
      }
      return problems;
    },
  },
  {
    name: "ledger-charges",
    describe:
      "our payments equal the provider's charges: every payment row is a charge the provider took for that session and sum, every charge the provider took is recorded (once its webhook was delivered) or, for a session that can no longer take it, shown to staff on that session to refund",
    check(s, w) {
      const problems: string[] = [];
      for (const p of s.payments.filter((p) => p.amount > 0)) {
        if (!p.transactionId) continue;
        const charge = w.fake.charges.find((c) => c.id === providerCharge(p.transactionId ?? ""));
        const line = charge?.lines.find((l) => l.bookingId === p.bookingId);
        if (!charge || !line || line.amount !== p.amount) {
          problems.push(
            `payment row ${p.id} records ${money(p.amount)} for B${p.bookingId} from ${p.transactionId}, which the provider ${charge ? `took for ${charge.lines.map((l) => `B${l.bookingId} ${money(l.amount)}`).join(", ")}` : "never made"}`,
          );
        }
      }
      for (const charge of w.fake.charges) {
        if (inFlight(charge, w)) continue;
        for (const line of charge.lines) {
          const recorded = s.payments.some(
            (p) =>
              p.bookingId === line.bookingId &&
              p.amount > 0 &&
              p.transactionId !== null &&
              providerCharge(p.transactionId) === charge.id,
          );
          if (!recorded && !shownToStaff(line.bookingId, charge.id)) {
            const b = s.bookings.find((b) => b.id === line.bookingId);
            problems.push(
              `the provider took ${money(line.amount)} for ${b ? w.describeBooking(b) : `B${line.bookingId}`} in ${charge.id}${charge.checkoutId ? ` (checkout ${charge.checkoutId}, webhook delivered)` : ""}, but no payment row records it: money with no session`,
            );
          }
        }
      }
      return problems;
    },
  },
  {
    name: "ledger-charged-twice",
    describe:
      "no session is paid twice: by two provider charges, or by the provider after staff marked it paid offline",
    check(s, w) {
      const problems: string[] = [];
      const chargedFor = new Map<number, string[]>();
      for (const charge of w.fake.charges) {
        for (const line of charge.lines) {
          chargedFor.set(line.bookingId, [
            ...(chargedFor.get(line.bookingId) ?? []),
            `${charge.id} ${money(line.amount)}${charge.checkoutId ? ` via checkout ${charge.checkoutId}` : ""}`,
          ]);
        }
      }
      for (const b of s.bookings) {
        const ways = [...(chargedFor.get(b.id) ?? [])];
        if (w.offlinePaid.has(b.id))
          ways.push("offline (staff changed its status out of Pending Payment)");
        if (ways.length > 1) {
          problems.push(
            `${w.describeBooking(b)} was paid ${ways.length} times: ${ways.join("; ")}`,
          );
        }
      }
      return problems;
    },
  },
  {
    name: "checkouts-known",
    describe:
      "every hosted checkout the provider still takes money on is one the site knows: stored on its order, or the plan its order is opening or gave up on (the sweep closes those)",
    check(s, w) {
      const problems: string[] = [];
      for (const checkout of w.fake.checkouts.values()) {
        if (checkout.status !== "open" || checkout.expiresAt <= s.now) continue;
        const order = s.orders.find((o) => o.id === checkout.order.id);
        const known =
          order?.checkoutSessionId === checkout.id ||
          (order?.checkoutSessionId === null && order.checkoutExpiresAt === checkout.expiresAt);
        if (!known) {
          problems.push(
            `${checkout.id} (order ${checkout.order.id}: ${checkout.lines.map((l) => `B${l.bookingId} $${l.amount}`).join(", ")}) is open at the provider, but its order ${order ? `holds ${order.checkoutSessionId ?? "no session"}, plan expiring ${order.checkoutExpiresAt ?? "none"}` : "is gone"}: nothing will close it`,
          );
        }
      }
      return problems;
    },
  },
  {
    name: "idempotency-keys",
    describe: "no idempotency key is sent to the provider again with other parameters",
    check(_s, w) {
      return w.fake.keyMisuses;
    },
  },
  {
    name: "ledger-refunds-recorded-were-made",
    describe:
      "every refund we record is one the provider made, for that session, of that sum, on the charge we name",
    check(s, w) {
      const problems: string[] = [];
      for (const p of s.payments.filter((p) => p.amount < 0)) {
        const made = w.fake.refunds.find((r) => r.id === p.transactionId);
        const details = (p.paymentDetails ?? {}) as { refundOf?: string };
        const b = s.bookings.find((b) => b.id === p.bookingId);
        const label = b ? w.describeBooking(b) : `B${p.bookingId}`;
        if (!made) {
          problems.push(
            `${label}: refund ${p.transactionId} of ${money(-p.amount)} recorded, but the provider made no such refund`,
          );
          continue;
        }
        const forWhom = made.bookingId ?? made.meantFor;
        const onCharge = details.refundOf ? providerCharge(details.refundOf) : null;
        if (forWhom !== p.bookingId || made.amount !== -p.amount || made.chargeId !== onCharge) {
          const how = made.viaDashboard
            ? `a refund staff made in the provider's dashboard (no metadata) for B${made.meantFor}`
            : `a refund for B${made.bookingId}`;
          problems.push(
            `${label}: refund ${made.id} of ${money(-p.amount)} recorded on ${onCharge}, but it is ${how} of ${money(made.amount)} on ${made.chargeId}; no money went back for B${p.bookingId}`,
          );
        }
      }
      return problems;
    },
  },
  {
    name: "ledger-refunds-made-are-recorded",
    // The sweep that would record it runs every minute; the harness runs it only when its
    // clock step says so, and a sweep whose own question to the provider fails can record
    // nothing. So the bound is the first sweep past the window that the provider answered.
    describe: `every refund the app asked the provider for is recorded by the first background sweep, ${SETTLE_WINDOW_MS / MINUTE} minutes or more after it, whose provider calls were all answered (dashboard refunds are outside the app)`,
    check(s, w) {
      const problems: string[] = [];
      for (const refund of w.fake.refunds) {
        const due = w.answeredSweeps.some((at) => at - refund.at >= SETTLE_WINDOW_MS);
        if (refund.viaDashboard || !due) continue;
        if (!s.payments.some((p) => p.transactionId === refund.id)) {
          const b = s.bookings.find((b) => b.id === refund.bookingId);
          problems.push(
            `the provider refunded ${money(refund.amount)} of ${refund.chargeId} for ${b ? w.describeBooking(b) : `B${refund.bookingId}`} (${refund.id}, ${Math.round((s.now - refund.at) / MINUTE)} min ago), but no refund row records it`,
          );
        }
      }
      return problems;
    },
  },
  {
    name: "receipts",
    describe:
      "every payment has exactly one receipt and every refund one credit note, numbered 1..n without gaps per kind and studio year",
    check(s) {
      const problems: string[] = [];
      const byPayment = new Map<number, number>();
      for (const r of s.receipts) byPayment.set(r.paymentId, (byPayment.get(r.paymentId) ?? 0) + 1);
      for (const p of s.payments) {
        const count = byPayment.get(p.id) ?? 0;
        const receipt = s.receipts.find((r) => r.paymentId === p.id);
        const kind = p.amount > 0 ? "RECEIPT" : "CREDIT_NOTE";
        if (count !== 1 || receipt?.kind !== kind || receipt.year !== receiptYear(p.paymentDate)) {
          problems.push(
            `payment ${p.id} (B${p.bookingId} ${money(p.amount)}) has ${count} document(s)${receipt ? `, a ${receipt.kind} of ${receipt.year}` : ""}; expected one ${kind}`,
          );
        }
      }
      const series = new Map<string, number[]>();
      for (const r of s.receipts) {
        series.set(`${r.kind} ${r.year}`, [...(series.get(`${r.kind} ${r.year}`) ?? []), r.number]);
      }
      for (const [key, numbers] of series) {
        const sorted = [...numbers].sort((a, b) => a - b);
        if (sorted.some((n, i) => n !== i + 1)) {
          problems.push(`${key} numbers are ${sorted.join(", ")}: not 1..${sorted.length}`);
        }
      }
      return problems;
    },
  },
  {
    name: "retainer-hours",
    describe:
      "a retainer's hours used never exceed its hours and equal its own session's plus those its live sessions draw; no live session draws from a cancelled, unpaid or another customer's retainer, or outside its window",
    check(s) {
      const problems: string[] = [];
      for (const r of s.bookings.filter((b) => b.isRetainer)) {
        const drawers = s.bookings.filter(
          (b) =>
            b.retainerBookingId === r.id && b.retainerHoursDrawn > 0 && b.status !== "CANCELLED",
        );
        const drawn = drawers.reduce((sum, b) => sum + b.retainerHoursDrawn, 0);
        if (r.retainerHoursUsed > r.retainerTotalHours) {
          problems.push(
            `retainer ${B(r)} has ${r.retainerHoursUsed} of ${r.retainerTotalHours} hours used`,
          );
        }
        if (r.status === "CANCELLED") {
          if (drawers.length > 0) {
            problems.push(
              `retainer ${B(r)} is cancelled (${r.cancellationReason}) but live sessions still draw its hours: ${drawers.map((b) => `B${b.id} ${b.retainerHoursDrawn}h`).join(", ")}`,
            );
          }
          continue;
        }
        const own = Number(r.hoursNeeded);
        if (r.retainerHoursUsed !== own + drawn) {
          problems.push(
            `retainer ${B(r)} counts ${r.retainerHoursUsed} hours used, but its own session takes ${own} and live sessions draw ${drawn} (${drawers.map((b) => `B${b.id} ${b.retainerHoursDrawn}h`).join(", ") || "none"})`,
          );
        }
        for (const b of drawers) {
          const inWindow =
            r.retainerStartDate !== null &&
            r.retainerEndDate !== null &&
            r.retainerStartDate <= b.recordingDate &&
            b.recordingDate < r.retainerEndDate;
          if (!PAID_STATUSES.includes(r.status) || b.userId !== r.userId || !inWindow) {
            problems.push(
              `${B(b)} draws ${b.retainerHoursDrawn}h on ${b.recordingDate} from retainer ${B(r)} (${r.status}, user ${r.userId}, window ${r.retainerStartDate}..${r.retainerEndDate})`,
            );
          }
        }
      }
      return problems;
    },
  },
  {
    name: "retainer-hours-read",
    describe:
      "a retainer's hours used as every read counts them equal its own session's plus those its sessions keeping their slot draw (an expired hold's hours count as given back before the sweep writes it)",
    check(s) {
      const problems: string[] = [];
      for (const r of s.bookings.filter((b) => b.isRetainer && b.status !== "CANCELLED")) {
        const drawn = s.bookings
          .filter((b) => b.retainerBookingId === r.id && isLive(b, s.now))
          .reduce((sum, b) => sum + b.retainerHoursDrawn, 0);
        const expected = Number(r.hoursNeeded) + drawn;
        const read = s.read.retainerUsed.get(r.id);
        if (read !== expected) {
          problems.push(
            `retainer ${B(r)} reads as ${read} hours used (${r.retainerHoursUsed} stored), but its own session takes ${r.hoursNeeded} and live sessions draw ${drawn}`,
          );
        }
      }
      return problems;
    },
  },
  {
    name: "email-recipients",
    describe: "every customer e-mail goes to the account's own address",
    check(s, w) {
      const problems: string[] = [];
      for (const mail of s.outbox) {
        let owner: number | undefined;
        if (mail.bookingId !== null) {
          owner = s.bookings.find((b) => b.id === mail.bookingId)?.userId;
        } else {
          const claim = /[?&]claim=(\d+)/.exec(mail.text);
          owner = claim ? s.entries.find((e) => e.id === Number(claim[1]))?.userId : undefined;
        }
        const expected = owner === undefined ? undefined : s.emails.get(owner);
        if (expected === undefined || mail.toAddress !== expected) {
          problems.push(
            `e-mail ${mail.id} (${mail.kind}) went to ${mail.toAddress}, but ${owner === undefined ? "it belongs to no account" : `${w.customer(owner)?.label ?? `u${owner}`}'s address is ${expected}`}`,
          );
        }
      }
      return problems;
    },
  },
  {
    name: "waitlist-offers",
    describe:
      "a live waitlist offer holds a free range, at most one live offer per range; after the background sweep no waiting entry is left for a range that is free (unless its customer is at MAX_UNPAID_SESSIONS)",
    check(s, w) {
      const problems: string[] = [];
      s.offers.forEach((a, i) => {
        for (const b of s.offers.slice(i + 1)) {
          if (collide(a, b)) {
            problems.push(
              `live offers W${a.id} and W${b.id} hold overlapping ranges (${a.recordingDate} ${a.recordingTime} ${a.hoursNeeded}h, ${b.recordingDate} ${b.recordingTime} ${b.hoursNeeded}h)`,
            );
          }
        }
        if (a.offerExpiresAt !== (a.offeredAt ?? 0) + HOLD_MINUTES * MINUTE) {
          problems.push(
            `offer W${a.id} is held until ${a.offerExpiresAt}, not HOLD_MINUTES after it was made`,
          );
        }
      });
      if (w.justSwept) {
        const live = s.bookings.filter((b) => isLive(b, s.now));
        for (const entry of s.entries.filter((e) => e.status === "WAITING")) {
          if (entry.startsAt < s.now + 48 * HOUR) continue;
          const taken =
            live.some((b) => collide(b, entry)) ||
            s.offers.some((o) => collide(o, entry)) ||
            s.blocks.some((k) => overlaps(k, entry));
          // A customer holding MAX_UNPAID_SESSIONS (offers included) is passed over: they wait.
          const held =
            unpaidSessions(s, entry.userId).length +
            s.offers.filter((o) => o.userId === entry.userId).length;
          if (!taken && held < UNPAID_SESSION_CAP) {
            problems.push(
              `waiting entry W${entry.id} (${entry.recordingDate} ${entry.recordingTime} ${entry.hoursNeeded}h) is free after the sweep but was not offered`,
            );
          }
        }
      }
      return problems;
    },
  },
  {
    name: "no-crash",
    describe: "no workflow throws anything but one of its refusals",
    check(_s, w) {
      return w.crashes;
    },
  },
];

export const INVARIANT_NAMES = INVARIANTS.map((invariant) => invariant.name);

function unpaidSessions(s: Snapshot, userId: number) {
  return s.bookings.filter(
    (b) => b.userId === userId && b.status === "PENDING_PAYMENT" && (b.holdExpiresAt ?? 0) > s.now,
  );
}

function summarize(sessions: Booking[]) {
  const groups = new Map<string, number[]>();
  for (const b of sessions) {
    const key = b.seriesId === null ? "single" : `series S${b.seriesId}`;
    groups.set(key, [...(groups.get(key) ?? []), b.id]);
  }
  return [...groups]
    .map(([key, ids]) =>
      key === "single" ? ids.map((id) => `B${id}`).join(", ") : `${key} (${ids.length} sessions)`,
    )
    .join(", ");
}

/** A hosted charge whose webhook has not been delivered yet may still be unrecorded. */
function inFlight(charge: LedgerCharge, w: World) {
  return (
    charge.kind === "checkout" &&
    w.fake.events.some((event) => event.checkoutId === charge.checkoutId && event.delivered === 0)
  );
}

/**
 * What a cancelled session should have refunded (docs/product.md "Cancel, refund,
 * reschedule"), judged when the request that made the refund began (a retry after a timeout
 * records the refund made then), or when it was cancelled. Null: nothing to judge.
 */
function expectedRefund(
  b: Booking,
  paid: number,
  w: World,
  s: Snapshot,
): { amount: number; why: string } | null {
  if (b.cancellationReason === HOLD_EXPIRED_REASON) return { amount: 0, why: "(hold ran out)" };
  if (paid === 0) return { amount: 0, why: "(unpaid)" };
  if (b.cancellationReason === CANCELLED_BY_STUDIO) return { amount: paid, why: "by the studio" };
  if (b.cancellationReason !== CANCELLED_BY_CUSTOMER) return null;
  const refundRow = s.payments.find((p) => p.bookingId === b.id && p.amount < 0);
  const made = refundRow ? w.fake.refunds.find((r) => r.id === refundRow.transactionId) : undefined;
  // Staff refunding in the provider's dashboard is outside the policy (the ledger judges it).
  if (made?.viaDashboard) return null;
  // Not the provider's clock: it may move while the call is awaited.
  const at = made?.askedAt ?? b.cancelledAt ?? s.now;
  if (b.startsAt - at >= FREE_CHANGE_NOTICE_MS) {
    return { amount: paid, why: `${Math.floor((b.startsAt - at) / HOUR)}h ahead` };
  }
  const fee = Math.floor((paid * FEE_PERCENT) / 100);
  return {
    amount: paid - fee,
    why: `${Math.floor((b.startsAt - at) / HOUR)}h ahead (fee ${money(fee)})`,
  };
}

/** Checks the selected invariants; returns the first one broken, with its messages. */
export function brokenInvariant(w: World): { name: string; problems: string[] } | null {
  const s = snapshot(w);
  for (const invariant of INVARIANTS) {
    if (!w.includes(invariant.name)) continue;
    w.checks += 1;
    const problems = invariant.check(s, w);
    if (problems.length > 0) return { name: invariant.name, problems };
  }
  return null;
}
