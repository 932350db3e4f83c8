import { useEffect, useState } from "react";
import { data, Link } from "react-router";
import { useShowToast } from "#app/components/toaster";
import {
  retryAfterHeaders,
  takePaymentStatusCheck,
  tooManyPaymentChecksMessage,
} from "#app/web/rate-limit.server";
import { clientAddressContext } from "#app/web/request-context.server";
import { mayBePending, verifyCheckout } from "#app/workflows/fulfil-payment.server";
import type { Route } from "./+types/booking-success";

/**
 * How often the page checks a payment that is still being confirmed (docs/product.md
 * "Booking-success page", decision 0090). Without JavaScript: this many page loads, each
 * repeat held `REFRESH_PAUSE_MS` on the server before it asks. With JavaScript: the first load,
 * then `POLL_ATTEMPTS` calls to GET /api/payments/status, `POLL_INTERVAL_MS` apart. Either way
 * at most 11 of the address's PAYMENT_STATUS_LIMIT (60 per 15 minutes) per visit.
 */
export const PAGE_CHECKS = 6;
export const REFRESH_PAUSE_MS = 4000;
export const POLL_ATTEMPTS = 10;
export const POLL_INTERVAL_MS = 3000;

type PageToast = { message: string; description: string; type: "success" | "error" };

/** The payment check's toasts (docs/product.md "Messages"). */
export const PAID_TOAST: PageToast = {
  type: "success",
  message: "Payment Successful",
  description: "Your booking has been confirmed and is now pending approval",
};
export const FAILED_TOAST: PageToast = {
  type: "error",
  message: "Payment Verification Failed",
  description: "There was an issue verifying your payment",
};
const CHECK_FAILED_TOAST: PageToast = {
  type: "error",
  message: "Payment Verification Failed",
  description: "Failed to verify payment status",
};

/** The 1-based check this load is, from `check=` (anything else is the first). */
function checkNumber(raw: string | null): number {
  const n = Number(raw);
  return Number.isInteger(n) && n >= 1 && n <= PAGE_CHECKS ? n : 1;
}

function nextCheckUrl(sessionId: string, check: number) {
  return `/booking-success?session_id=${encodeURIComponent(sessionId)}&check=${check + 1}`;
}

/**
 * Where a payment returns. The payment is verified on the server before the page is sent;
 * verifying also fulfils the booking when the provider's webhook has not arrived yet
 * (idempotent: it never pays twice). Only a checkout the site opened is looked up; any other id
 * is 'Payment Issue' without asking the provider. A payment Stripe is still confirming is
 * 'Verifying payment status...' and is checked again (see the constants above). Limited per
 * client address (PAYMENT_STATUS_LIMIT per 15 minutes), with the API's status check.
 */
export async function loader({ request, context }: Route.LoaderArgs) {
  const url = new URL(request.url);
  const sessionId = url.searchParams.get("session_id")?.trim();
  if (!sessionId || sessionId.length > 300) return { state: "missing" as const, message: null };
  const retryAfter = await takePaymentStatusCheck(context.get(clientAddressContext));
  if (retryAfter !== null) {
    return data(
      { state: "limited" as const, message: tooManyPaymentChecksMessage(retryAfter) },
      { status: 429, headers: { "Retry-After": String(retryAfter) } },
    );
  }
  const check = checkNumber(url.searchParams.get("check"));
  // A repeat check (the no-JavaScript refresh, which asks at once) waits here, on the page it
  // replaces: the pause between checks without a timed refresh (decision 0090).
  // Only a checkout that can be pending waits: any other reference is answered at once.
  if (check > 1 && mayBePending(sessionId)) await pause(REFRESH_PAUSE_MS, request.signal);
  const verification = await verifyCheckout(sessionId);
  if (verification?.paid) return { state: "paid" as const, message: null, pageToast: PAID_TOAST };
  if (verification?.pending && check < PAGE_CHECKS) {
    return {
      state: "pending" as const,
      message: null,
      sessionId,
      refreshWithoutScript: nextCheckUrl(sessionId, check),
    };
  }
  return { state: "failed" as const, message: null, pageToast: FAILED_TOAST };
}

export const headers: Route.HeadersFunction = retryAfterHeaders;

/** Waits `ms`, or less when the browser gives up on the request. */
function pause(ms: number, signal: AbortSignal) {
  return new Promise<void>((resolve) => {
    const timer = setTimeout(resolve, ms);
    signal.addEventListener("abort", () => {
      clearTimeout(timer);
      resolve();
    });
  });
}

const CONTENT = {
  pending: {
    title: "Verifying payment status...",
    text: [
      "Your payment is being confirmed. This page checks again by itself; please keep it open.",
    ],
  },
  paid: {
    title: "Payment Successful!",
    text: [
      "Thank you! Your booking has been received and is pending approval by our staff.",
      "You will get an e-mail confirmation once it is confirmed. Your booking details are in your dashboard.",
    ],
  },
  failed: {
    title: "Payment Issue",
    text: [
      "We could not verify this payment.",
      "Please check your dashboard or contact support if you were charged.",
    ],
  },
  missing: {
    title: "Missing payment information",
    text: ["This page needs a payment reference. Please check your dashboard for your booking."],
  },
  limited: {
    title: "Too Many Payment Checks",
    text: ["Your booking details are in your dashboard."],
  },
} as const;

type State = keyof typeof CONTENT;

/**
 * With JavaScript, a pending payment is asked about again through GET /api/payments/status
 * until it is paid, not pending any more, or the attempts run out (then 'Payment Issue').
 * A non-OK answer counts as a failure (the spec's client does the same).
 */
function usePaymentPolling(initial: State, sessionId: string | undefined): State {
  const [state, setState] = useState<State>(initial);
  const showToast = useShowToast();
  useEffect(() => {
    if (initial !== "pending" || !sessionId) return;
    let attempts = 0;
    let timer: number | undefined;
    const controller = new AbortController();
    const finish = (next: State, toast: PageToast) => {
      setState(next);
      showToast(toast);
    };
    const poll = async () => {
      attempts += 1;
      try {
        const response = await fetch(
          `/api/payments/status?session_id=${encodeURIComponent(sessionId)}`,
          { signal: controller.signal, headers: { Accept: "application/json" } },
        );
        if (!response.ok) return finish("failed", CHECK_FAILED_TOAST);
        const body = (await response.json()) as { success?: boolean; pending?: boolean };
        if (body.success === true) return finish("paid", PAID_TOAST);
        if (body.pending !== true || attempts >= POLL_ATTEMPTS) {
          return finish("failed", FAILED_TOAST);
        }
        timer = window.setTimeout(poll, POLL_INTERVAL_MS);
      } catch {
        if (!controller.signal.aborted) finish("failed", CHECK_FAILED_TOAST);
      }
    };
    timer = window.setTimeout(poll, POLL_INTERVAL_MS);
    return () => {
      controller.abort();
      window.clearTimeout(timer);
    };
  }, [initial, sessionId, showToast]);
  return state;
}

export default function BookingSuccess({ loaderData }: Route.ComponentProps) {
  const sessionId = "sessionId" in loaderData ? loaderData.sessionId : undefined;
  // A new check (another session id, a refresh) starts the page over.
  return <PaymentResult key={`${sessionId}:${loaderData.state}`} loaderData={loaderData} />;
}

function PaymentResult({ loaderData }: Pick<Route.ComponentProps, "loaderData">) {
  const state = usePaymentPolling(
    loaderData.state,
    "sessionId" in loaderData ? loaderData.sessionId : undefined,
  );
  const content = CONTENT[state];
  return (
    <section className="mx-auto max-w-xl px-6 py-24 text-center" aria-labelledby="result-title">
      {state === "pending" ? (
        <span
          aria-hidden="true"
          className="mx-auto block size-12 animate-spin rounded-full border-4 border-brand-700 border-t-transparent motion-reduce:animate-none"
        />
      ) : (
        <p aria-hidden="true" className="text-5xl">
          {state === "paid" ? "✅" : "⚠️"}
        </p>
      )}
      {/* One live region for the title and text: the result is announced when polling ends. */}
      <div role="status" aria-live="polite" aria-atomic="true">
        <h1 id="result-title" className="mt-4 font-display text-3xl font-bold">
          {content.title}
        </h1>
        {loaderData.message ? <p className="mt-4 text-ink-soft">{loaderData.message}</p> : null}
        {content.text.map((line) => (
          <p key={line} className="mt-4 text-ink-soft">
            {line}
          </p>
        ))}
      </div>
      <Link to="/dashboard" className="btn-primary mt-8 inline-flex">
        View My Dashboard
      </Link>
    </section>
  );
}

export const meta: Route.MetaFunction = () => [
  { title: "Payment | ATL Creator Studio" },
  { name: "robots", content: "noindex" },
];
