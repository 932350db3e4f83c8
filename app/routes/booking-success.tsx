import { data, Link } from "react-router";
import {
  retryAfterHeaders,
  takePaymentStatusCheck,
  tooManyPaymentChecksMessage,
} from "#app/web/rate-limit.server";
import { clientAddressContext } from "#app/web/request-context.server";
import { verifyCheckout } from "#app/workflows/fulfil-payment.server";
import type { Route } from "./+types/booking-success";

/**
 * Where a payment returns (docs/product.md "Booking-success page"). The payment is verified
 * on the server before the page is sent, so there is no spinner to wait on and the answer is
 * the same with or without JavaScript. Verifying also fulfils the booking when the provider's
 * webhook has not arrived yet (idempotent: it never pays twice). Only a checkout the site opened
 * is looked up; any other id is 'Payment Issue' without asking the provider. Limited per client
 * address (PAYMENT_STATUS_LIMIT per 15 minutes), with the API's status check.
 */
export async function loader({ request, context }: Route.LoaderArgs) {
  const sessionId = new URL(request.url).searchParams.get("session_id")?.trim();
  if (!sessionId || sessionId.length > 300) return { state: "missing" as const, message: null };
  const retryAfter = await takePaymentStatusCheck(context.get(clientAddressContext));
  if (retryAfter !== null) {
    return data(
      { state: "limited" as const, message: tooManyPaymentChecksMessage(retryAfter) },
      { status: 429, headers: { "Retry-After": String(retryAfter) } },
    );
  }
  const verification = await verifyCheckout(sessionId);
  return { state: verification?.paid ? ("paid" as const) : ("failed" as const), message: null };
}

export const headers: Route.HeadersFunction = retryAfterHeaders;

const CONTENT = {
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

export default function BookingSuccess({ loaderData }: Route.ComponentProps) {
  const content = CONTENT[loaderData.state];
  const ok = loaderData.state === "paid";
  return (
    <section className="mx-auto max-w-xl px-6 py-24 text-center" aria-labelledby="result-title">
      <p aria-hidden="true" className="text-5xl">
        {ok ? "✅" : "⚠️"}
      </p>
      <h1 id="result-title" className="mt-4 font-display text-3xl font-bold">
        {content.title}
      </h1>
      {loaderData.message ? <p className="mt-4 text-ink-soft">{loaderData.message}</p> : null}
      {content.text.map((line) => (
        <p key={line} className="mt-4 text-ink-soft">
          {line}
        </p>
      ))}
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
