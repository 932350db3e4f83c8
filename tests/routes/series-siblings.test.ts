import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { bookings } from "#db/schema";
import { earliestBookableDate } from "#app/domain/availability";
import { addStudioDays } from "#app/domain/studio-time";
import { createBooking } from "#tests/factories/booking";
import { createSeries } from "#tests/factories/series";
import { type Actor, actorsFor } from "#tests/setup/actors";
import { appForThisFile } from "#tests/setup/app-in-process";

/**
 * A series session shown on its own (docs/product.md "Weekly series"): the admin booking page
 * and the customer's Session Details say where it stands in its series and link its siblings;
 * a session booked alone says nothing of a series, and another customer's series never shows.
 */
const server = appForThisFile();
const { db, signUp, signUpAdmin } = actorsFor(server);

let seriesCount = 0;
function series(customer: Actor, count = 5, repeat: "week" | "2weeks" = "week") {
  seriesCount += 1;
  return createSeries(db(), {
    user: { id: customer.id },
    firstDate: addStudioDays(earliestBookableDate(Date.now()), 3 + seriesCount * 2),
    time: "19:00",
    count,
    repeat,
    hours: 2,
    hourlyRate: 200,
  });
}

async function page(path: string, actor: Actor) {
  const response = await fetch(`${server.url}${path}`, {
    redirect: "manual",
    headers: { Cookie: actor.cookie },
  });
  expect(response.status).toBe(200);
  return response.text();
}

const links = (html: string, base: string) =>
  [...html.matchAll(new RegExp(`href="${base}/(\\d+)"`, "g"))].map((match) => Number(match[1]));

describe("a series session's siblings", () => {
  it("the admin page says 'Weekly series · session 2 of 5' and links every other session with its status", async () => {
    const [customer, admin] = await Promise.all([signUp(), signUpAdmin()]);
    const made = series(customer);
    const ids = made.bookings.map((b) => b.id);
    db()
      .update(bookings)
      .set({ status: "CANCELLED" })
      .where(eq(bookings.id, ids[4] ?? 0))
      .run();
    const html = await page(`/admin/bookings/${ids[1]}`, admin);
    expect(html).toContain("Weekly series · session 2 of 5");
    expect(html).toContain("(this session)");
    const linked = links(html, "/admin/bookings");
    expect(linked).toEqual(expect.arrayContaining([ids[0], ids[2], ids[3], ids[4]]));
    expect(linked).not.toContain(ids[1]);
    expect(html).toContain("Cancelled");
  });

  it("Session Details says 'Session 2 of 5 of your weekly series' and links the customer's others", async () => {
    const customer = await signUp();
    const made = series(customer);
    const ids = made.bookings.map((b) => b.id);
    const html = await page(`/dashboard/sessions/${ids[1]}`, customer);
    expect(html).toContain("Session 2 of 5 of your weekly series");
    expect(links(html, "/dashboard/sessions")).toEqual(
      expect.arrayContaining([ids[0], ids[2], ids[3], ids[4]]),
    );
    const biweekly = series(customer, 3, "2weeks");
    const third = await page(`/dashboard/sessions/${biweekly.bookings[2]?.id}`, customer);
    expect(third).toContain("Session 3 of 3 of your every-2-weeks series");
  });

  it("a session booked alone shows no series; another customer's series never shows", async () => {
    const [customer, other, admin] = await Promise.all([signUp(), signUp(), signUpAdmin()]);
    const theirs = series(other);
    const alone = createBooking(db(), {
      user: customer,
      date: addStudioDays(earliestBookableDate(Date.now()), 90),
      time: "10:00",
      status: "CONFIRMED",
      totalCost: 400,
    });
    const own = await page(`/dashboard/sessions/${alone.id}`, customer);
    expect(own).not.toContain("of your weekly series");
    const staff = await page(`/admin/bookings/${alone.id}`, admin);
    expect(staff).not.toContain("Weekly series · session");
    for (const id of theirs.bookings.map((b) => b.id)) {
      expect(links(own, "/dashboard/sessions")).not.toContain(id);
      expect(links(staff, "/admin/bookings")).not.toContain(id);
    }
    // Another customer's session itself is not found for this customer.
    const foreign = await fetch(`${server.url}/dashboard/sessions/${theirs.bookings[1]?.id}`, {
      redirect: "manual",
      headers: { Cookie: customer.cookie },
    });
    expect(foreign.status).toBe(404);
    expect(await foreign.text()).not.toContain("of your weekly series");
  });
});
