import fc from "fast-check";
import type { Booking as BookingRow } from "#db/schema";
import { asc, eq } from "drizzle-orm";
import { users, waitlistEntries } from "#db/schema";
import { db, writeTransaction } from "#app/db.server";
import { WORKFLOW_ORDER } from "#app/domain/admin-workflow";
import type { BookingStatus } from "#app/domain/booking-status";
import type { BookingRequest } from "#app/domain/booking-form";
import type { CardInput } from "#app/domain/card";
import { SANDBOX_CARDS } from "#app/domain/card";
import { studioInstant } from "#app/domain/studio-time";
import { createBlockedTime, removeBlockedTime } from "#app/models/blocked-time.server";
import { cancellationQuote } from "#app/models/cancellation.server";
import { listOrderSessions, payableSessions } from "#app/models/order.server";
import { toPublicUser } from "#app/models/user.server";
import { bookSession } from "#app/workflows/book-session.server";
import { Refusal } from "#app/domain/refusal";
import { bookSeries } from "#app/workflows/book-series.server";
import {
  cancelOwnBooking,
  cancelFollowingForStudio,
  cancelOwnFollowing,
  type FollowingResult,
  planCancelFollowing,
} from "#app/workflows/cancel-booking.server";
import {
  CheckoutUnavailableError,
  chargeSandboxCard,
  openHostedCheckout,
} from "#app/workflows/checkout.server";
import { handlePaymentWebhook, verifyCheckout } from "#app/workflows/fulfil-payment.server";
import { changeBookingStatus } from "#app/workflows/change-booking-status.server";
import { PaymentServiceError } from "#app/workflows/payment-provider.server";
import { rescheduleOwnBooking } from "#app/workflows/reschedule.server";
import { sweepClaims, sweepHolds } from "#app/workflows/sweep.server";
import { joinWaitlist, removeWaitlistEntry } from "#app/workflows/waitlist.server";
import { brokenInvariant } from "#tests/invariants/invariants";
import {
  commandStart,
  FAULT_MODES,
  FAULT_OPS,
  type FaultMode,
  type FaultOp,
} from "#tests/invariants/provider";
import {
  APP_URL,
  type Booking,
  type Customer,
  HOUR,
  InvariantViolation,
  MINUTE,
  TIMES,
  type World,
} from "#tests/invariants/world";

/**
 * The commands of a history. Each is generated with plain numbers (which customer, which
 * booking, which day) and resolved against the world when it runs: "booking pick 3" is the
 * 4th (mod the count) of the bookings it could act on now. The trace records what each
 * resolved to and what the app answered, so a shrunk history reads as a story.
 *
 * Every command goes through `Step.run`: its work runs under the history's scheduler (which
 * releases provider calls in an order fast-check chooses), a refusal the workflow is meant
 * to give is an answer like any other, anything else it throws is a crash, and every selected
 * invariant is checked afterwards.
 */

type Say = (what: string) => void;

const REFUSALS = [Refusal, PaymentServiceError, CheckoutUnavailableError];

export abstract class Step implements fc.AsyncCommand<World, World> {
  abstract toString(): string;
  check(_w: Readonly<World>): boolean {
    return true;
  }
  /** Does the work; `say` names what the command resolved to before the app is called. */
  abstract exec(w: World, say: Say): Promise<string | undefined>;

  /** The work with its answer logged: a refusal or a crash is an outcome, never thrown. */
  async perform(w: World, prefix: string): Promise<void> {
    let what = this.toString();
    const say: Say = (resolved) => {
      what = resolved;
    };
    let outcome: string;
    try {
      outcome = (await commandStart.run(w.now, () => this.exec(w, say))) ?? "done";
    } catch (error) {
      if (REFUSALS.some((kind) => error instanceof kind)) {
        outcome = `refused: ${(error as Error).message}`;
      } else {
        const text = error instanceof Error ? `${error.name}: ${error.message}` : String(error);
        outcome = `CRASH ${text}`;
        w.crashes.push(`${what} threw ${text}`);
      }
    }
    w.log(`${prefix}${what} -> ${outcome}`);
    w.tally(this.constructor.name, outcome);
  }

  async run(w: World): Promise<void> {
    w.steps += 1;
    const number = `#${w.trace.filter((line) => line.startsWith("#")).length + 1} `;
    w.justSwept = false;
    await w.settle(this.perform(w, number));
    w.flushCalls();
    verify(w);
  }
}

/** Throws the first selected invariant the world breaks, with the history so far. */
export function verify(w: World) {
  const broken = brokenInvariant(w);
  if (broken) throw new InvariantViolation(broken.name, broken.problems.join("\n  "), [...w.trace]);
}

// ---------------------------------------------------------------- picking what to act on

function pickFrom<T>(items: readonly T[], pick: number): T | undefined {
  return items.length === 0 ? undefined : items[pick % items.length];
}

function customerOf(w: World, pick: number): Customer | undefined {
  return pickFrom(w.customers, pick);
}

/** The order a session was bought in (every session the app writes has one). */
function orderOf(booking: BookingRow): number {
  if (booking.orderId === null) throw new Error(`B${booking.id} has no order`);
  return booking.orderId;
}

function publicUser(id: number) {
  const row = db.select().from(users).where(eq(users.id, id)).get();
  if (!row) throw new Error(`no user ${id}`);
  return toPublicUser(row);
}

/** One target per order: a series' sessions are paid together, through the series. */
function unpaidOrders(w: World): Booking[] {
  const seen = new Set<number>();
  return w.bookings().filter((b) => {
    if (b.status !== "PENDING_PAYMENT" || (b.holdExpiresAt ?? 0) <= w.now) return false;
    if (b.seriesId === null) return true;
    if (seen.has(b.seriesId)) return false;
    seen.add(b.seriesId);
    return true;
  });
}

const TERMINAL: BookingStatus[] = ["CANCELLED", "COMPLETED"];

function request(
  w: World,
  customer: Customer,
  fields: {
    date: string;
    time: string;
    hours: number;
    coupon: number | null;
    services: number[];
    retainer: boolean;
  },
): BookingRequest {
  return {
    firstName: "Pat",
    lastName: customer.label,
    phoneNumber: "404-555-0100",
    // What the customer typed on the form: never where the app may send its e-mails.
    email: `typed-${customer.label}@contact.test`,
    stakeholder: customer.stakeholder ? "yes" : "no",
    recordingDate: fields.date,
    recordingTime: fields.time,
    guestCount: 1,
    hoursNeeded: fields.hours,
    isRetainer: fields.retainer,
    selectedServices: fields.services
      .map((index) => w.serviceIds[index])
      .filter((id): id is number => id !== undefined),
    couponCode: fields.coupon === null ? undefined : w.coupons[fields.coupon]?.code,
  };
}

function requestText(w: World, fields: { coupon: number | null; services: number[] }) {
  const coupon = fields.coupon === null ? "" : ` coupon ${w.coupons[fields.coupon]?.label}`;
  const services = fields.services.length ? ` +services ${fields.services.join(",")}` : "";
  return `${coupon}${services}`;
}

const bookedText = (w: World, booked: BookingRow[]) =>
  booked.length === 1 && booked[0]
    ? w.describeBooking(booked[0])
    : `${booked.length} sessions B${booked[0]?.id}..B${booked.at(-1)?.id} ($${booked.reduce((sum, b) => sum + b.totalCost, 0)}, ${[...new Set(booked.map((b) => b.status))].join("/")})`;

// ---------------------------------------------------------------- customers

type RegisterFields = {
  stakeholder: boolean;
  member: boolean;
  /** Buys a retainer package at once: books its first session and pays it. */
  retainer: { day: number; time: (typeof TIMES)[number]; hours: number } | null;
};

export class Register extends Step {
  constructor(readonly fields: RegisterFields) {
    super();
  }
  toString() {
    const f = this.fields;
    return `register customer (stakeholder ${f.stakeholder}, member ${f.member}${f.retainer ? `, buys a retainer for day +${f.retainer.day} ${f.retainer.time} ${f.retainer.hours}h` : ""})`;
  }
  check(w: Readonly<World>) {
    return w.customers.length < 4;
  }
  async exec(w: World, say: Say) {
    const f = this.fields;
    const label = `c${w.customers.length + 1}`;
    const retainer = f.retainer ? { ...f.retainer, date: w.day(f.retainer.day) } : null;
    say(
      `register ${label} (stakeholder ${f.stakeholder}, member ${f.member})${retainer ? ` who buys a retainer package, first session ${retainer.date} ${retainer.time} ${retainer.hours}h, and pays it` : ""}`,
    );
    const customer = registerCustomer(w, label, f.stakeholder, f.member);
    if (!retainer) return undefined;
    const booking = bookSession(
      publicUser(customer.id),
      request(w, customer, { ...retainer, coupon: null, services: [], retainer: true }),
      w.now,
      w.bookingSettings(),
    );
    const paid = await payInFull(w, booking);
    return `${w.describeBooking(w.booking(booking.id) ?? booking)}; ${paid}`;
  }
}

/** Pays one booking the way its provider does, start to end (the customer does not stop). */
async function payInFull(w: World, booking: BookingRow): Promise<string> {
  if (w.mode === "card") {
    w.fake.expectCard([{ bookingId: booking.id, amount: booking.totalCost }]);
    const result = chargeSandboxCard(orderOf(booking), CARD(SANDBOX_CARDS.success), w.now);
    return result.ok ? `paid by card (${result.transactionId})` : `not paid: ${result.message}`;
  }
  const { url } = await openHostedCheckout(
    orderOf(booking),
    APP_URL,
    `/checkout/${booking.id}`,
    w.fake.hosted(),
  );
  const id = /pay\.fake\/(cs_\d+)$/.exec(url)?.[1];
  if (!id) return `not paid: sent to ${url}`;
  w.shownCheckouts.push(id);
  const charge = w.fake.completeCheckout(id);
  const event = w.fake.events.at(-1);
  if (!charge || !event) return `not paid: ${id} cannot be paid`;
  return `paid through ${id} (${charge.id}), webhook ${await deliver(w, event)}`;
}

export function registerCustomer(
  w: World,
  label: string,
  stakeholder: boolean,
  member: boolean,
): Customer {
  const row = db
    .insert(users)
    .values({
      username: `customer_${label}`,
      passwordHash: "x",
      firstName: "Pat",
      lastName: label,
      phoneNumber: "404-555-0100",
      email: `${label}@account.test`,
      isStakeholder: stakeholder,
      isMember: member,
    })
    .returning()
    .get();
  const customer = { id: row.id, label, email: row.email, stakeholder };
  w.customers.push(customer);
  return customer;
}

// ---------------------------------------------------------------- booking

type SessionFields = {
  who: number;
  day: number;
  time: (typeof TIMES)[number];
  hours: number;
  coupon: number | null;
  services: number[];
};

export class BookSingle extends Step {
  constructor(readonly fields: SessionFields & { retainer: boolean }) {
    super();
  }
  toString() {
    const f = this.fields;
    return `book single (customer ${f.who}, day +${f.day} ${f.time} ${f.hours}h${f.retainer ? " retainer purchase" : ""}${f.coupon === null ? "" : ` coupon ${f.coupon}`})`;
  }
  check(w: Readonly<World>) {
    return w.customers.length > 0;
  }
  async exec(w: World, say: Say) {
    const f = this.fields;
    const customer = customerOf(w, f.who);
    if (!customer) return "no customer";
    const date = w.day(f.day);
    say(
      `${customer.label} books ${date} ${f.time} ${f.hours}h${f.retainer ? " as a RETAINER purchase" : ""}${requestText(w, f)}`,
    );
    const booking = bookSession(
      publicUser(customer.id),
      request(w, customer, { ...f, date }),
      w.now,
      w.bookingSettings(),
    );
    return `booked ${w.describeBooking(booking)}${booking.retainerHoursDrawn ? ` drawing ${booking.retainerHoursDrawn}h from retainer B${booking.retainerBookingId}` : ""}`;
  }
}

export class BookSeries extends Step {
  constructor(readonly fields: SessionFields & { every: "week" | "2weeks"; count: number }) {
    super();
  }
  toString() {
    const f = this.fields;
    return `book series (customer ${f.who}, ${f.count} x every ${f.every} from day +${f.day} ${f.time} ${f.hours}h${f.coupon === null ? "" : ` coupon ${f.coupon}`})`;
  }
  check(w: Readonly<World>) {
    return w.customers.length > 0;
  }
  async exec(w: World, say: Say) {
    const f = this.fields;
    const customer = customerOf(w, f.who);
    if (!customer) return "no customer";
    const date = w.day(f.day);
    say(
      `${customer.label} books a series of ${f.count}, every ${f.every}, from ${date} ${f.time} ${f.hours}h${requestText(w, f)}`,
    );
    const booked = bookSeries(
      publicUser(customer.id),
      request(w, customer, { ...f, date, retainer: false }),
      { every: f.every, count: f.count, skip: [] },
      w.now,
      w.bookingSettings(),
    );
    return `booked series S${booked.seriesId}: ${bookedText(w, booked.bookings)}`;
  }
}

// ---------------------------------------------------------------- the clock

export class Advance extends Step {
  constructor(readonly fields: { minutes: number; sweep: boolean }) {
    super();
  }
  toString() {
    return `clock +${this.fields.minutes} min${this.fields.sweep ? ", background sweep" : ""}`;
  }
  async exec(w: World) {
    // Runs where the scheduler lets it: between another command's provider calls, too.
    await w.gate("clock");
    w.now += this.fields.minutes * MINUTE;
    if (!this.fields.sweep) return `now ${new Date(w.now).toISOString()}`;
    const faults = w.fake.faultsFired;
    const swept = await backgroundSweep(w);
    if (w.fake.faultsFired === faults) w.answeredSweeps.push(w.now);
    w.justSwept = true;
    return `now ${new Date(w.now).toISOString()}; ${swept}`;
  }
}

/** The calendar and money part of background.server.ts's minute, with the fake provider. */
export async function backgroundSweep(w: World): Promise<string> {
  const settings = {
    waitlist: w.waitlistSettings(),
    cancellation: w.cancellationSettings(),
    provider: w.provider(),
  };
  const holds = sweepHolds(w.now, settings);
  const { claims, plans, offered } = await sweepClaims(w.now, settings);
  return `holds expired ${holds.expired}, offers made ${holds.offered + offered}, claims finished ${claims.finished} released ${claims.released} failed ${claims.failed}${plans.closed + plans.failed ? `, abandoned checkout plans closed ${plans.closed} failed ${plans.failed}` : ""}`;
}

// ---------------------------------------------------------------- paying

const CARD = (number: string): CardInput => ({
  paymentMethod: "card",
  cardName: "Pat Payer",
  cardNumber: number,
  expirationDate: "12/30",
  cvv: "123",
});

/** The sandbox's card form: one booking, or every payable session of a series at once. */
export class PayByCard extends Step {
  constructor(readonly fields: { target: number; declined: boolean }) {
    super();
  }
  toString() {
    return `pay by card (unpaid order pick ${this.fields.target}${this.fields.declined ? ", declined card" : ""})`;
  }
  check(w: Readonly<World>) {
    return w.mode === "card";
  }
  async exec(w: World, say: Say) {
    const target = pickFrom(unpaidOrders(w), this.fields.target);
    if (!target) return "nothing to pay";
    const card = CARD(this.fields.declined ? SANDBOX_CARDS.declined : SANDBOX_CARDS.success);
    if (target.seriesId !== null) {
      const sessions = payableSessions(listOrderSessions(db, target.seriesId), w.now);
      say(
        `card form pays series S${target.seriesId} (${sessions.map((b) => `B${b.id} $${b.totalCost}`).join(", ")})`,
      );
      w.fake.expectCard(sessions.map((b) => ({ bookingId: b.id, amount: b.totalCost })));
      const result = chargeSandboxCard(target.seriesId, card, w.now);
      return result.ok ? `paid ${result.paid.length} sessions` : `not paid: ${result.message}`;
    }
    say(`card form pays ${w.describeBooking(target)}`);
    w.fake.expectCard([{ bookingId: target.id, amount: target.totalCost }]);
    const result = chargeSandboxCard(orderOf(target), card, w.now);
    return result.ok ? `paid (${result.transactionId})` : `not paid: ${result.message}`;
  }
}

/** "Pay Now": the hosted checkout of a booking, or its series' when it is in one. */
export class OpenCheckout extends Step {
  constructor(readonly fields: { target: number }) {
    super();
  }
  toString() {
    return `open hosted checkout (unpaid order pick ${this.fields.target})`;
  }
  check(w: Readonly<World>) {
    return w.mode === "hosted";
  }
  async exec(w: World, say: Say) {
    const target = pickFrom(unpaidOrders(w), this.fields.target);
    if (!target) return "nothing to pay";
    const provider = w.fake.hosted();
    let url: string;
    if (target.seriesId !== null) {
      say(`customer opens the checkout of series S${target.seriesId}`);
      ({ url } = await openHostedCheckout(
        target.seriesId,
        APP_URL,
        `/checkout/series/${target.seriesId}`,
        provider,
      ));
    } else {
      say(`customer opens the checkout of ${w.describeBooking(target)}`);
      ({ url } = await openHostedCheckout(
        orderOf(target),
        APP_URL,
        `/checkout/${target.id}`,
        provider,
      ));
    }
    const shown = /pay\.fake\/(cs_\d+)$/.exec(url)?.[1];
    if (shown && !w.shownCheckouts.includes(shown)) w.shownCheckouts.push(shown);
    return `sent to ${url.replace(APP_URL, "")}`;
  }
}

/** The customer pays on the provider's page; the provider queues its webhook event. */
export class PayCheckout extends Step {
  constructor(readonly fields: { pick: number }) {
    super();
  }
  toString() {
    return `customer pays on the provider's page (checkout pick ${this.fields.pick})`;
  }
  check(w: Readonly<World>) {
    return w.mode === "hosted";
  }
  async exec(w: World, say: Say) {
    const open = w.shownCheckouts.filter((id) => w.fake.checkouts.get(id)?.status === "open");
    const id = pickFrom(open.length ? open : w.shownCheckouts, this.fields.pick);
    if (!id) return "no checkout page";
    say(`customer pays checkout ${id}`);
    await w.gate(`pay ${id}`);
    const charge = w.fake.completeCheckout(id);
    return charge
      ? `provider took $${charge.amount} (${charge.id}: ${charge.lines.map((l) => `B${l.bookingId} $${l.amount}`).join(", ")}); webhook queued`
      : `the provider's page says it can no longer be paid (${w.fake.checkouts.get(id)?.status})`;
  }
}

/** A webhook event arrives: a pending one in any order, or one already delivered again. */
export class DeliverWebhook extends Step {
  constructor(readonly fields: { pick: number; again: boolean }) {
    super();
  }
  toString() {
    return `webhook (event pick ${this.fields.pick}${this.fields.again ? ", duplicate delivery" : ""})`;
  }
  check(w: Readonly<World>) {
    return w.mode === "hosted";
  }
  async exec(w: World, say: Say) {
    const pending = w.fake.events.filter((event) => event.delivered === 0);
    const event = pickFrom(this.fields.again ? w.fake.events : pending, this.fields.pick);
    if (!event) return "no event";
    say(
      `provider delivers ${event.id} (${event.type} ${event.checkoutId})${event.delivered ? ` again (delivery ${event.delivered + 1})` : ""}`,
    );
    return deliver(w, event);
  }
}

export async function deliver(w: World, event: World["fake"]["events"][number]) {
  const outcome = await handlePaymentWebhook(
    w.fake.webhookBody(event),
    "fake-signature",
    w.fake.hosted(),
  );
  if (outcome !== "retry") event.delivered += 1;
  return outcome;
}

/** The success page (and GET /api/payments/status) asks about a checkout. */
export class SuccessPage extends Step {
  constructor(readonly fields: { pick: number }) {
    super();
  }
  toString() {
    return `success page (checkout pick ${this.fields.pick})`;
  }
  check(w: Readonly<World>) {
    return w.mode === "hosted";
  }
  async exec(w: World, say: Say) {
    const id = pickFrom(w.shownCheckouts, this.fields.pick);
    if (!id) return "no checkout";
    say(`success page verifies ${id}`);
    const result = await verifyCheckout(id, w.fake.hosted());
    return result ? `paid ${result.paid}, pending ${result.pending}` : "not ours";
  }
}

/** Staff refund part of a charge in the provider's dashboard, outside the app. */
export class DashboardRefund extends Step {
  constructor(readonly fields: { pick: number; line: number }) {
    super();
  }
  toString() {
    return `staff refund in the provider's dashboard (charge pick ${this.fields.pick}, line ${this.fields.line})`;
  }
  check(w: Readonly<World>) {
    return w.mode === "hosted";
  }
  async exec(w: World, say: Say) {
    const charges = w.fake.charges.filter((charge) => w.fake.refundable(charge) > 0);
    const charge = pickFrom(charges, this.fields.pick);
    const line = charge ? pickFrom(charge.lines, this.fields.line) : undefined;
    if (!charge || !line) return "no charge to refund";
    say(
      `staff refund $${line.amount} of ${charge.id} in the provider's dashboard (meaning B${line.bookingId}'s line; the refund carries no metadata)`,
    );
    const refund = w.fake.dashboardRefund(charge.id, line);
    return refund ? `provider made ${refund.id}` : "provider refused";
  }
}

// ---------------------------------------------------------------- cancelling, moving

export class Cancel extends Step {
  constructor(readonly fields: { target: number; by: "customer" | "staff"; following: boolean }) {
    super();
  }
  toString() {
    const f = this.fields;
    return `cancel (booking pick ${f.target}, by ${f.by}${f.following ? ", this and all later" : ""})`;
  }
  async exec(w: World, say: Say) {
    const f = this.fields;
    const target = pickFrom(
      w.bookings().filter((b) => !TERMINAL.includes(b.status)),
      f.target,
    );
    if (!target) return "nothing to cancel";
    const owner = w.customer(target.userId);
    if (f.by === "staff" && f.following && target.seriesId !== null) {
      say(`staff cancel ${w.describeBooking(target)} and all later`);
      const result = await cancelFollowingForStudio(
        { bookingId: target.id, actorUserId: w.staff.id },
        w.now,
        w.cancellationSettings(),
      );
      return `cancelled ${describeFollowing(result)}`;
    }
    if (f.by === "staff") {
      say(`staff cancel ${w.describeBooking(target)}`);
      const cancelled = await changeBookingStatus(
        target.id,
        "CANCELLED",
        { id: w.staff.id },
        null,
        w.now,
        w.workflowSettings(),
      );
      return `${cancelled.status}, refunded $${refundedOf(target.id)}`;
    }
    if (f.following && target.seriesId !== null) {
      const planned = planCancelFollowing(target, w.now, w.cancellationSettings().feePercent);
      const shown = "plan" in planned ? planned.plan.refund : null;
      say(
        `${owner?.label} cancels ${w.describeBooking(target)} and all later (dialog shows refund $${shown ?? "-"})`,
      );
      const result = await cancelOwnFollowing(
        { bookingId: target.id, userId: target.userId, expectedRefund: shown },
        w.now,
        w.cancellationSettings(),
      );
      return `cancelled ${describeFollowing(result)}`;
    }
    const shown = cancellationQuote(db, target, w.now, w.cancellationSettings().feePercent).refund;
    say(`${owner?.label} cancels ${w.describeBooking(target)} (dialog shows refund $${shown})`);
    const { quote } = await cancelOwnBooking(
      { bookingId: target.id, userId: target.userId, expectedRefund: shown },
      w.now,
      w.cancellationSettings(),
    );
    return `cancelled, refund $${quote.refund} (${quote.kind})`;
  }
}

function describeFollowing(result: FollowingResult) {
  const each = result.cancelled.map(
    ({ booking, quote }) => `B${booking.id} refund $${quote.refund}`,
  );
  return `${each.join(", ")}${result.stopped ? `; stopped at B${result.stopped.bookingId}` : ""}`;
}

function refundedOf(bookingId: number) {
  const row = db.$client
    .prepare(
      "SELECT coalesce(-sum(amount), 0) AS n FROM payments WHERE booking_id = ? AND amount < 0",
    )
    .get(bookingId) as { n: number };
  return row.n;
}

export class Reschedule extends Step {
  constructor(readonly fields: { target: number; day: number; time: (typeof TIMES)[number] }) {
    super();
  }
  toString() {
    return `reschedule (booking pick ${this.fields.target} to day +${this.fields.day} ${this.fields.time})`;
  }
  async exec(w: World, say: Say) {
    const target = pickFrom(
      w.bookings().filter((b) => b.status === "PENDING" || b.status === "CONFIRMED"),
      this.fields.target,
    );
    if (!target) return "nothing to move";
    const date = w.day(this.fields.day);
    say(
      `${w.customer(target.userId)?.label} moves ${w.describeBooking(target)} to ${date} ${this.fields.time}`,
    );
    const moved = rescheduleOwnBooking(
      {
        bookingId: target.id,
        userId: target.userId,
        recordingDate: date,
        recordingTime: this.fields.time,
      },
      w.now,
      w.rescheduleSettings(),
    );
    return `now ${moved.recordingDate} ${moved.recordingTime}`;
  }
}

/** Staff change a session's status forward; out of Pending Payment it means "paid offline". */
export class StaffStatusChange extends Step {
  constructor(readonly fields: { target: number; steps: number; unpaidFirst: boolean }) {
    super();
  }
  toString() {
    return `staff status change forward (booking pick ${this.fields.target}, ${this.fields.steps} step(s)${this.fields.unpaidFirst ? ", an unpaid one" : ""})`;
  }
  async exec(w: World, say: Say) {
    const changeable = w.bookings().filter((b) => !TERMINAL.includes(b.status));
    const unpaid = changeable.filter((b) => b.status === "PENDING_PAYMENT");
    const target = pickFrom(
      this.fields.unpaidFirst && unpaid.length ? unpaid : changeable,
      this.fields.target,
    );
    if (!target) return "nothing to change";
    const from = WORKFLOW_ORDER.indexOf(target.status);
    const to = WORKFLOW_ORDER[Math.min(from + this.fields.steps, WORKFLOW_ORDER.length - 1)];
    if (!to || to === target.status) return "nothing to change";
    say(
      `staff status change ${w.describeBooking(target)} to ${to}${target.status === "PENDING_PAYMENT" ? " (paid offline)" : ""}`,
    );
    const changed = await changeBookingStatus(
      target.id,
      to,
      { id: w.staff.id },
      null,
      w.now,
      w.workflowSettings(),
    );
    if (
      target.status === "PENDING_PAYMENT" &&
      refundedOf(target.id) === 0 &&
      !hasPayment(target.id)
    ) {
      w.offlinePaid.add(target.id);
    }
    return `now ${changed.status}`;
  }
}

function hasPayment(bookingId: number) {
  return (
    db.$client
      .prepare("SELECT 1 FROM payments WHERE booking_id = ? AND amount > 0")
      .get(bookingId) !== undefined
  );
}

// ---------------------------------------------------------------- waitlist

export class JoinWaitlist extends Step {
  constructor(readonly fields: { who: number; target: number }) {
    super();
  }
  toString() {
    return `join waitlist (customer ${this.fields.who}, for the range of booking pick ${this.fields.target})`;
  }
  check(w: Readonly<World>) {
    return w.customers.length > 0;
  }
  async exec(w: World, say: Say) {
    const customer = customerOf(w, this.fields.who);
    const target = pickFrom(
      w.bookings().filter((b) => b.status !== "CANCELLED"),
      this.fields.target,
    );
    if (!customer || !target) return "nothing to wait for";
    const mine = target.userId === customer.id ? " (their own booking's slot)" : "";
    say(
      `${customer.label} joins the waitlist for ${target.recordingDate} ${target.recordingTime} ${target.hoursNeeded}h, held by ${w.describeBooking(target)}${mine}`,
    );
    const entry = joinWaitlist(
      customer.id,
      {
        recordingDate: target.recordingDate,
        recordingTime: target.recordingTime,
        hoursNeeded: Number(target.hoursNeeded),
      },
      w.now,
      w.waitlistSettings(),
    );
    return `entry W${entry.id} ${entry.status}`;
  }
}

function entries(w: World, status?: "OFFERED") {
  return db
    .select()
    .from(waitlistEntries)
    .where(status ? eq(waitlistEntries.status, status) : undefined)
    .orderBy(asc(waitlistEntries.id))
    .all()
    .filter((entry) => w.customer(entry.userId));
}

export class LeaveWaitlist extends Step {
  constructor(readonly fields: { pick: number }) {
    super();
  }
  toString() {
    return `leave waitlist (entry pick ${this.fields.pick})`;
  }
  async exec(w: World, say: Say) {
    const open = entries(w).filter((e) => e.status === "WAITING" || e.status === "OFFERED");
    const entry = pickFrom(open, this.fields.pick);
    if (!entry) return "no open entry";
    say(`${w.customer(entry.userId)?.label} removes W${entry.id} (${entry.status})`);
    removeWaitlistEntry(entry.userId, entry.id, w.now, w.waitlistSettings());
    return "removed";
  }
}

/** The customer books the time an offer holds for them (the form's `?claim=`). */
export class ClaimOffer extends Step {
  constructor(readonly fields: { pick: number; coupon: number | null }) {
    super();
  }
  toString() {
    return `claim waitlist offer (offer pick ${this.fields.pick})`;
  }
  async exec(w: World, say: Say) {
    const entry = pickFrom(entries(w, "OFFERED"), this.fields.pick);
    const customer = entry ? w.customer(entry.userId) : undefined;
    if (!entry || !customer) return "no offer";
    say(
      `${customer.label} claims offer W${entry.id} (${entry.recordingDate} ${entry.recordingTime} ${entry.hoursNeeded}h)${requestText(w, { coupon: this.fields.coupon, services: [] })}`,
    );
    const booking = bookSession(
      publicUser(customer.id),
      request(w, customer, {
        date: entry.recordingDate,
        time: entry.recordingTime,
        hours: entry.hoursNeeded,
        coupon: this.fields.coupon,
        services: [],
        retainer: false,
      }),
      w.now,
      w.bookingSettings(),
      { waitlistEntryId: entry.id },
    );
    return `booked ${w.describeBooking(booking)}`;
  }
}

// ---------------------------------------------------------------- blocked times

export class Block extends Step {
  constructor(readonly fields: { day: number; time: (typeof TIMES)[number]; hours: number }) {
    super();
  }
  toString() {
    return `block time (day +${this.fields.day} ${this.fields.time} ${this.fields.hours}h)`;
  }
  async exec(w: World, say: Say) {
    const date = w.day(this.fields.day);
    const startsAt = studioInstant(date, this.fields.time);
    if (startsAt <= w.now) return "that time is over";
    say(`staff block ${date} ${this.fields.time} for ${this.fields.hours}h`);
    const { block, overlapping } = writeTransaction((tx) =>
      createBlockedTime(
        tx,
        { startsAt, endsAt: startsAt + this.fields.hours * HOUR, reason: "maintenance" },
        w.staff.id,
        w.now,
      ),
    );
    // Saved over live sessions and offers on purpose (docs/product.md "Blocked times").
    for (const session of overlapping) w.excused.add(`${block.id}:b${session.id}`);
    for (const entry of entries(w, "OFFERED")) {
      if (
        (entry.offerExpiresAt ?? 0) > w.now &&
        entry.startsAt < block.endsAt &&
        block.startsAt < entry.endsAt
      ) {
        w.excused.add(`${block.id}:o${entry.id}`);
      }
    }
    return `K${block.id}, over ${overlapping.length} live session(s)`;
  }
}

export class Unblock extends Step {
  constructor(readonly fields: { pick: number }) {
    super();
  }
  toString() {
    return `remove blocked time (pick ${this.fields.pick})`;
  }
  async exec(_w: World, say: Say) {
    const blocks = db.$client.prepare("SELECT id FROM blocked_times ORDER BY id").all() as {
      id: number;
    }[];
    const block = pickFrom(blocks, this.fields.pick);
    if (!block) return "no block";
    say(`staff remove K${block.id}`);
    return writeTransaction((tx) => removeBlockedTime(tx, block.id)) ? "removed" : "already gone";
  }
}

// ---------------------------------------------------------------- faults, concurrency

export class ArmFault extends Step {
  constructor(readonly fields: { op: FaultOp; mode: FaultMode }) {
    super();
  }
  toString() {
    return `provider: next ${this.fields.op} call will ${this.fields.mode === "fail" ? "fail" : "be made, then time out"}`;
  }
  // The sandbox runs in the process: nothing between it and the app can fail or time out.
  check(w: Readonly<World>) {
    return w.mode === "hosted";
  }
  async exec(w: World) {
    w.fake.arm(this.fields.op, this.fields.mode);
    return "armed";
  }
}

/**
 * Two commands at once: their provider calls interleave in the scheduler's order. Without a
 * second one (what shrinking tends to), the first runs alone.
 */
export class Together extends Step {
  constructor(
    readonly a: Step,
    readonly b: Step | null,
  ) {
    super();
  }
  toString() {
    return this.b ? `at once { ${this.a} | ${this.b} }` : this.a.toString();
  }
  check(w: Readonly<World>) {
    return this.a.check(w) && (this.b === null || this.b.check(w));
  }
  async exec(): Promise<string> {
    throw new Error("Together runs through perform");
  }
  async perform(w: World, prefix: string): Promise<void> {
    if (this.b === null) return this.a.perform(w, prefix);
    w.log(`${prefix}at once:`);
    const b = this.b;
    await Promise.all([this.a.perform(w, "    || "), b.perform(w, "    || ")]);
    // A sweep that ran beside another command may have run before that one's change.
    w.justSwept = false;
  }
}

// ---------------------------------------------------------------- arbitraries

const who = fc.nat({ max: 7 });
const pick = fc.nat({ max: 11 });
const day = fc.integer({ min: 2, max: 9 });
const time = fc.constantFrom(...TIMES);
const hours = fc.integer({ min: 2, max: 4 });
const coupon = fc.option(fc.integer({ min: 0, max: 3 }), { freq: 2 });
const serviceSet = fc.subarray([0, 1]);

const register = fc
  .record({
    stakeholder: fc.boolean(),
    member: fc.boolean(),
    retainer: fc.option(
      fc.record({
        day: fc.integer({ min: 2, max: 4 }),
        time: fc.constantFrom(...TIMES),
        hours: fc.integer({ min: 2, max: 3 }),
      }),
      { freq: 3 },
    ),
  })
  .map((f) => new Register(f));
const bookSingle = fc
  .record({
    who,
    day,
    time,
    hours,
    coupon,
    services: serviceSet,
    // A retainer purchase one time in four; shrinks to an ordinary booking.
    retainer: fc.integer({ min: 0, max: 3 }).map((n) => n === 3),
  })
  .map((f) => new BookSingle(f));
const bookSeriesArb = fc
  .record({
    who,
    day,
    time,
    hours,
    coupon,
    services: serviceSet,
    every: fc.constantFrom("week" as const, "2weeks" as const),
    // 2-12 sessions; the cap's edge (12) drawn often, shrinking towards 2.
    count: fc.integer({ min: 0, max: 15 }).map((n) => Math.min(12, n + 2)),
  })
  .map((f) => new BookSeries(f));
const advance = fc
  .record({
    minutes: fc.constantFrom(1, 16, 11, 31, 6 * 60, 24 * 60, 3 * 24 * 60),
    sweep: fc.boolean(),
  })
  .map((f) => new Advance(f));
const payByCard = fc
  .record({ target: pick, declined: fc.integer({ min: 0, max: 3 }).map((n) => n === 3) })
  .map((f) => new PayByCard(f));
const openCheckout = fc.record({ target: pick }).map((f) => new OpenCheckout(f));
const payCheckout = fc.record({ pick }).map((f) => new PayCheckout(f));
const deliverWebhook = fc.record({ pick, again: fc.boolean() }).map((f) => new DeliverWebhook(f));
const successPage = fc.record({ pick }).map((f) => new SuccessPage(f));
const dashboardRefund = fc.record({ pick, line: pick }).map((f) => new DashboardRefund(f));
const cancel = fc
  .record({
    target: pick,
    by: fc.constantFrom("customer" as const, "staff" as const),
    following: fc.boolean(),
  })
  .map((f) => new Cancel(f));
const reschedule = fc.record({ target: pick, day, time }).map((f) => new Reschedule(f));
const staffStatusChange = fc
  .record({ target: pick, steps: fc.integer({ min: 1, max: 2 }), unpaidFirst: fc.boolean() })
  .map((f) => new StaffStatusChange(f));
const joinWaitlistArb = fc.record({ who, target: pick }).map((f) => new JoinWaitlist(f));
const leaveWaitlist = fc.record({ pick }).map((f) => new LeaveWaitlist(f));
const claimOffer = fc.record({ pick, coupon }).map((f) => new ClaimOffer(f));
const block = fc.record({ day, time, hours }).map((f) => new Block(f));
const unblock = fc.record({ pick }).map((f) => new Unblock(f));
const armFault = fc
  .record({ op: fc.constantFrom(...FAULT_OPS), mode: fc.constantFrom(...FAULT_MODES) })
  .map((f) => new ArmFault(f));

/** The commands that may run at once with another (anything that can await a provider). */
const concurrent = fc.oneof(
  cancel,
  openCheckout,
  payCheckout,
  deliverWebhook,
  successPage,
  staffStatusChange,
  payByCard,
  advance,
  bookSingle,
  reschedule,
);
const together = fc.oneof(
  fc.tuple(concurrent, fc.option(concurrent, { freq: 8 })).map(([a, b]) => new Together(a, b)),
  // A double submit: the same command twice at once.
  fc.tuple(concurrent, fc.boolean()).map(([a, twice]) => new Together(a, twice ? a : null)),
);

/** Every command, weighted towards the money flows; one arbitrary for fc.commands. */
export const COMMAND: fc.Arbitrary<Step> = fc.oneof(
  { arbitrary: register, weight: 2 },
  { arbitrary: bookSingle, weight: 6 },
  { arbitrary: bookSeriesArb, weight: 5 },
  { arbitrary: advance, weight: 6 },
  { arbitrary: payByCard, weight: 4 },
  { arbitrary: openCheckout, weight: 5 },
  { arbitrary: payCheckout, weight: 5 },
  { arbitrary: deliverWebhook, weight: 4 },
  { arbitrary: successPage, weight: 2 },
  { arbitrary: dashboardRefund, weight: 3 },
  { arbitrary: cancel, weight: 6 },
  { arbitrary: reschedule, weight: 2 },
  { arbitrary: staffStatusChange, weight: 4 },
  { arbitrary: joinWaitlistArb, weight: 4 },
  { arbitrary: leaveWaitlist, weight: 1 },
  { arbitrary: claimOffer, weight: 2 },
  { arbitrary: block, weight: 1 },
  { arbitrary: unblock, weight: 1 },
  { arbitrary: armFault, weight: 2 },
  { arbitrary: together, weight: 4 },
);
