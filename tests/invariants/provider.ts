import { AsyncLocalStorage } from "node:async_hooks";
import { CARD_MESSAGES, cardBrand, passesLuhn, SANDBOX_CARDS } from "#app/domain/card";
import {
  type CardFormProvider,
  type CheckoutRequest,
  type CheckoutSession,
  type HostedCheckoutProvider,
  type MadeRefund,
  type PaymentEvent,
  PaymentProviderError,
  type RefundRequest,
  WebhookSignatureError,
} from "#app/integrations/payments/types";

/**
 * The fake payment provider of the invariant harness, and its ledger: what the provider
 * believes happened to the money, to compare with what the app recorded.
 *
 * One object plays either provider kind, chosen per history:
 * - `hosted`: a Stripe-like provider with the contract of app/integrations/payments/stripe.server.ts
 *   (an order's checkout with its sessions in the metadata, PaymentIntents, refunds listed
 *   newest first and matched by `earlierRefund`'s rule: only a refund whose metadata names the
 *   booking is its refund), webhooks the harness delivers late, twice or out of order;
 * - `card`: the sandbox's card form (app/integrations/payments/sandbox.server.ts), whose
 *   charges the harness records with the amount it is about to be asked for.
 *
 * Every call first waits on the history's fast-check scheduler, so two commands running at
 * once interleave at each provider call in an order fast-check chooses (and shrinks). A call
 * may be armed to fail (nothing done, retryable error) or to time out (done at the provider,
 * then a retryable error: the caller cannot know it happened).
 */

export type ProviderMode = "hosted" | "card";
/**
 * The clock as a command began: the `now` the app was called with. The clock may move while
 * a call is awaited, so the provider's own clock can be later than the app's decision.
 */
export const commandStart = new AsyncLocalStorage<number>();

export const FAULT_OPS = ["checkout", "retrieve", "close", "refund", "findRefund"] as const;
export type FaultOp = (typeof FAULT_OPS)[number];
export const FAULT_MODES = ["fail", "timeout"] as const;
export type FaultMode = (typeof FAULT_MODES)[number];

export type Line = { bookingId: number; amount: number };

export type LedgerCheckout = {
  id: string;
  url: string;
  idempotencyKey: string;
  lines: Line[];
  /** The order it was opened for and the sessions it pays, as its metadata says. */
  order: { id: number; bookingIds: number[] };
  expiresAt: number;
  status: "open" | "complete" | "expired";
  paymentIntent: string | null;
  createdAt: number;
};

export type LedgerCharge = {
  /** A PaymentIntent (hosted) or the sandbox's transaction id (card). */
  id: string;
  kind: "checkout" | "card";
  checkoutId: string | null;
  amount: number;
  /** Which sessions the money was taken for (the checkout's line items, or the card form's). */
  lines: Line[];
  at: number;
};

export type LedgerRefund = {
  id: string;
  chargeId: string;
  amount: number;
  at: number;
  /** When the request that asked for it began: the `now` the app decided its amount at. */
  askedAt: number;
  /** The booking its metadata names (every refund the app asks for names one). */
  bookingId: number | null;
  /** Made by staff in the provider's dashboard: no metadata at all. */
  viaDashboard: boolean;
  /** For a dashboard refund: the session staff meant, which the provider does not know. */
  meantFor: number | null;
  idempotencyKey: string | null;
};

export type ProviderEventRecord = {
  id: string;
  type: string;
  checkoutId: string;
  /** Successful deliveries (answered 2xx); a `retry` answer does not count. */
  delivered: number;
};

export type ProviderCall = { op: string; detail: string; outcome: string };

class FakeTimeout extends Error {}

export class FakeProvider {
  mode: ProviderMode = "hosted";
  checkouts = new Map<string, LedgerCheckout>();
  charges: LedgerCharge[] = [];
  refunds: LedgerRefund[] = [];
  events: ProviderEventRecord[] = [];
  /** Idempotency keys the app sent again with other parameters (Stripe refuses them). */
  keyMisuses: string[] = [];
  /** Provider calls of the current step, for the trace. */
  calls: ProviderCall[] = [];
  private faults: { op: FaultOp; mode: FaultMode }[] = [];
  /** How many armed faults have fired so far (a sweep with none fired was answered in full). */
  faultsFired = 0;
  private counter = 0;
  /** The card form's next charge: what the harness is about to pay with it. */
  private cardLines: Line[] = [];

  constructor(
    private readonly now: () => number,
    /** Waits until the history's scheduler lets this call go on. */
    private readonly gate: (label: string) => Promise<void>,
  ) {}

  reset(mode: ProviderMode) {
    this.mode = mode;
    this.checkouts.clear();
    this.charges = [];
    this.refunds = [];
    this.events = [];
    this.keyMisuses = [];
    this.calls = [];
    this.faults = [];
    this.faultsFired = 0;
    this.counter = 0;
    this.cardLines = [];
  }

  private next(prefix: string) {
    this.counter += 1;
    return `${prefix}_${this.counter}`;
  }

  arm(op: FaultOp, mode: FaultMode) {
    this.faults.push({ op, mode });
  }

  /** Waits for the scheduler, then fails now if armed to; returns whether to time out after. */
  private async enter(op: FaultOp, detail: string): Promise<boolean> {
    await this.gate(`${op} ${detail}`);
    const at = this.faults.findIndex((fault) => fault.op === op);
    if (at === -1) return false;
    const [fault] = this.faults.splice(at, 1);
    this.faultsFired += 1;
    if (fault?.mode === "fail") {
      this.calls.push({ op, detail, outcome: "failed (nothing done)" });
      throw new PaymentProviderError(`fake provider: ${op} failed`, { retryable: true });
    }
    return true;
  }

  /** Runs one provider operation with its armed fault, logging it for the trace. */
  private async call<T>(op: FaultOp, detail: string, run: () => T, show: (v: T) => string) {
    const timeout = await this.enter(op, detail);
    let value: T;
    try {
      value = run();
    } catch (error) {
      this.calls.push({ op, detail, outcome: `refused: ${(error as Error).message}` });
      throw error;
    }
    if (timeout) {
      this.calls.push({ op, detail, outcome: `${show(value)}, then timed out` });
      throw new PaymentProviderError(`fake provider: ${op} timed out`, {
        retryable: true,
        cause: new FakeTimeout(),
      });
    }
    this.calls.push({ op, detail, outcome: show(value) });
    return value;
  }

  // ---- what the provider's own side does (the customer on its page, staff in its dashboard)

  /** The customer pays on the hosted page. Null when it can no longer be paid. */
  completeCheckout(checkoutId: string): LedgerCharge | null {
    const checkout = this.checkouts.get(checkoutId);
    if (!checkout) return null;
    this.expireIfDue(checkout);
    if (checkout.status !== "open") return null;
    const charge: LedgerCharge = {
      id: this.next("pi"),
      kind: "checkout",
      checkoutId,
      amount: checkout.lines.reduce((sum, line) => sum + line.amount, 0),
      lines: checkout.lines.map((line) => ({ ...line })),
      at: this.now(),
    };
    checkout.status = "complete";
    checkout.paymentIntent = charge.id;
    this.charges.push(charge);
    this.events.push({
      id: this.next("evt"),
      type: "checkout.session.completed",
      checkoutId,
      delivered: 0,
    });
    return charge;
  }

  /** Staff refund part of a charge in the provider's dashboard: no metadata at all. */
  dashboardRefund(chargeId: string, line: Line): LedgerRefund | null {
    const charge = this.charges.find((c) => c.id === chargeId);
    if (!charge || this.refundable(charge) < line.amount || line.amount <= 0) return null;
    const refund: LedgerRefund = {
      id: this.next("re"),
      chargeId,
      amount: line.amount,
      at: this.now(),
      askedAt: this.now(),
      bookingId: null,
      viaDashboard: true,
      meantFor: line.bookingId,
      idempotencyKey: null,
    };
    this.refunds.push(refund);
    return refund;
  }

  /** The body Stripe would post for an event (the app re-reads the checkout anyway). */
  webhookBody(event: ProviderEventRecord): string {
    return JSON.stringify({
      id: event.id,
      type: event.type,
      data: { object: { object: "checkout.session", id: event.checkoutId } },
    });
  }

  refundable(charge: LedgerCharge): number {
    const refunded = this.refunds
      .filter((refund) => refund.chargeId === charge.id)
      .reduce((sum, refund) => sum + refund.amount, 0);
    return charge.amount - refunded;
  }

  // ---- the card form's charges

  /** The amounts the next card charge takes (the harness knows what it is paying). */
  expectCard(lines: Line[]) {
    this.cardLines = lines.map((line) => ({ ...line }));
  }

  // ---- shared contract pieces

  /**
   * `earlierRefund` of stripe.server.ts: the first listed (newest first) refund of the charge
   * whose metadata names this booking (a dashboard refund names none and is never one).
   */
  private earlierRefund(chargeId: string, bookingId: number): MadeRefund | null {
    const listed = this.refunds.filter((refund) => refund.chargeId === chargeId).reverse();
    const made = listed.find((refund) => refund.bookingId === bookingId);
    return made ? { refundId: made.id, amount: made.amount } : null;
  }

  private makeRefund(request: RefundRequest): MadeRefund {
    const earlier = this.earlierRefund(request.paymentTransactionId, request.bookingId);
    if (earlier) return earlier;
    const keyed = this.refunds.find((refund) => refund.idempotencyKey === request.idempotencyKey);
    if (keyed) return { refundId: keyed.id, amount: keyed.amount };
    const charge = this.charges.find((c) => c.id === request.paymentTransactionId);
    if (!charge) {
      throw new PaymentProviderError(`No such payment_intent ${request.paymentTransactionId}`, {
        retryable: false,
      });
    }
    if (request.amount <= 0 || request.amount > this.refundable(charge)) {
      throw new PaymentProviderError(
        `Refund of ${request.amount} exceeds what is left on ${charge.id}`,
        { retryable: false },
      );
    }
    const refund: LedgerRefund = {
      id: this.next("re"),
      chargeId: charge.id,
      amount: request.amount,
      at: this.now(),
      askedAt: commandStart.getStore() ?? this.now(),
      bookingId: request.bookingId,
      viaDashboard: false,
      meantFor: null,
      idempotencyKey: request.idempotencyKey,
    };
    this.refunds.push(refund);
    return { refundId: refund.id, amount: refund.amount };
  }

  private expireIfDue(checkout: LedgerCheckout) {
    if (checkout.status === "open" && this.now() >= checkout.expiresAt) checkout.status = "expired";
  }

  private view(checkout: LedgerCheckout): CheckoutSession {
    this.expireIfDue(checkout);
    const paid = checkout.status === "complete";
    return {
      id: checkout.id,
      status: checkout.status,
      url: checkout.status === "open" ? checkout.url : null,
      paid,
      order: checkout.order,
      amountTotal: checkout.lines.reduce((sum, line) => sum + line.amount, 0) * 100,
      currency: "usd",
      paymentId: checkout.paymentIntent,
      card: paid ? { brand: "visa", last4: "4242" } : { brand: "unknown", last4: "" },
    };
  }

  private checkout(id: string): LedgerCheckout {
    const checkout = this.checkouts.get(id);
    if (!checkout) {
      throw new PaymentProviderError(`No such checkout.session ${id}`, { retryable: false });
    }
    return checkout;
  }

  private openCheckout(
    request: Pick<CheckoutRequest, "idempotencyKey" | "expiresAt">,
    lines: Line[],
    order: LedgerCheckout["order"],
  ): CheckoutSession {
    const replay = [...this.checkouts.values()].find(
      (checkout) => checkout.idempotencyKey === request.idempotencyKey,
    );
    if (replay) {
      // Stripe refuses a key reused with other parameters (the app's mistake, not the network's).
      const asked = JSON.stringify({ lines, order, expiresAt: request.expiresAt });
      const first = JSON.stringify({
        lines: replay.lines,
        order: replay.order,
        expiresAt: replay.expiresAt,
      });
      if (asked !== first) {
        this.keyMisuses.push(`${request.idempotencyKey} sent for ${asked}, first for ${first}`);
        throw new PaymentProviderError(
          "Keys for idempotent requests can only be used with the same parameters",
          { retryable: false },
        );
      }
      return this.view(replay);
    }
    const id = this.next("cs");
    const checkout: LedgerCheckout = {
      id,
      url: `https://pay.fake/${id}`,
      idempotencyKey: request.idempotencyKey,
      lines,
      order,
      expiresAt: request.expiresAt,
      status: "open",
      paymentIntent: null,
      createdAt: this.now(),
    };
    this.checkouts.set(id, checkout);
    return this.view(checkout);
  }

  // ---- the provider objects the workflows are given

  hosted(): HostedCheckoutProvider {
    return {
      name: "stripe",
      checkout: "hosted",
      isCheckoutReference: (reference) => /^cs_\d+$/.test(reference),
      createCheckout: (request: CheckoutRequest) =>
        this.call(
          "checkout",
          `order ${request.orderId} [${request.lines.map((l) => `B${l.bookingId} $${l.amount}`).join(", ")}]`,
          () =>
            this.openCheckout(
              request,
              request.lines.map((line) => ({ bookingId: line.bookingId, amount: line.amount })),
              { id: request.orderId, bookingIds: request.lines.map((line) => line.bookingId) },
            ),
          (session) => `opened ${session.id}`,
        ),
      retrieveCheckout: (checkoutId) =>
        this.call(
          "retrieve",
          checkoutId,
          () => this.view(this.checkout(checkoutId)),
          (session) => session.status,
        ),
      closeCheckout: (checkoutId) =>
        this.call(
          "close",
          checkoutId,
          () => {
            const checkout = this.checkout(checkoutId);
            this.expireIfDue(checkout);
            if (checkout.status === "open") checkout.status = "expired";
            return this.view(checkout);
          },
          (session) => `now ${session.status}`,
        ),
      // Found by order and expiry as Stripe's list and metadata allow; its faults are close's.
      closeCheckoutsOf: ({ orderId, expiresAt }) =>
        this.call(
          "close",
          `order ${orderId}'s checkouts expiring ${new Date(expiresAt).toISOString()}`,
          () =>
            [...this.checkouts.values()]
              .filter((checkout) => {
                this.expireIfDue(checkout);
                return (
                  checkout.status === "open" &&
                  checkout.order.id === orderId &&
                  checkout.expiresAt === expiresAt
                );
              })
              .map((checkout) => {
                checkout.status = "expired";
                return this.view(checkout);
              }),
          (closed) =>
            closed.length
              ? `closed ${closed.map((session) => session.id).join(", ")}`
              : "none open",
        ),
      refund: (request) =>
        this.call(
          "refund",
          `B${request.bookingId} $${request.amount} of ${request.paymentTransactionId}`,
          () => this.makeRefund(request),
          (made) => `${made.refundId} $${made.amount}`,
        ),
      findRefund: (chargeId, bookingId) =>
        this.call(
          "findRefund",
          `${chargeId} B${bookingId ?? "?"}`,
          () => this.earlierRefund(chargeId, bookingId),
          (made) => (made ? `${made.refundId} $${made.amount}` : "none"),
        ),
      verifyWebhook: (rawBody, signature): PaymentEvent => {
        if (signature !== "fake-signature") throw new WebhookSignatureError("Invalid signature");
        const event = JSON.parse(rawBody) as {
          id: string;
          type: string;
          data: { object: { object: string; id: string } };
        };
        return {
          id: event.id,
          type: event.type,
          checkoutId: event.data.object.object === "checkout.session" ? event.data.object.id : null,
          refund: null,
        };
      },
    };
  }

  /**
   * The sandbox's contract (sandbox.server.ts): the card decided like the test cards, a refund
   * named by its booking, never an earlier refund to find, no hosted checkout to close.
   */
  card(): CardFormProvider {
    return {
      name: "sandbox",
      checkout: "card-form",
      chargeCard: (card) => {
        if (!passesLuhn(card.cardNumber))
          return { ok: false, message: CARD_MESSAGES.invalidNumber };
        if (card.cardNumber === SANDBOX_CARDS.declined) {
          return { ok: false, message: CARD_MESSAGES.declined };
        }
        const lines = this.cardLines;
        this.cardLines = [];
        const charge: LedgerCharge = {
          id: this.next("sandbox"),
          kind: "card",
          checkoutId: null,
          amount: lines.reduce((sum, line) => sum + line.amount, 0),
          lines,
          at: this.now(),
        };
        this.charges.push(charge);
        this.calls.push({
          op: "chargeCard",
          detail: card.cardNumber.slice(-4),
          outcome: charge.id,
        });
        return {
          ok: true,
          transactionId: charge.id,
          brand: cardBrand(card.cardNumber),
          last4: card.cardNumber.slice(-4),
        };
      },
      refund: (request) =>
        this.call(
          "refund",
          `B${request.bookingId} $${request.amount}`,
          () => {
            const id = `sandbox_refund_${request.bookingId}`;
            const earlier = this.refunds.find((refund) => refund.id === id);
            if (!earlier) {
              this.refunds.push({
                id,
                chargeId: request.paymentTransactionId,
                amount: request.amount,
                at: this.now(),
                askedAt: commandStart.getStore() ?? this.now(),
                bookingId: request.bookingId,
                viaDashboard: false,
                meantFor: null,
                idempotencyKey: request.idempotencyKey,
              });
            }
            return { refundId: id, amount: request.amount };
          },
          (made) => `${made.refundId} $${made.amount}`,
        ),
      findRefund: () =>
        this.call(
          "findRefund",
          "",
          () => null,
          () => "none",
        ),
      closeCheckout: async (checkoutId) => {
        throw new PaymentProviderError(`The sandbox opened no hosted checkout ${checkoutId}`, {
          retryable: false,
        });
      },
      isCheckoutReference: (reference) => reference.startsWith("sandbox_"),
    };
  }
}
