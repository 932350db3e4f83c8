import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { eq } from "drizzle-orm";
import { getResponse } from "msw";
import { bookings, orders } from "#db/schema";
import {
  createUser,
  expect,
  expectNoAxeViolations,
  jsOn,
  type OwnServer,
  type TestUser,
  signIn,
  startOwnServer,
  test,
  toast,
} from "#tests/e2e/fixtures";
import { createBooking } from "#tests/factories/booking";
import { createStripeMock, STRIPE_API } from "#tests/mocks/stripe";

/**
 * The success page while Stripe is still confirming a payment (docs/product.md "Booking-success
 * page", decision 0090), in the browser: a server of its own on Stripe, whose API is the test's
 * Stripe double (tests/mocks/stripe.ts) behind a local HTTP server (STRIPE_API_URL). The payment
 * is confirmed a moment after the page first answers; with JavaScript the page polls the status
 * API, without it the page refreshes itself.
 */
const stripe = createStripeMock();

/** Stripe's API as the double answers it, on a local port. */
function startStripeDouble(): Promise<Server> {
  const server = createServer(async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const body = chunks.length > 0 ? Buffer.concat(chunks) : undefined;
    const headers = new Headers();
    for (const [name, value] of Object.entries(req.headers)) {
      if (typeof value === "string") headers.set(name, value);
    }
    const request = new Request(`${STRIPE_API}${req.url}`, {
      method: req.method,
      headers,
      ...(body && req.method !== "GET" ? { body } : {}),
    });
    const response =
      (await getResponse(stripe.handlers, request)) ?? new Response(null, { status: 404 });
    res.writeHead(response.status, Object.fromEntries(response.headers));
    res.end(Buffer.from(await response.arrayBuffer()));
  });
  return new Promise((resolve) => server.listen(0, "127.0.0.1", () => resolve(server)));
}

/** A booking whose customer finished on Stripe's page, the money still being processed. */
function processingCheckout(own: OwnServer, customer: TestUser, time: string) {
  const booking = createBooking(own.db, {
    user: customer,
    status: "PENDING_PAYMENT",
    time,
  });
  // The customer finished on Stripe's page; the money is still being processed.
  const sessionId = `cs_test_e2e_${booking.id}`;
  stripe.addSession({
    id: sessionId,
    status: "complete",
    payment_status: "unpaid",
    amount_total: booking.totalCost * 100,
    metadata: { orderId: String(booking.orderId), bookingIds: String(booking.id) },
    url: null,
  });
  own.db
    .update(orders)
    .set({ checkoutSessionId: sessionId })
    .where(eq(orders.id, booking.orderId ?? 0))
    .run();
  return { booking, sessionId };
}

test.describe("the success page while Stripe confirms the payment", () => {
  test.describe.configure({ mode: "serial", timeout: 60_000 });
  let own: OwnServer | undefined;
  let double: Server | undefined;
  test.beforeAll(async () => {
    double = await startStripeDouble();
    const { port } = double.address() as AddressInfo;
    own = await startOwnServer({
      PAYMENT_PROVIDER: "stripe",
      STRIPE_SECRET_KEY: "sk_test_51StudioBookingE2EKey",
      STRIPE_WEBHOOK_SECRET: "whsec_studio_booking_e2e_secret",
      STRIPE_API_URL: `http://127.0.0.1:${port}`,
    });
  });
  test.afterAll(async () => {
    await own?.stop();
    await new Promise((resolve) => double?.close(resolve));
  });

  test("'Verifying payment status...', then 'Payment Successful!' once Stripe took the money", async ({
    page,
  }, testInfo) => {
    if (!own) throw new Error("The server of this test did not start");
    const customer = await createUser(testInfo, {}, own.db);
    await signIn(page, customer, own.db);
    const { booking, sessionId } = processingCheckout(own, customer, "10:00");

    // Without JavaScript the page reloads itself at once to its next check: the first such
    // request is noted and cancelled, so the pending page can be looked at; with JavaScript
    // there is none (the refresh is inside <noscript>).
    const refreshes: string[] = [];
    await page.route(/\/booking-success\?.*check=/, async (route) => {
      refreshes.push(route.request().url());
      await route.abort("aborted");
    });
    await page.goto(`${own.url}/booking-success?session_id=${sessionId}`);
    const status = page.getByRole("status").filter({ hasText: "Verifying payment status..." });
    await expect(
      page.getByRole("heading", { level: 1, name: "Verifying payment status..." }),
    ).toBeVisible();
    await expect(status).toBeVisible();
    await expectNoAxeViolations(page);

    if (jsOn()) {
      expect(refreshes).toEqual([]);
    } else {
      await expect.poll(() => refreshes.length).toBeGreaterThan(0);
      expect(refreshes[0]).toBe(`${own.url}/booking-success?session_id=${sessionId}&check=2`);
    }
    await page.unroute(/\/booking-success\?.*check=/);

    // Stripe takes the money a moment later.
    stripe.pay(
      sessionId,
      { brand: "visa", last4: "4242" },
      {
        amount_total: booking.totalCost * 100,
      },
    );

    // Without JavaScript: the refresh the browser asked for (the server pauses 4 s, then asks).
    if (!jsOn()) await page.goto(refreshes[0] ?? "");
    await expect(page.getByRole("heading", { level: 1, name: "Payment Successful!" })).toBeVisible({
      timeout: 15_000,
    });
    await expect(toast(page)).toContainText("Payment Successful");
    await expect(toast(page)).toContainText(
      "Your booking has been confirmed and is now pending approval",
    );
    await expect(page.getByRole("link", { name: "View My Dashboard" })).toHaveAttribute(
      "href",
      "/dashboard",
    );
    await expectNoAxeViolations(page);
    const row = own.db.select().from(bookings).where(eq(bookings.id, booking.id)).get();
    expect(row?.status).toBe("PENDING");
    if (jsOn()) {
      // Polling answered in place: no reload.
      expect(page.url()).not.toContain("check=");
      expect(refreshes).toEqual([]);
    }
  });

  test("'Payment Issue' with the failure toast when the payment is still not confirmed after the last check", async ({
    page,
  }, testInfo) => {
    if (!own) throw new Error("The server of this test did not start");
    const customer = await createUser(testInfo, {}, own.db);
    await signIn(page, customer, own.db);
    const { sessionId } = processingCheckout(own, customer, "16:00");
    const firstCheck = `${own.url}/booking-success?session_id=${sessionId}`;
    if (jsOn()) {
      // The browser's clock runs only when told: ten polls, 3 s apart, each answered pending.
      await page.clock.install();
      await page.goto(firstCheck);
      await expect(
        page.getByRole("heading", { level: 1, name: "Verifying payment status..." }),
      ).toBeVisible();
      for (let poll = 0; poll < 10; poll += 1) {
        const answered = page.waitForResponse(/\/api\/payments\/status\?/);
        await page.clock.runFor(3000);
        expect(await (await answered).json()).toEqual({ success: false, pending: true });
      }
    } else {
      // The last of the page's checks (the server pauses 4 s before it).
      await page.goto(`${firstCheck}&check=6`);
    }
    await expect(page.getByRole("heading", { level: 1, name: "Payment Issue" })).toBeVisible();
    await expect(toast(page)).toContainText("Payment Verification Failed");
    await expect(toast(page)).toContainText("There was an issue verifying your payment");
    await expectNoAxeViolations(page);
  });
});
