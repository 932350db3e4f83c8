import type { Page } from "@playwright/test";
import { createBooking } from "#tests/factories/booking";
import {
  addDays,
  createUser,
  expect,
  expectNoAxeViolations,
  jsOn,
  type OwnServer,
  signIn,
  startOwnServer,
  studioToday,
  test,
} from "#tests/e2e/fixtures";
import { startSmtpSink } from "#tests/setup/smtp-sink";

/**
 * The waitlist journey (docs/product.md "Waitlist"), JavaScript on and off: a customer asks to
 * be told when a booked time frees up, another account cancels it, the offer's e-mail arrives
 * over SMTP and its link books the held time. On a server of the test's own, sending its
 * outbox to an SMTP sink in this process.
 */
async function startSmtp() {
  const { port, mails, close } = await startSmtpSink();
  return {
    port,
    /** The claim link's path in the first offer e-mail to `to`, once the outbox sent it. */
    async claimPath(to: string): Promise<string> {
      await expect
        .poll(() => mails.some((mail) => mail.to.includes(to)), { timeout: 20_000 })
        .toBe(true);
      const mail = mails.find((m) => m.to.includes(to));
      // Quoted-printable: soft line breaks and "=" written as =3D.
      const text = (mail?.raw ?? "").replace(/=\r?\n/g, "").replace(/=3D/g, "=");
      const path = /\/\?claim=\d+#booking-form/.exec(text)?.[0];
      if (!path) throw new Error("No claim link in the e-mail");
      return path;
    },
    close,
  };
}

const bookingForm = (page: Page) => page.locator("#booking-form");

test("join a waitlist, free the slot from another account, claim it from the e-mail", async ({
  page,
  browser,
}, testInfo) => {
  test.setTimeout(90_000);
  const smtp = await startSmtp();
  let server: OwnServer | undefined;
  try {
    server = await startOwnServer({ SMTP_URL: `smtp://127.0.0.1:${smtp.port}` });
    const own = server;
    const waiter = await createUser(testInfo, { firstName: "Wanda" }, own.db);
    const owner = await createUser(testInfo, {}, own.db);
    const date = addDays(studioToday(), 10);
    const booking = createBooking(own.db, {
      user: owner,
      date,
      time: "10:00",
      status: "PENDING_PAYMENT",
      totalCost: 400,
    });

    // The waiter finds 10:00 booked and asks to be told.
    await signIn(page, waiter, own.db);
    await page.goto(`${own.url}/#booking`);
    const form = bookingForm(page);
    await form.scrollIntoViewIfNeeded();
    if (jsOn()) await expect(form.locator('input[name="_hydrated"]')).toBeAttached();
    await form.getByLabel("Recording date").fill(date);
    await form.getByLabel("Hours", { exact: true }).selectOption("2");
    if (!jsOn()) {
      await page.getByRole("button", { name: "Show free times and update the price" }).click();
    }
    const wanted = form.getByLabel("Want a booked time? We can tell you if it frees up");
    await expect(wanted).toBeVisible();
    await wanted.selectOption("10:00");
    await expectNoAxeViolations(page);
    await form.getByRole("button", { name: "Tell me if it frees up" }).click();
    await expect(page).toHaveURL(/\/dashboard\?tab=bookings#waitlist$/);
    const list = page.getByRole("region", { name: "Waitlist" });
    await expect(list.getByText("Waiting: we e-mail you if it frees up.")).toBeVisible();
    await expectNoAxeViolations(page);

    // Another account cancels the booked session.
    const ownerContext = await browser.newContext({ javaScriptEnabled: jsOn() });
    const ownerPage = await ownerContext.newPage();
    await signIn(ownerPage, owner, own.db);
    await ownerPage.goto(`${own.url}/dashboard/sessions/${booking.id}/cancel`);
    await ownerPage.getByRole("button", { name: "Cancel session" }).click();
    await expect(ownerPage).toHaveURL(/\/dashboard\?tab=bookings/);
    await ownerContext.close();

    // The e-mail's link opens the form on the held time; booking it claims it.
    const path = await smtp.claimPath(waiter.email);
    await page.goto(`${own.url}${path}`);
    await expect(form.getByText("The time you waited for is held for you")).toBeVisible();
    await expect(form.getByLabel("Recording date")).toHaveValue(date);
    await expect(form.getByLabel("Start time", { exact: true })).toHaveValue("10:00");
    await expectNoAxeViolations(page);
    await form.getByRole("button", { name: "Book and Continue to Payment" }).click();
    await expect(page).toHaveURL(/\/checkout\/\d+/);
  } finally {
    await server?.stop();
    await smtp.close();
  }
});
