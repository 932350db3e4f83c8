import type { Page } from "@playwright/test";
import { eq } from "drizzle-orm";
import { passkeys, signIns } from "#db/schema";
import {
  accountMenu,
  chooseFromAccountMenu,
  createUser,
  db,
  expect,
  expectNoAxeViolations,
  loginThroughForm,
  signIn,
  test,
  holdPageScripts,
} from "#tests/e2e/fixtures";

/**
 * Passkeys (docs/product.md "Accounts and sign-ins") with Chromium's virtual authenticator
 * (the DevTools WebAuthn domain): added on Profile Settings, signing in without a username,
 * removed; staff with only a passkey reach the admin pages (the e2e server requires a second
 * factor of staff). Without JavaScript the buttons are absent and passwords work as before.
 */

/** A platform authenticator that holds passkeys and verifies its user (a fingerprint). */
async function virtualAuthenticator(page: Page) {
  const cdp = await page.context().newCDPSession(page);
  await cdp.send("WebAuthn.enable");
  await cdp.send("WebAuthn.addVirtualAuthenticator", {
    options: {
      protocol: "ctap2",
      transport: "internal",
      hasResidentKey: true,
      hasUserVerification: true,
      isUserVerified: true,
      automaticPresenceSimulation: true,
    },
  });
}

/** On Profile Settings: names a passkey and creates it, by keyboard (the field keeps focus). */
async function addPasskey(page: Page, name: string) {
  await page.getByLabel("Passkey name").fill(name);
  await page.getByLabel("Passkey name").press("Enter");
  await expect(page.getByRole("list", { name: "Your passkeys" })).toContainText(name);
}

/** A passkey named "Old phone", stored as if added where JavaScript ran. */
function storedPasskey(userId: number) {
  db()
    .insert(passkeys)
    .values({
      userId,
      credentialId: `e2e-${userId}`,
      publicKey: Buffer.from("not used"),
      name: "Old phone",
    })
    .run();
}

async function signOut(page: Page) {
  await chooseFromAccountMenu(page, "Logout");
  await expect(page.getByRole("link", { name: "Sign In" })).toBeVisible();
}

async function signInWithPasskey(page: Page) {
  await page.goto("/auth");
  await expect(page.getByLabel("Username")).toHaveValue("");
  await expectNoAxeViolations(page);
  await page.getByRole("button", { name: "Sign in with a passkey" }).click();
  await expect(page).toHaveURL(/\/$/);
  await expect(accountMenu(page)).toBeVisible();
}

// Passkeys need JavaScript: these journeys run in the js-on project only (playwright.config.ts).
test.describe("passkeys with JavaScript", { tag: "@js-on-only" }, () => {
  // Whole journeys with several axe runs on the long dashboard page.
  test.setTimeout(180_000);

  test("are added on Profile Settings, sign in without a username, and are removed", async ({
    page,
    customer,
  }) => {
    await virtualAuthenticator(page);
    await signIn(page, customer);
    await page.goto("/dashboard?tab=profile");
    await expect(page.getByText("You have no passkeys yet.")).toBeVisible();
    await expectNoAxeViolations(page);

    // Our message for a name too long, before any prompt.
    await page.getByLabel("Passkey name").fill("x".repeat(51));
    await page.getByRole("button", { name: "Add a passkey" }).click();
    await expect(page.getByText("A passkey's name is at most 50 characters.")).toBeVisible();
    await expectNoAxeViolations(page);

    // A new name is checked as it is typed, and starts no passkey: a request held here would
    // keep the button busy.
    await page.route("**/dashboard/passkeys", () => {});
    await page.getByLabel("Passkey name").fill("Work laptop");
    await expect(page.getByText("A passkey's name is at most 50 characters.")).toBeHidden();
    await expect(page.getByRole("button", { name: "Add a passkey" })).toBeEnabled();
    await page.unroute("**/dashboard/passkeys");

    await addPasskey(page, "Work laptop");
    await expect(page.getByText(/Added .+ · Last used never/)).toBeVisible();
    await expectNoAxeViolations(page);

    // The same authenticator again: the browser refuses (it already holds one), in our words.
    await page.getByLabel("Passkey name").fill("Again");
    await page.getByRole("button", { name: "Add a passkey" }).click();
    await expect(
      page.getByText("Your browser did not create or use a passkey. Please try again."),
    ).toBeVisible();
    await expectNoAxeViolations(page);

    await signOut(page);
    await signInWithPasskey(page);
    const rows = db().select().from(signIns).where(eq(signIns.userId, customer.id)).all();
    expect(rows.some((row) => row.secondFactor)).toBe(true);

    await page.goto("/dashboard?tab=profile");
    await expect(page.getByText(/Added .+ · Last used (?!never)/)).toBeVisible();
    await page.getByText("Remove Work laptop").click();
    await expectNoAxeViolations(page);
    await page.getByRole("button", { name: "Yes, remove “Work laptop”" }).click();
    await expect(page.getByText("You have no passkeys yet.")).toBeVisible();
    expect(db().select().from(passkeys).where(eq(passkeys.userId, customer.id)).all()).toEqual([]);
  });

  test("a Remove opened before the page's JavaScript arrives stays open; closed, it asks in a dialog", async ({
    page,
    customer,
  }) => {
    storedPasskey(customer.id);
    await signIn(page, customer);
    const release = await holdPageScripts(page);
    const loaded = page.goto("/dashboard?tab=profile");
    await page.getByText("Remove Old phone").click();
    const yes = page.getByRole("button", { name: "Yes, remove “Old phone”" });
    await expect(yes).toBeVisible();
    release();
    await loaded;
    // Add needs the page's JavaScript: its section now runs.
    await expect(page.getByRole("button", { name: "Add a passkey" })).toBeVisible();
    await expect(yes).toBeVisible();

    await page.getByText("Remove Old phone").click();
    await expect(yes).toBeHidden();
    await page.getByRole("button", { name: "Remove Old phone" }).click();
    await expect(page.getByRole("alertdialog")).toContainText("It will no longer sign you in.");
    await expectNoAxeViolations(page);
    await yes.click();
    await expect(page.getByText("You have no passkeys yet.")).toBeVisible();
  });

  test("a Remove clicked while its section hydrates stays open", async ({ page, customer }) => {
    storedPasskey(customer.id);
    // The click lands in the gap a slow phone opens: React listens on the server's <details> as
    // it hydrates it, and the click follows at once, while the section is still hydrating.
    await page.addInitScript(() => {
      const listen = HTMLDetailsElement.prototype.addEventListener;
      let clicked = false;
      HTMLDetailsElement.prototype.addEventListener = function (
        this: HTMLDetailsElement,
        ...args: Parameters<HTMLElement["addEventListener"]>
      ) {
        listen.apply(this, args);
        if (clicked || args[0] !== "toggle" || !this.textContent?.includes("Remove Old phone"))
          return;
        clicked = true;
        queueMicrotask(() => {
          const remove = [...document.querySelectorAll("summary, button")].find(
            (control) => control.textContent?.trim() === "Remove Old phone",
          );
          if (remove instanceof HTMLElement) remove.click();
        });
      };
    });
    await signIn(page, customer);
    await page.goto("/dashboard?tab=profile");
    await expect(page.getByText("It will no longer sign you in.")).toBeVisible();
    await page.getByRole("button", { name: "Yes, remove “Old phone”" }).click();
    await expect(page.getByText("You have no passkeys yet.")).toBeVisible();
  });

  test("let staff with only a passkey reach the admin pages", async ({ page }, testInfo) => {
    const admin = await createUser(testInfo, {
      isAdmin: true,
      twoFactor: false,
    });
    await virtualAuthenticator(page);
    await signIn(page, admin);
    await page.goto("/admin/bookings");
    await expect(page).toHaveURL(/\/dashboard\/two-factor$/);
    await expect(page.getByRole("heading", { name: "Or use a passkey" })).toBeVisible();
    await expectNoAxeViolations(page);
    await page.getByLabel("Passkey name").fill("Office key");
    await page.getByRole("button", { name: "Add a passkey" }).click();
    // Adding it proved no second factor for this password sign-in: sign in again with it.
    await expect(page.getByText("You have a passkey. Sign out, then choose")).toBeVisible();
    await expectNoAxeViolations(page);
    await page.getByRole("button", { name: "Sign out" }).click();
    await expect(page.getByRole("link", { name: "Sign In" })).toBeVisible();
    await signInWithPasskey(page);
    await page.goto("/admin/bookings");
    await expect(page).toHaveURL(/\/admin\/bookings$/);
  });
});

test("without JavaScript there are no passkey buttons, and passwords sign in", {
  tag: "@js-off-only",
}, async ({ page, customer }) => {
  await page.goto("/auth");
  await expect(page.getByRole("button", { name: "Sign in with a passkey" })).toHaveCount(0);
  await loginThroughForm(page, customer);
  await page.goto("/dashboard?tab=profile");
  await expect(page.getByRole("heading", { name: "Passkeys" })).toBeVisible();
  await expect(page.getByRole("button", { name: "Add a passkey" })).toHaveCount(0);
  await expectNoAxeViolations(page);
});

test("a passkey is removed without JavaScript too", { tag: "@js-off-only" }, async ({
  page,
  customer,
}) => {
  storedPasskey(customer.id);
  await signIn(page, customer);
  await page.goto("/dashboard?tab=profile");
  await page.getByText("Remove Old phone").click();
  await expectNoAxeViolations(page);
  await page.getByRole("button", { name: "Yes, remove “Old phone”" }).click();
  await expect(page).toHaveURL(/\/dashboard\?tab=profile$/);
  await expect(page.getByText("You have no passkeys yet.")).toBeVisible();
  await expect(page.getByText("It can no longer sign you in.")).toBeVisible();
});
