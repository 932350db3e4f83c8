import type { Locator, Page, TestInfo } from "@playwright/test";
import { and, count, eq, gt, lt, ne, sql } from "drizzle-orm";
import {
  type Booking,
  bookingServices,
  bookings,
  coupons,
  emailOutbox,
  payments,
} from "#db/schema";
import { studioSession } from "#app/domain/studio-time";
import {
  createCoupon,
  createService,
  createUser,
  db,
  expect,
  expectNoAxeViolations,
  login,
  type TestUser,
  test,
  toast,
  uniqueUsername,
  addDays,
  jsOn,
  studioToday,
  signIn,
  type OwnServer,
  startOwnServer,
} from "#tests/e2e/fixtures";
import { createBooking } from "#tests/factories/booking";
import { E2E_BOOKING_HORIZON_DAYS, E2E_MAX_UNPAID_HOLDS } from "#tests/e2e/env";

/**
 * The booking journeys of docs/product.md "Screens", "Booking submit flow", "Validation",
 * "Messages", "Payment", "Availability and holds" and "Retainer package": the form on /, the
 * sandbox checkout at /checkout/:id, the result page and the booked dialog, each checked in the
 * database too. Every journey runs with JavaScript on and off.
 */

const DECLINED_MESSAGE = "Your card was declined. Please use a different card.";
const SLOT_TAKEN_MESSAGE =
  "The selected time slot conflicts with an existing booking. Please select a different time.";
const CARDS = { good: "4242 4242 4242 4242", declined: "4000 0000 0000 0002" } as const;
/** December, five years on: always a valid expiry. */
const EXPIRY = `12/${String((new Date().getFullYear() + 5) % 100).padStart(2, "0")}`;

// Redirects from the form name their own fragment (the form posts to /?index#booking-form).
const FORM_FRAGMENT = "#main";

type Slot = { date: string; time: string; hour: number };

/**
 * A slot no other test of the run books, so tests may run side by side: the day comes from the
 * project (js-on 10-24 days ahead, js-off 25-39) and the journey's own number, the start hour
 * from the worker (06:00 to 12:00, so even 8 hours end the same day, clear of any clock change).
 */
function slotFor(testInfo: TestInfo, journey: number): Slot {
  expect(journey).toBeGreaterThanOrEqual(0);
  expect(journey).toBeLessThan(15);
  const projectDays = testInfo.project.name === "js-off" ? 25 : 10;
  const hour = 6 + (testInfo.workerIndex % 4) * 2;
  return {
    date: addDays(studioToday(), projectDays + journey),
    time: `${String(hour).padStart(2, "0")}:00`,
    hour,
  };
}

function hhmm(hour: number): string {
  return `${String(hour).padStart(2, "0")}:00`;
}

// ---------------------------------------------------------------------------------------------
// The form

function bookingForm(page: Page): Locator {
  return page.locator("#booking-form");
}

function startTimeSelect(page: Page): Locator {
  return bookingForm(page).getByLabel("Start time", { exact: true });
}

function hoursSelect(page: Page): Locator {
  return bookingForm(page).getByLabel("Hours", { exact: true });
}

function priceSummary(page: Page): Locator {
  return page.getByRole("region", { name: "Price summary" });
}

/** The landing page's booking form, hydrated when JavaScript is on (it hydrates when near). */
/** `origin`: another server than the suite's (a test with settings of its own). */
async function openBookingForm(page: Page, origin = ""): Promise<Locator> {
  await page.goto(`${origin}/#booking`);
  const form = bookingForm(page);
  await form.scrollIntoViewIfNeeded();
  await expect(form.getByRole("heading", { name: "Book your session" })).toBeVisible();
  if (jsOn()) await expect(form.locator('input[name="_hydrated"]')).toBeAttached();
  return form;
}

/**
 * Waits until the Start time list shows the free times of `date` for `hours`: with JavaScript
 * they follow the fields by themselves, without it the no-script button asks the server.
 */
async function showFreeTimes(page: Page, date: string, hours: number) {
  if (!jsOn()) {
    await page.getByRole("button", { name: "Show free times and update the price" }).click();
  }
  await expect(startTimeSelect(page)).toHaveAccessibleDescription(
    new RegExp(`free start times? on ${date} for ${hours} hours`),
  );
}

async function chooseSlot(page: Page, slot: Slot, hours: number) {
  const form = bookingForm(page);
  await form.getByLabel("Recording date").fill(slot.date);
  await hoursSelect(page).selectOption(String(hours));
  await showFreeTimes(page, slot.date, hours);
  await startTimeSelect(page).selectOption(slot.time);
}

async function applyCoupon(page: Page, code: string) {
  await bookingForm(page).getByLabel("Promo code").fill(code);
  await bookingForm(page).getByRole("button", { name: "Apply", exact: true }).click();
}

/** The booking id of the checkout page the form sent us to. */
async function checkoutBookingId(page: Page): Promise<number> {
  await expect(page).toHaveURL(new RegExp(`/checkout/\\d+${FORM_FRAGMENT}$`));
  await expect(
    page.getByRole("heading", { level: 1, name: "Complete Your Payment" }),
  ).toBeVisible();
  return Number(new URL(page.url()).pathname.split("/").pop());
}

async function payByCard(page: Page, number: string, total: string) {
  await page.getByLabel("Cardholder name").fill("Ada Lovelace");
  await page.getByLabel("Card number").fill(number);
  await page.getByLabel("Expiration date").fill(EXPIRY);
  await page.getByLabel("CVV").fill("123");
  await page.getByRole("button", { name: `Pay ${total}` }).click();
}

async function expectPaymentSuccessful(page: Page) {
  await expect(page).toHaveURL(/\/booking-success\?session_id=sandbox_[\w-]+$/);
  await expect(page.getByRole("heading", { level: 1, name: "Payment Successful!" })).toBeVisible();
  await expect(page.getByRole("link", { name: "View My Dashboard" })).toHaveAttribute(
    "href",
    "/dashboard",
  );
}

// ---------------------------------------------------------------------------------------------
// Keyboard

/** Whether `target` has the focus (works with page scripts off: no page.evaluate). */
async function isFocused(page: Page, target: Locator): Promise<boolean> {
  return (await target.and(page.locator(":focus")).count()) === 1;
}

/** Presses Tab until `target` has the focus, as a keyboard user would. */
async function tabTo(page: Page, target: Locator, maxPresses = 250) {
  for (let press = 0; press < maxPresses; press++) {
    if (await isFocused(page, target)) return;
    await page.keyboard.press("Tab");
  }
  await expect(target, `Tab never reached ${target}`).toBeFocused({ timeout: 1 });
}

/** Moves a focused select with ArrowDown to `value` (disabled options are skipped). */
async function arrowDownTo(page: Page, select: Locator, value: string, maxPresses = 30) {
  for (let press = 0; press < maxPresses; press++) {
    if ((await select.inputValue()) === value) break;
    await page.keyboard.press("ArrowDown");
  }
  await expect(select).toHaveValue(value);
}

// ---------------------------------------------------------------------------------------------
// The database

function bookingRow(id: number): Booking | undefined {
  return db().select().from(bookings).where(eq(bookings.id, id)).get();
}

function bookingsOf(userId: number): Booking[] {
  return db().select().from(bookings).where(eq(bookings.userId, userId)).all();
}

function paymentsOf(bookingId: number) {
  return db()
    .select({
      amount: payments.amount,
      paymentMethod: payments.paymentMethod,
      paymentDetails: payments.paymentDetails,
    })
    .from(payments)
    .where(eq(payments.bookingId, bookingId))
    .all();
}

function outboxOf(bookingId: number): { kind: string; text: string; html: string }[] {
  return db()
    .select({ kind: emailOutbox.kind, text: emailOutbox.text, html: emailOutbox.html })
    .from(emailOutbox)
    .where(eq(emailOutbox.bookingId, bookingId))
    .orderBy(emailOutbox.id)
    .all();
}

function couponUses(couponId: number): number | undefined {
  return db()
    .select({ currentUses: coupons.currentUses })
    .from(coupons)
    .where(eq(coupons.id, couponId))
    .get()?.currentUses;
}

/** A confirmed booking of another customer written straight into SQLite, as if made a moment ago. */
function insertBooking(user: TestUser, date: string, time: string, hours: number): number {
  return createBooking(db(), { user, date, time, hours }).id;
}

/** Bookings that hold any part of the session (everything but CANCELLED). */
function liveBookingsOverlapping(date: string, time: string, hours: number) {
  const { startsAt, endsAt } = studioSession(date, time, hours);
  return db()
    .select({ id: bookings.id, userId: bookings.userId })
    .from(bookings)
    .where(
      and(
        lt(bookings.startsAt, endsAt),
        gt(bookings.endsAt, startsAt),
        ne(bookings.status, "CANCELLED"),
      ),
    )
    .all();
}

// ---------------------------------------------------------------------------------------------

test.describe("booking", () => {
  // Multi-page journeys on a two-core machine: sign-in, the landing page and checkout add up.
  test.describe.configure({ timeout: 60_000 });
  // The date field is typed in month/day/year order in the keyboard journey.
  test.use({ locale: "en-US" });

  test("a paid booking with two add-ons and a 20% coupon", async ({ page, customer }, testInfo) => {
    const slot = slotFor(testInfo, 1);
    const coupon = createCoupon(testInfo, { type: "PERCENTAGE", value: 20 });
    const mixing = createService(testInfo, "Mixing", 45);
    const clips = createService(testInfo, "Social clips", 78);
    // 3 h x $200 + $45 + $78 = $723; 20% off is $578.40, rounded half up to $578 ($145 off).

    await signIn(page, customer);
    const form = await openBookingForm(page);
    // Prefilled from the profile.
    await expect(form.getByLabel("First name")).toHaveValue(customer.firstName);
    await expect(form.getByLabel("Last name")).toHaveValue(customer.lastName);
    await expect(form.getByLabel("Email")).toHaveValue(customer.email);
    await expect(form.getByLabel("Phone number")).toHaveValue("404-555-0100");
    await expect(form.getByLabel("No ($200/hour)")).toBeChecked();

    await chooseSlot(page, slot, 3);
    await form.getByRole("checkbox", { name: `${mixing.name} · $45.00` }).check();
    await form.getByRole("checkbox", { name: `${clips.name} · $78.00` }).check();
    await applyCoupon(page, coupon.code);

    await expect(toast(page)).toContainText("Coupon Applied!");
    await expect(toast(page)).toContainText("20% discount applied to your booking.");
    const promo = form.getByLabel("Promo code");
    await expect(promo).toBeDisabled();
    await expect(promo).toHaveValue(coupon.code);
    await expect(form.getByRole("button", { name: "Remove", exact: true })).toBeVisible();
    const summary = priceSummary(page);
    await expect(summary).toContainText(/3 hours × \$200\.00\s*\$600\.00/);
    await expect(summary).toContainText(`Discount (${coupon.code})`);
    await expect(summary).toContainText("−$145.00");
    await expect(summary).toContainText(/Total\s*\$578\.00/);
    // Applying the code kept everything else.
    await expect(startTimeSelect(page)).toHaveValue(slot.time);
    await expect(hoursSelect(page)).toHaveValue("3");
    await expect(form.getByRole("checkbox", { name: mixing.name })).toBeChecked();
    await expect(form.getByRole("checkbox", { name: clips.name })).toBeChecked();

    await form.getByRole("button", { name: "Book and Continue to Payment" }).click();
    const bookingId = await checkoutBookingId(page);
    await expect(toast(page)).toContainText("Booking Submitted!");
    // The checkout lists every line of the quote, as the form did; they add up to the total.
    const items = page.locator('[aria-labelledby="summary-title"] dl');
    await expect(items).toContainText(/3 hours × \$200\.00\s*\$600\.00/);
    await expect(items).toContainText(new RegExp(`${mixing.name}\\s*\\$45\\.00`));
    await expect(items).toContainText(new RegExp(`${clips.name}\\s*\\$78\\.00`));
    await expect(items).toContainText(`Discount (${coupon.code})−$145.00`);
    await expect(page.getByText(/Total\s*\$578\.00/)).toBeVisible();
    await expectNoAxeViolations(page);
    await payByCard(page, CARDS.good, "$578.00");
    await expectPaymentSuccessful(page);

    expect(bookingRow(bookingId)).toMatchObject({
      userId: customer.id,
      status: "PENDING",
      recordingDate: slot.date,
      recordingTime: slot.time,
      hoursNeeded: "3",
      originalCost: 723,
      discountAmount: 145,
      totalCost: 578,
      couponId: coupon.id,
      isRetainer: false,
    });
    expect(couponUses(coupon.id)).toBe(1);
    const services = db()
      .select({
        serviceId: bookingServices.serviceId,
        priceAtBooking: bookingServices.priceAtBooking,
      })
      .from(bookingServices)
      .where(eq(bookingServices.bookingId, bookingId))
      .orderBy(bookingServices.serviceId)
      .all();
    expect(services).toEqual([
      { serviceId: mixing.id, priceAtBooking: 45 },
      { serviceId: clips.id, priceAtBooking: 78 },
    ]);
    const payments = paymentsOf(bookingId);
    expect(payments).toHaveLength(1);
    expect(payments[0]).toMatchObject({ amount: 578, paymentMethod: "card" });
    expect(payments[0]?.paymentDetails).toMatchObject({
      brand: "visa",
      last4: "4242",
    });
    const outbox = outboxOf(bookingId);
    expect(outbox.map((mail) => mail.kind)).toEqual(
      expect.arrayContaining(["booking-received", "payment-received"]),
    );
    // The full card number is stored nowhere.
    for (const stored of [
      JSON.stringify(payments[0]?.paymentDetails),
      ...outbox.flatMap((m) => [m.text, m.html]),
    ]) {
      expect(stored).not.toContain("4242424242424242");
      expect(stored).not.toContain("4242 4242 4242 4242");
    }
  });

  test("a declined card, then a good one; the form done by keyboard only", async ({
    page,
    customer,
  }, testInfo) => {
    const slot = slotFor(testInfo, 2);
    await login(page, customer);
    // As after following a "Book Now" link from another page: Tab continues from the section.
    await page.goto("/#booking");
    const form = bookingForm(page);

    // Keyboard only from here to the checkout page: Tab, typing, arrows and Enter.
    await tabTo(page, form.getByLabel("First name"));
    if (jsOn()) await expect(form.locator('input[name="_hydrated"]')).toBeAttached();
    // The radio group is one Tab stop; the arrow keys move the answer.
    await tabTo(page, form.getByLabel("No ($200/hour)"));
    await page.keyboard.press("ArrowUp");
    await expect(form.getByLabel("Yes ($150/hour)")).toBeChecked();
    const date = form.getByLabel("Recording date");
    await tabTo(page, date);
    const [year, month, day] = slot.date.split("-");
    await page.keyboard.type(`${month}${day}${year}`);
    await expect(date).toHaveValue(slot.date);
    await tabTo(page, hoursSelect(page));
    await arrowDownTo(page, hoursSelect(page), "3");
    if (!jsOn()) {
      const check = page.getByRole("button", { name: "Show free times and update the price" });
      await tabTo(page, check);
      await page.keyboard.press("Enter");
    }
    await expect(startTimeSelect(page)).toHaveAccessibleDescription(
      new RegExp(`free start times? on ${slot.date} for 3 hours`),
    );
    await tabTo(page, startTimeSelect(page));
    await arrowDownTo(page, startTimeSelect(page), slot.time);
    await tabTo(page, form.getByLabel("Guests", { exact: true }));
    await arrowDownTo(page, form.getByLabel("Guests", { exact: true }), "2");
    const book = form.getByRole("button", { name: "Book and Continue to Payment" });
    await expect(priceSummary(page)).toContainText(/3 hours × \$150\.00/);
    await expect(priceSummary(page)).toContainText(/Total\s*\$450\.00/);
    await tabTo(page, book);
    await page.keyboard.press("Enter");

    const bookingId = await checkoutBookingId(page);
    await expect(toast(page)).toContainText("Booking Submitted!");
    expect(bookingRow(bookingId)).toMatchObject({
      status: "PENDING_PAYMENT",
      recordingDate: slot.date,
      recordingTime: slot.time,
      hoursNeeded: "3",
      guestCount: "2",
      stakeholder: "yes",
      totalCost: 450,
    });

    // The declined test card, typed in with the keyboard too.
    await tabTo(page, page.getByLabel("Cardholder name"));
    await page.keyboard.type("Ada Lovelace");
    await tabTo(page, page.getByLabel("Card number"));
    await page.keyboard.type(CARDS.declined);
    await tabTo(page, page.getByLabel("Expiration date"));
    await page.keyboard.type(EXPIRY);
    await tabTo(page, page.getByLabel("CVV"));
    await page.keyboard.type("123");
    await page.keyboard.press("Enter");

    await expect(toast(page)).toContainText("Payment Failed");
    await expect(toast(page)).toContainText(DECLINED_MESSAGE);
    await expect(page.locator("#card-form").getByText(DECLINED_MESSAGE)).toBeVisible();
    await expect(page).toHaveURL(new RegExp(`/checkout/${bookingId}$`));
    expect(bookingRow(bookingId)?.status).toBe("PENDING_PAYMENT");
    expect(paymentsOf(bookingId)).toEqual([]);

    await payByCard(page, CARDS.good, "$450.00");
    await expectPaymentSuccessful(page);
    expect(bookingRow(bookingId)?.status).toBe("PENDING");
    expect(paymentsOf(bookingId)).toHaveLength(1);
  });

  test("a 100% coupon makes a free booking, confirmed at once", async ({
    page,
    customer,
  }, testInfo) => {
    const slot = slotFor(testInfo, 3);
    const coupon = createCoupon(testInfo, { type: "PERCENTAGE", value: 100, maxUses: 5 });

    await signIn(page, customer);
    const form = await openBookingForm(page);
    await chooseSlot(page, slot, 2);
    await applyCoupon(page, coupon.code);
    await expect(toast(page)).toContainText("Coupon Applied!");
    await expect(toast(page)).toContainText("Your booking will be completely free");
    await expect(priceSummary(page)).toContainText("−$400.00");
    await expect(priceSummary(page)).toContainText(/Total\s*\$0\.00/);
    await expect(form.getByRole("button", { name: "Book and Continue to Payment" })).toHaveCount(0);

    await form.getByRole("button", { name: "Book Free Session" }).click();
    await expect(page).toHaveURL(new RegExp(`/\\?booked=\\d+${FORM_FRAGMENT}$`));
    await expect(toast(page)).toContainText("Booking Confirmed!");
    const dialog = page.getByRole("dialog", { name: "Your session is booked!" });
    await expect(dialog).toBeVisible();
    await expect(dialog).toContainText("Your booking is confirmed");
    await expectNoAxeViolations(page);

    const bookingId = Number(new URL(page.url()).searchParams.get("booked"));
    expect(bookingRow(bookingId)).toMatchObject({
      userId: customer.id,
      status: "CONFIRMED",
      totalCost: 0,
      originalCost: 400,
      discountAmount: 400,
      couponId: coupon.id,
    });
    expect(couponUses(coupon.id)).toBe(1);
    expect(paymentsOf(bookingId)).toEqual([]);

    const ok = dialog.getByRole("link", { name: "OK" });
    await expect(ok).toHaveAttribute("href", "/#dashboard");
    await ok.click();
    await expect(page).toHaveURL(/\/#dashboard$/);
    await expect(page.locator("#dashboard")).toBeInViewport();
    await expect(dialog).toHaveCount(0);
  });

  test("a visitor may apply a coupon, is sent to sign in to book, and nothing is booked", async ({
    page,
  }, testInfo) => {
    const slot = slotFor(testInfo, 4);
    const email = `${uniqueUsername(testInfo, "visitor")}@example.com`;
    const coupon = createCoupon(testInfo, { type: "FIXED_AMOUNT", value: 2550 });

    const form = await openBookingForm(page);
    await expect(form).toContainText("Sign in to book");
    await expect(form.getByLabel("First name")).toHaveValue("");
    await form.getByLabel("First name").fill("Vera");
    await form.getByLabel("Last name").fill("Rubin");
    await form.getByLabel("Phone number").fill("(404) 555-0123");
    await form.getByLabel("Email").fill(email);
    await chooseSlot(page, slot, 2);
    // docs/product.md "Roles" lets a visitor use the whole form but submit it: the coupon included.
    await applyCoupon(page, coupon.code);
    await expect(toast(page)).toContainText("Coupon Applied!");
    await expect(priceSummary(page)).toContainText("$375.00");
    await form.getByRole("button", { name: "Book and Continue to Payment" }).click();

    await expect(page).toHaveURL(new RegExp(`/auth${FORM_FRAGMENT}$`));
    await expect(toast(page)).toContainText("Authentication Required");
    await expect(toast(page)).toContainText("Please sign in to complete your booking");
    const written = db()
      .select({ total: count() })
      .from(bookings)
      .where(sql`lower(${bookings.email}) = lower(${email})`)
      .get();
    expect(written?.total).toBe(0);
    expect(liveBookingsOverlapping(slot.date, slot.time, 2)).toEqual([]);
    expect(couponUses(coupon.id)).toBe(0);
  });

  test("a customer at MAX_UNPAID_HOLDS is refused and pointed to pay or cancel", async ({
    page,
    customer,
  }, testInfo) => {
    const slot = slotFor(testInfo, 9);
    // The cap's worth of live unpaid bookings, far ahead of every other journey's days.
    const year = testInfo.project.name === "js-off" ? 2081 : 2080;
    const held = Array.from({ length: E2E_MAX_UNPAID_HOLDS }, (_, n) =>
      createBooking(db(), {
        user: customer,
        date: `${year}-01-${String(1 + Math.floor(n / 12)).padStart(2, "0")}`,
        time: hhmm((n % 12) * 2),
        status: "PENDING_PAYMENT",
      }),
    );

    await signIn(page, customer);
    const form = await openBookingForm(page);
    // The date picker stops at BOOKING_HORIZON_DAYS.
    await expect(form.getByLabel("Recording date")).toHaveAttribute(
      "max",
      addDays(studioToday(), E2E_BOOKING_HORIZON_DAYS),
    );
    await chooseSlot(page, slot, 2);
    await form.getByRole("button", { name: "Book and Continue to Payment" }).click();

    const message = `You already have ${E2E_MAX_UNPAID_HOLDS} unpaid bookings waiting for payment. Please pay for or cancel one of them before booking another session.`;
    await expect(toast(page)).toContainText("Unpaid Bookings");
    const notice = form.getByRole("alert").filter({ hasText: message });
    await expect(notice).toBeVisible();
    const first = held[0]?.id;
    await expect(notice.getByRole("link", { name: "Pay" }).first()).toHaveAttribute(
      "href",
      `/dashboard/sessions/${first}/pay`,
    );
    await expect(notice.getByRole("link", { name: "cancel" }).first()).toHaveAttribute(
      "href",
      `/dashboard/sessions/${first}/cancel`,
    );
    await expect(page).not.toHaveURL(/\/checkout\//);
    expect(bookingsOf(customer.id)).toHaveLength(E2E_MAX_UNPAID_HOLDS);
    await expectNoAxeViolations(page);
  });

  test("a date past BOOKING_HORIZON_DAYS is refused with the last bookable day", async ({
    page,
    customer,
  }, testInfo) => {
    const last = addDays(studioToday(), E2E_BOOKING_HORIZON_DAYS);
    const tooFar = { ...slotFor(testInfo, 10), date: addDays(last, 1 + (jsOn() ? 0 : 1)) };

    await signIn(page, customer);
    const form = await openBookingForm(page);
    await expect(form.getByLabel("Recording date")).toHaveAttribute("max", last);
    await chooseSlot(page, tooFar, 2);
    await form.getByRole("button", { name: "Book and Continue to Payment" }).click();

    await expect(toast(page)).toContainText("Date Too Far Ahead");
    await expect(toast(page)).toContainText(
      `Sessions can be booked up to ${last}. Please choose an earlier date.`,
    );
    await expect(page).not.toHaveURL(/\/checkout\//);
    await expect(form.getByLabel("Recording date")).toHaveValue(tooFar.date);
    expect(bookingsOf(customer.id)).toEqual([]);
    await expectNoAxeViolations(page);
  });

  test("a slot taken meanwhile is refused and shown as booked", async ({
    page,
    customer,
  }, testInfo) => {
    const slot = slotFor(testInfo, 5);
    const other = await createUser(testInfo, { firstName: "Grace" });

    await signIn(page, customer);
    const form = await openBookingForm(page);
    await form.getByLabel("First name").fill("Katherine");
    await form.getByLabel("Guests", { exact: true }).selectOption("3");
    await chooseSlot(page, slot, 3);
    await expect(startTimeSelect(page).locator(`option[value="${slot.time}"]`)).toBeEnabled();

    // Before this customer submits, someone else books an overlapping session (an hour later).
    const takenAt = hhmm(slot.hour + 1);
    const otherId = insertBooking(other, slot.date, takenAt, 2);
    await form.getByRole("button", { name: "Book and Continue to Payment" }).click();

    await expect(toast(page)).toContainText("Time Slot Unavailable");
    await expect(toast(page)).toContainText(SLOT_TAKEN_MESSAGE);
    await expect(page).not.toHaveURL(/\/checkout\//);
    // The form keeps what was entered, and now marks the start as booked.
    await expect(form.getByLabel("First name")).toHaveValue("Katherine");
    await expect(form.getByLabel("Recording date")).toHaveValue(slot.date);
    await expect(hoursSelect(page)).toHaveValue("3");
    await expect(form.getByLabel("Guests", { exact: true })).toHaveValue("3");
    const chosen = startTimeSelect(page).locator(`option[value="${slot.time}"]`);
    await expect(chosen).toBeDisabled();
    await expect(chosen).toContainText("(booked)");

    expect(bookingsOf(customer.id)).toEqual([]);
    expect(liveBookingsOverlapping(slot.date, slot.time, 3)).toEqual([
      { id: otherId, userId: other.id },
    ]);

    // A fresh page shows the taken starts as booked, the free ones as free.
    await openBookingForm(page);
    await bookingForm(page).getByLabel("Recording date").fill(slot.date);
    await hoursSelect(page).selectOption("2");
    await showFreeTimes(page, slot.date, 2);
    for (const hour of [slot.hour, slot.hour + 1, slot.hour + 2]) {
      const option = startTimeSelect(page).locator(`option[value="${hhmm(hour)}"]`);
      await expect(option).toBeDisabled();
      await expect(option).toContainText("(booked)");
    }
    for (const hour of [slot.hour - 2, slot.hour + 3]) {
      const option = startTimeSelect(page).locator(`option[value="${hhmm(hour)}"]`);
      await expect(option).toBeEnabled();
      await expect(option).not.toContainText("(booked)");
    }
  });

  test("buying the retainer package", async ({ page, customer }, testInfo) => {
    const slot = slotFor(testInfo, 6);
    const endDate = addDays(slot.date, 30);

    await signIn(page, customer);
    const form = await openBookingForm(page);
    await form.getByLabel("Recording date").fill(slot.date);
    await form.getByRole("checkbox", { name: /^Buy the retainer package/ }).check();
    if (jsOn()) {
      // Turning the retainer on sets 8 hours by itself.
      await expect(hoursSelect(page)).toHaveValue("8");
    } else {
      await hoursSelect(page).selectOption("8");
    }
    await showFreeTimes(page, slot.date, 8);
    await startTimeSelect(page).selectOption(slot.time);
    await expect(form).toContainText(`from ${slot.date} (your first session) to before ${endDate}`);
    const summary = priceSummary(page);
    await expect(summary).toContainText("Retainer package");
    await expect(summary).toContainText(/\$999\.00\s*Total\s*\$999\.00/);

    await form.getByRole("button", { name: "Book and Continue to Payment" }).click();
    const bookingId = await checkoutBookingId(page);
    await expect(page.locator('[aria-labelledby="summary-title"] dl')).toContainText(
      /Retainer package \(8 hours, 30 days; this session 8 hours\)\s*\$999\.00\s*Total\s*\$999\.00/,
    );
    await expectNoAxeViolations(page);
    await payByCard(page, CARDS.good, "$999.00");
    await expectPaymentSuccessful(page);

    expect(bookingRow(bookingId)).toMatchObject({
      userId: customer.id,
      status: "PENDING",
      isRetainer: true,
      hoursNeeded: "8",
      recordingDate: slot.date,
      retainerStartDate: slot.date,
      retainerEndDate: endDate,
      originalCost: 999,
      totalCost: 999,
    });
    expect(paymentsOf(bookingId)).toMatchObject([{ amount: 999 }]);
  });

  test("invalid details are reported on their fields and nothing is booked", async ({
    page,
    customer,
  }, testInfo) => {
    const slot = slotFor(testInfo, 7);
    await signIn(page, customer);
    const form = await openBookingForm(page);
    await chooseSlot(page, slot, 2);

    // A blank code is refused.
    const promo = form.getByLabel("Promo code");
    await applyCoupon(page, "   ");
    await expect(toast(page)).toContainText("Coupon Required");
    await expect(toast(page)).toContainText("Please enter a coupon code");
    await expect(promo).toHaveAttribute("aria-invalid", "true");
    await expect(promo).toHaveAccessibleDescription("Please enter a coupon code");
    await expect(promo).toBeEnabled();
    await expect(priceSummary(page)).not.toContainText("Discount");

    const firstName = form.getByLabel("First name");
    const phone = form.getByLabel("Phone number");
    await firstName.fill("");
    await phone.fill("555-01");
    const posts: string[] = [];
    page.on("request", (request) => {
      if (request.method() === "POST") posts.push(request.url());
    });
    await form.getByRole("button", { name: "Book and Continue to Payment" }).click();

    await expect(firstName).toHaveAttribute("aria-invalid", "true");
    await expect(firstName).toHaveAccessibleDescription("First name is required");
    await expect(phone).toHaveAttribute("aria-invalid", "true");
    await expect(phone).toHaveAccessibleDescription("Please enter a valid phone number");
    await expect(form.getByLabel("Last name")).not.toHaveAttribute("aria-invalid", "true");
    await expect(form.getByLabel("Email")).not.toHaveAttribute("aria-invalid", "true");
    if (jsOn()) {
      // Checked in the browser: nothing was sent.
      expect(posts).toEqual([]);
    } else {
      await expect(toast(page)).toContainText("Booking Error");
      await expect(toast(page)).toContainText(
        "There was a problem processing your form. Please try again.",
      );
      expect(posts).toHaveLength(1);
      // The server's answer keeps the rest of what was entered.
      await expect(phone).toHaveValue("555-01");
      await expect(startTimeSelect(page)).toHaveValue(slot.time);
    }
    await expect(page).not.toHaveURL(/\/checkout\//);
    expect(bookingsOf(customer.id)).toEqual([]);
  });

  test("a fixed-amount coupon applies and is removed before a start time is chosen", async ({
    page,
    customer,
  }, testInfo) => {
    const coupon = createCoupon(testInfo, { type: "FIXED_AMOUNT", value: 2550 });
    await signIn(page, customer);
    const form = await openBookingForm(page);
    // Nothing else chosen yet: Apply must not wait for the booking's own rules.
    await expect(startTimeSelect(page)).toHaveValue("");
    await applyCoupon(page, coupon.code.toLowerCase());
    await expect(toast(page)).toContainText("Coupon Applied!");
    await expect(toast(page)).toContainText("$25.50 discount applied to your booking.");
    await expect(form.getByLabel("Promo code")).toBeDisabled();
    // 2 hours x $200 = $400.00, minus $25.50 = $374.50, rounded half up to $375.
    await expect(priceSummary(page)).toContainText("$375.00");
    await form.getByRole("button", { name: "Remove", exact: true }).click();
    await expect(toast(page)).toContainText("Coupon Removed");
    await expect(form.getByLabel("Promo code")).toBeEnabled();
    await expect(priceSummary(page)).not.toContainText("Discount");
    expect(bookingsOf(customer.id)).toEqual([]);
  });

  test("the booking pages pass axe: coupon applied, checkout, failed payment, results", async ({
    page,
    customer,
  }, testInfo) => {
    const slot = slotFor(testInfo, 8);
    const coupon = createCoupon(testInfo, { type: "FIXED_AMOUNT", value: 2550 });
    // 2 h x $200 = $400 - $25.50 = $374.50, rounded half up to $375.

    await signIn(page, customer);
    await openBookingForm(page);
    await chooseSlot(page, slot, 2);
    await applyCoupon(page, coupon.code);
    await expect(toast(page)).toContainText("$25.50 discount applied to your booking.");
    await expect(priceSummary(page)).toContainText(/Total\s*\$375\.00/);
    await expectNoAxeViolations(page);

    await bookingForm(page).getByRole("button", { name: "Book and Continue to Payment" }).click();
    const bookingId = await checkoutBookingId(page);
    await expectNoAxeViolations(page);

    await payByCard(page, CARDS.declined, "$375.00");
    await expect(page.locator("#card-form").getByText(DECLINED_MESSAGE)).toBeVisible();
    await expectNoAxeViolations(page);

    await payByCard(page, CARDS.good, "$375.00");
    await expectPaymentSuccessful(page);
    await expectNoAxeViolations(page);
    expect(bookingRow(bookingId)).toMatchObject({ status: "PENDING", totalCost: 375 });

    await page.goto("/booking-success");
    await expect(
      page.getByRole("heading", { level: 1, name: "Missing payment information" }),
    ).toBeVisible();
    await expectNoAxeViolations(page);

    await page.goto("/booking-success?session_id=sandbox_no-such-payment");
    await expect(page.getByRole("heading", { level: 1, name: "Payment Issue" })).toBeVisible();
  });
});

test.describe("booking and payment checks, past BOOKING_RATE_LIMIT and PAYMENT_STATUS_LIMIT", () => {
  // A server of its own that allows one booking an hour (per account and per address: every
  // browser here is one address, so each project gets its own server).
  test.describe.configure({ mode: "serial", timeout: 60_000 });
  let own: OwnServer | undefined;
  test.beforeAll(async () => {
    own = await startOwnServer({ BOOKING_RATE_LIMIT: "1", PAYMENT_STATUS_LIMIT: "1" });
  });
  test.afterAll(async () => {
    await own?.stop();
  });

  test("the second booking within the hour is refused with the limit's message; nothing written", async ({
    page,
  }, testInfo) => {
    if (!own) throw new Error("The server of this test did not start");
    const customer = await createUser(testInfo, {}, own.db);
    await signIn(page, customer, own.db);

    const form = await openBookingForm(page, own.url);
    await chooseSlot(page, slotFor(testInfo, 11), 2);
    await form.getByRole("button", { name: "Book and Continue to Payment" }).click();
    await checkoutBookingId(page);

    await openBookingForm(page, own.url);
    const second = slotFor(testInfo, 12);
    await chooseSlot(page, second, 2);
    await form.getByRole("button", { name: "Book and Continue to Payment" }).click();

    const message =
      /Too many bookings and changes in a short time\. Please try again in 60 minutes\./;
    await expect(toast(page)).toContainText("Too Many Bookings");
    await expect(form.getByText(message)).toBeVisible();
    await expect(page).not.toHaveURL(/\/checkout\//);
    // The form keeps what was entered.
    await expect(form.getByLabel("Recording date")).toHaveValue(second.date);
    const written = own.db.select().from(bookings).where(eq(bookings.userId, customer.id)).all();
    expect(written).toHaveLength(1);
    await expectNoAxeViolations(page);
  });

  test("the success page past PAYMENT_STATUS_LIMIT says so, with status 429", async ({ page }) => {
    if (!own) throw new Error("The server of this test did not start");
    await page.goto(`${own.url}/booking-success?session_id=sandbox_no-such-payment`);
    await expect(page.getByRole("heading", { level: 1, name: "Payment Issue" })).toBeVisible();

    const limited = await page.goto(
      `${own.url}/booking-success?session_id=sandbox_no-such-payment`,
    );
    expect(limited?.status()).toBe(429);
    expect(Number(limited?.headers()["retry-after"])).toBeGreaterThan(0);
    await expect(
      page.getByRole("heading", { level: 1, name: "Too Many Payment Checks" }),
    ).toBeVisible();
    await expect(
      page.getByText(/Too many payment checks\. Please try again in 15 minutes\./),
    ).toBeVisible();
    await expectNoAxeViolations(page);
  });
});
