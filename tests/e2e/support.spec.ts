import { eq } from "drizzle-orm";
import { technicalAssistanceRequests } from "#db/schema";
import { SUPPORT_MESSAGES } from "#app/domain/support";
import {
  chooseFromAccountMenu,
  db,
  expect,
  expectNoAxeViolations,
  login,
  test,
  toast,
  signIn,
} from "#tests/e2e/fixtures";

/**
 * Asking for help (docs/quality.md "Works for everyone"): the Help & Support tab's 'Get help' form
 * and the customer's own requests, and the chat widget's diagnostic page. The suite's server has no
 * INTERCOM_APP_ID, so Help leads to the form and the chat reads 'not configured'.
 */

function requestsOf(userId: number) {
  return db()
    .select({
      issueType: technicalAssistanceRequests.issueType,
      description: technicalAssistanceRequests.description,
      preferredContactMethod: technicalAssistanceRequests.preferredContactMethod,
      status: technicalAssistanceRequests.status,
      name: technicalAssistanceRequests.name,
    })
    .from(technicalAssistanceRequests)
    .where(eq(technicalAssistanceRequests.userId, userId))
    .all();
}

test.describe("Help & Support", () => {
  test("files a request and sees it listed as Pending", async ({ page, customer }) => {
    await signIn(page, customer);
    await page.goto("/dashboard?tab=support");
    const form = page.locator("#support-form");
    await expect(form.getByRole("heading", { name: "Get help" })).toBeVisible();
    // Prefilled from the profile.
    await expect(form.getByLabel("Name")).toHaveValue(customer.fullName);
    await expect(form.getByLabel("Email")).toHaveValue(customer.email);
    await expect(form.getByLabel("E-mail")).toBeChecked();
    await expect(page.getByText("You have not sent a request yet.")).toBeVisible();

    const description = "The second microphone crackles whenever the guest moves.";
    await form.getByLabel("What is it about?").selectOption({ label: "Studio equipment" });
    await form.getByLabel("Description").fill(description);
    await form.getByLabel("Phone", { exact: true }).check();
    await form.getByRole("button", { name: "Send request" }).click();

    await expect(toast(page)).toContainText("Request sent");
    await expect(toast(page)).toContainText(
      "We have received your request and will contact you by phone.",
    );
    await expect(page).toHaveURL(/\/dashboard\?tab=support#support-requests$/);
    const listed = page.locator("#support-requests li", { hasText: description });
    await expect(listed).toBeVisible();
    await expect(listed.getByRole("heading", { name: "Studio equipment" })).toBeVisible();
    await expect(listed).toContainText("Pending");
    await expect(page.getByText("You have not sent a request yet.")).toHaveCount(0);
    // A sent request does not stay in the form.
    await expect(form.getByLabel("Description")).toHaveValue("");

    expect(requestsOf(customer.id)).toEqual([
      {
        issueType: "EQUIPMENT",
        description,
        preferredContactMethod: "PHONE",
        status: "PENDING",
        name: customer.fullName,
      },
    ]);
    // The form and the list with a request in it.
    await expectNoAxeViolations(page);
  });

  test("a too-short description is reported on its field and nothing is sent", async ({
    page,
    customer,
  }, testInfo) => {
    await signIn(page, customer);
    await page.goto("/dashboard?tab=support");
    const form = page.locator("#support-form");
    await form.getByLabel("What is it about?").selectOption({ label: "Payment or refund" });
    await form.getByLabel("Description").fill("Help!");
    await form.getByRole("button", { name: "Send request" }).click();

    const description = form.getByLabel("Description");
    await expect(form.getByText(SUPPORT_MESSAGES.descriptionShort)).toBeVisible();
    await expect(description).toHaveAttribute("aria-invalid", "true");
    await expect(description).toHaveValue("Help!");
    if (testInfo.project.name === "js-off") {
      // The server answered: the form is back with what was typed, and says so in a toast.
      await expect(toast(page)).toContainText("Request not sent");
      await expect(form.getByLabel("What is it about?")).toHaveValue("PAYMENT");
    }
    expect(requestsOf(customer.id)).toEqual([]);
    await expectNoAxeViolations(page);
  });

  test("Help in the account menu leads to the support form", async ({ page, customer }) => {
    await login(page, customer);
    await chooseFromAccountMenu(page, "Help");
    await expect(page).toHaveURL(/\/dashboard\?tab=support$/);
    await expect(page.getByRole("heading", { name: "Get help" })).toBeVisible();
  });
});

test.describe("/intercom-test", () => {
  test("without an app id says the chat is not configured, and shows who is signed in", async ({
    page,
    customer,
  }) => {
    await page.goto("/intercom-test");
    await expect(page.getByRole("heading", { level: 1, name: "Chat widget test" })).toBeVisible();
    await expect(page.getByTestId("chat-app-id")).toHaveText("not configured");
    await expect(page.getByTestId("chat-status")).toHaveText("Not loaded (not configured)");
    await expect(page.getByTestId("chat-login-state")).toHaveText("Signed out");
    await expect(page.getByRole("button", { name: "Show Messenger" })).toBeDisabled();
    await expect(page.getByRole("button", { name: "Reinitialize" })).toBeDisabled();
    await expect(page.getByText("The chat is not configured on this site")).toBeVisible();
    await expectNoAxeViolations(page);

    await signIn(page, customer);
    await page.goto("/intercom-test");
    await expect(page.getByTestId("chat-login-state")).toHaveText(
      `Signed in as ${customer.username}`,
    );
    await page.getByRole("link", { name: "send us a support request" }).click();
    await expect(page).toHaveURL(/\/dashboard\?tab=support$/);
    await expect(page.getByRole("heading", { name: "Get help" })).toBeVisible();
  });
});
