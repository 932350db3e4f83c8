import type { ConsoleMessage, Page, Request } from "@playwright/test";
import { adminDay, insertSession } from "#tests/e2e/admin-data";
import {
  addDays,
  createUser,
  expect,
  expectNoAxeViolations,
  jsOn,
  login,
  studioToday,
  type TestUser,
  test,
  signIn,
} from "#tests/e2e/fixtures";

/**
 * The admin bookings calendar (docs/product.md "Calendar"): Schedule-X with JavaScript, a list
 * of the period's sessions without it, and its code only ever fetched for a calendar. Each
 * journey writes sessions for its own clients on its own studio days and asserts on those.
 */

/** "November 23, 2026" for a studio day. */
function longDate(date: string): string {
  return new Intl.DateTimeFormat("en-US", {
    month: "long",
    day: "numeric",
    year: "numeric",
    timeZone: "UTC",
  }).format(new Date(`${date}T12:00:00Z`));
}

/** A client whose full name no other test uses. */
async function client(testInfo: Parameters<typeof createUser>[0], label: string) {
  const tail = Math.random().toString(36).slice(2, 7);
  return createUser(testInfo, { firstName: `${label}${tail}` });
}

const calendarUrl = (search: string) => `/admin/bookings?view=calendar&${search}`;

/**
 * Every calendar file the page asks for: Schedule-X's chunk and stylesheet are named after it,
 * the Temporal polyfill's chunk after its module (global.esm).
 */
function watchCalendarCode(page: Page): string[] {
  const fetched: string[] = [];
  page.on("request", (request: Request) => {
    if (/schedule-x|global\.esm/i.test(request.url())) fetched.push(request.url());
  });
  return fetched;
}

/** CSP reports, hydration mismatches and any other error the page logs or throws. */
function watchProblems(page: Page): string[] {
  const problems: string[] = [];
  page.on("console", (message: ConsoleMessage) => {
    if (message.type() === "error" || /Content[- ]Security[- ]Policy/i.test(message.text())) {
      problems.push(message.text());
    }
  });
  page.on("pageerror", (error) => problems.push(error.message));
  return problems;
}

async function sessionsOfTheDay(testInfo: Parameters<typeof adminDay>[0], journey: number) {
  const day = adminDay(testInfo, 1, journey);
  const [ada, ben, cy, dee] = [
    await client(testInfo, "Ada"),
    await client(testInfo, "Ben"),
    await client(testInfo, "Cy"),
    await client(testInfo, "Dee"),
  ] as [TestUser, TestUser, TestUser, TestUser];
  insertSession(ada, { date: day, time: "09:00", hours: 2, status: "CONFIRMED" });
  insertSession(ben, { date: day, time: "11:30", hours: 1, status: "PENDING" });
  insertSession(cy, { date: day, time: "13:00", hours: 3, status: "CANCELLED" });
  insertSession(dee, { date: day, time: "17:00", hours: 2, status: "POST_PRODUCTION" });
  return { day, ada, ben, cy, dee };
}

test.describe("admin calendar", () => {
  test("Schedule-X shows the sessions in month, week and day, and an event's notice", async ({
    page,
    admin,
  }, testInfo) => {
    const { day, ada, ben, cy, dee } = await sessionsOfTheDay(testInfo, 0);
    const problems = watchProblems(page);
    await login(page, admin);
    if (!jsOn(testInfo)) {
      // Schedule-X needs JavaScript: without it the same URL is the server's list of the
      // month, every session of the day in it and no calendar grid.
      await page.goto(calendarUrl(`around=${day}`));
      await expect(page.locator(".sx__month-grid-day")).toHaveCount(0);
      const list = page.getByTestId("calendar-list");
      for (const client of [ada, ben, cy, dee]) await expect(list).toContainText(client.fullName);
      expect(problems).toEqual([]);
      return;
    }

    // Month (the default view): at most three events in the day's cell, then a 'more' link.
    await page.goto(calendarUrl(`around=${day}`));
    const cell = page.locator(`.sx__month-grid-day[data-date="${day}"]`);
    await expect(cell.locator(".sx__month-grid-event")).toHaveCount(3);
    await expect(cell).toContainText(ada.fullName);
    await expect(cell).toContainText(ben.fullName);
    await expect(cell).toContainText(cy.fullName);
    await expect(cell.getByRole("button", { name: /1 more event/i })).toBeVisible();
    // No toolbar of Schedule-X's own: our links are the controls.
    await expect(page.locator(".sx__calendar-header")).toBeHidden();
    await expect(page.getByRole("link", { name: "Month", exact: true })).toHaveAttribute(
      "aria-current",
      "page",
    );
    await expectNoAxeViolations(page);

    // 'more' opens that day, as a URL.
    await cell.getByRole("button", { name: /1 more event/i }).click();
    await expect(page).toHaveURL(new RegExp(`around=${day}&cal=day`));
    await expect(page.locator("[data-time-grid-date]")).toHaveCount(1);

    // Week: Sunday to Saturday, every session of the day in the time grid.
    await page.getByRole("link", { name: "Week", exact: true }).click();
    await expect(page).toHaveURL(/cal=week/);
    await expect(page.locator("[data-time-grid-date]")).toHaveCount(7);
    const column = page.locator(`[data-time-grid-date="${day}"]`);
    await expect(column.locator(".sx__time-grid-event")).toHaveCount(4);
    await expect(column).toContainText(dee.fullName);
    // 08:00 to 20:00 in 30-minute steps, no all-day row.
    const steps = page.locator(".sx__week-grid__hour");
    await expect(steps).toHaveCount(24);
    await expect(steps.nth(1)).toHaveText("8:30 AM");
    await expect(steps.nth(23)).toHaveText("7:30 PM");
    await expect(page.locator(".sx__date-grid")).toBeHidden();
    await expectNoAxeViolations(page);

    // Day: one column.
    await page.getByRole("link", { name: "Day", exact: true }).click();
    await expect(page).toHaveURL(/cal=day/);
    await expect(page.locator("[data-time-grid-date]")).toHaveCount(1);
    await expect(column.locator(".sx__time-grid-event")).toHaveCount(4);

    // An event's notice: name, status, date, time and phone, and 'View Details'.
    const cyEvent = column.locator(".sx__time-grid-event").filter({ hasText: cy.fullName });
    await cyEvent.click();
    const notice = page.getByRole("dialog", { name: cy.fullName });
    await expect(notice).toBeVisible();
    await expect(notice).toContainText("Cancelled");
    await expect(notice).toContainText(longDate(day));
    await expect(notice).toContainText("1:00 PM – 4:00 PM");
    await expect(notice).toContainText("404-555-0100");
    await expectNoAxeViolations(page);
    await page.keyboard.press("Escape");
    await expect(notice).toBeHidden();
    // Focus goes back to the event, and the keyboard opens a notice too.
    await expect(cyEvent).toBeFocused();
    await page.keyboard.press("Enter");
    await expect(notice).toBeVisible();
    await notice.getByRole("button", { name: "Close" }).click();
    await expect(notice).toBeHidden();

    await column.locator(".sx__time-grid-event").filter({ hasText: ada.fullName }).click();
    await page
      .getByRole("dialog", { name: ada.fullName })
      .getByRole("link", { name: "View Details" })
      .click();
    await expect(page).toHaveURL(new RegExp(`/admin/bookings\\?date=${day}$`));

    // The now indicator marks today in week and day views.
    for (const cal of ["week", "day"]) {
      await page.goto(calendarUrl(`cal=${cal}`));
      await expect(
        page.locator(`[data-time-grid-date="${studioToday()}"] .sx__current-time-indicator`),
      ).toBeAttached();
    }
    expect(problems).toEqual([]);

    // A browser that does not ship Temporal yet gets the polyfill first, and the same calendar.
    const older = await page.context().newPage();
    await older.addInitScript(() => {
      delete (globalThis as { Temporal?: unknown }).Temporal;
    });
    const fetched = watchCalendarCode(older);
    const olderProblems = watchProblems(older);
    await older.goto(calendarUrl(`cal=week&around=${day}`));
    const event = older
      .locator(`[data-time-grid-date="${day}"] .sx__time-grid-event`)
      .filter({ hasText: ada.fullName });
    await expect(event).toContainText("9:00 AM – 11:00 AM");
    await event.click();
    await expect(older.getByRole("dialog", { name: ada.fullName })).toContainText(longDate(day));
    expect(fetched.some((url) => /global\.esm/.test(url))).toBe(true);
    expect(olderProblems).toEqual([]);
  });

  test("Month, Week, Day, Previous, Today and Next are links that keep the filters", async ({
    page,
    admin,
  }, testInfo) => {
    const { day, ada } = await sessionsOfTheDay(testInfo, 1);
    await signIn(page, admin);
    await page.goto(`/admin/sessions?view=calendar&status=CONFIRMED&around=${day}`);
    const heading = page.locator("#calendar-heading");
    await expect(heading).toHaveText(
      new Intl.DateTimeFormat("en-US", { month: "long", year: "numeric", timeZone: "UTC" }).format(
        new Date(`${day}T12:00:00Z`),
      ),
    );

    await page.getByRole("link", { name: "Day", exact: true }).click();
    await expect(page).toHaveURL(new RegExp(`status=CONFIRMED&around=${day}&cal=day`));
    await expect(heading).toContainText(longDate(day));

    await page.getByRole("link", { name: "Next", exact: true }).click();
    await expect(page).toHaveURL(new RegExp(`around=${addDays(day, 1)}&cal=day`));
    await expect(heading).toContainText(longDate(addDays(day, 1)));
    await page.getByRole("link", { name: "Previous", exact: true }).click();
    await expect(heading).toContainText(longDate(day));
    await expect(
      jsOn(testInfo)
        ? page.locator(`[data-time-grid-date="${day}"]`)
        : page.getByTestId("calendar-list"),
    ).toContainText(ada.fullName);

    await page.getByRole("link", { name: "Today", exact: true }).click();
    await expect(page).toHaveURL(new RegExp(`around=${studioToday()}&cal=day`));
    await expect(page).toHaveURL(/status=CONFIRMED/);
    await expect(heading).toContainText(longDate(studioToday()));
  });

  test("without JavaScript the period's sessions are a list linking to each day", async ({
    page,
    admin,
  }, testInfo) => {
    const { day, ada, ben, cy, dee } = await sessionsOfTheDay(testInfo, 2);
    await signIn(page, admin);
    const response = await page.goto(calendarUrl(`cal=week&around=${day}`));
    // The server always sends the list: it is what a browser without JavaScript shows.
    const html = (await response?.text()) ?? "";
    expect(html).toContain("The interactive calendar needs JavaScript");
    expect(html).toContain(cy.fullName);

    if (jsOn(testInfo)) {
      // With JavaScript the calendar takes the list's place.
      await expect(page.locator(`[data-time-grid-date="${day}"]`)).toContainText(ada.fullName);
      await expect(page.getByTestId("calendar-list")).toHaveCount(0);
      return;
    }
    const list = page.getByTestId("calendar-list");
    await expect(list).toContainText("The interactive calendar needs JavaScript");
    const dayGroup = list.getByRole("listitem").filter({
      has: page.getByRole("heading", { name: new RegExp(longDate(day)) }),
    });
    const rows = dayGroup.getByRole("listitem");
    await expect(rows).toHaveCount(4);
    await expect(rows.nth(0)).toContainText(`9:00 AM – 11:00 AM${ada.fullName}Confirmed`);
    await expect(rows.nth(1)).toContainText(`11:30 AM – 12:30 PM${ben.fullName}Pending Review`);
    await expect(rows.nth(2)).toContainText(`1:00 PM – 4:00 PM${cy.fullName}Cancelled`);
    await expect(rows.nth(3)).toContainText(`5:00 PM – 7:00 PM${dee.fullName}In Post-Production`);
    // The seven statuses' legend.
    for (const label of ["Pending Payment", "Confirmed", "Recorded", "Completed", "Cancelled"]) {
      await expect(page.getByRole("region", { name: "Status colours" })).toContainText(label);
    }
    await expectNoAxeViolations(page);

    await dayGroup.getByRole("link", { name: /View Details/ }).click();
    await expect(page).toHaveURL(new RegExp(`/admin/bookings\\?date=${day}$`));
  });

  test("at 320 px the page does not scroll sideways", async ({ page, admin }, testInfo) => {
    const { day, ada } = await sessionsOfTheDay(testInfo, 3);
    await page.setViewportSize({ width: 320, height: 800 });
    await login(page, admin);
    for (const cal of ["month", "week", "day"]) {
      await page.goto(calendarUrl(`cal=${cal}&around=${day}`));
      await expect(
        jsOn(testInfo) ? page.locator(".sx__calendar-wrapper") : page.getByTestId("calendar-list"),
      ).toContainText(ada.fullName);
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(
        320,
      );
    }
  });

  test("Schedule-X loads only for a calendar, never on customer pages or admin lists", async ({
    page,
    admin,
  }, testInfo) => {
    const fetched = watchCalendarCode(page);
    await page.goto("/");
    await expect(page.getByRole("heading", { level: 1 })).toBeVisible();
    await page.waitForLoadState("networkidle");
    await signIn(page, admin);
    await page.goto("/admin/bookings");
    await page.waitForLoadState("networkidle");
    expect(fetched).toEqual([]);

    await page.goto(calendarUrl(""));
    await page.waitForLoadState("networkidle");
    if (jsOn(testInfo)) {
      // The check above can fail: a calendar does fetch its code and its stylesheet (and no
      // polyfill in this browser, which ships Temporal).
      expect(fetched.some((url) => /schedule-x.*\.js$/.test(url))).toBe(true);
      expect(fetched.some((url) => /schedule-x.*\.css$/.test(url))).toBe(true);
      expect(fetched.some((url) => /global\.esm/.test(url))).toBe(false);
    } else {
      expect(fetched).toEqual([]);
    }
  });
});
