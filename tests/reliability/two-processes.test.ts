import { expect, it } from "vitest";
import { addStudioDays } from "#app/domain/studio-time";
import {
  bookingBody,
  bookingCount,
  type Customer,
  databaseForThisFile,
  inspect,
  overlappingLiveBookings,
  postJson,
  type ServerProcess,
  signUp,
  slotSequence,
} from "#tests/reliability/support";

/**
 * docs/quality.md "Known traps": two server processes on one file are a way around any in-process
 * lock. Only SQLite's own write lock (BEGIN IMMEDIATE) stands between them: of every group of
 * simultaneous overlapping requests, split over both processes, exactly one may win.
 */
const { dbPath, launch } = databaseForThisFile("two-processes");

type Answer = Awaited<ReturnType<typeof postJson>> & {
  group: number;
  date: string;
  server: number;
};

const ROUNDS = 3;
const GROUPS_PER_ROUND = 20;
const GROUPS = ROUNDS * GROUPS_PER_ROUND;
const REQUESTS_PER_GROUP = 10;
// Every range holds 12:00-14:00, so any two of one day overlap.
const OVERLAPPING: [string, number][] = [
  ["08:00", 6],
  ["09:00", 5],
  ["10:00", 4],
  ["11:00", 3],
  ["12:00", 2],
];

it("never double-books with two server processes on one database file", async () => {
  // One after the other: both would otherwise migrate the fresh file at the same moment.
  const servers = [await launch(), await launch()];
  const customers: Customer[] = [];
  for (let i = 0; i < 6; i += 1) customers.push(await signUp((servers[0] as ServerProcess).url));
  const firstDay = slotSequence()().date;

  // Races are won or lost by timing: several rounds give a wrong lock more chances to show.
  const answers: Answer[] = [];
  for (let round = 0; round < ROUNDS; round += 1) {
    const requests = [];
    for (let day = 0; day < GROUPS_PER_ROUND; day += 1) {
      const group = round * GROUPS_PER_ROUND + day;
      const date = addStudioDays(firstDay, group);
      for (let i = 0; i < REQUESTS_PER_GROUP; i += 1) {
        const [time, hours] = OVERLAPPING[i % OVERLAPPING.length] as [string, number];
        const server = servers[i % 2] as ServerProcess;
        const customer = customers[(group + i) % customers.length] as Customer;
        requests.push(
          postJson(
            server.url,
            "/api/bookings",
            bookingBody({ date, time }, hours),
            customer.cookie,
          ).then((answer) => ({ group, date, server: i % 2, ...answer })),
        );
      }
    }
    answers.push(...(await Promise.all(requests)));
  }

  const statuses: Record<number, number> = {};
  for (const answer of answers) statuses[answer.status] = (statuses[answer.status] ?? 0) + 1;
  const winnersPerServer = [0, 1].map(
    (server) => answers.filter((a) => a.server === server && a.status === 201).length,
  );
  console.log(
    `two processes: ${answers.length} requests (${ROUNDS} rounds of ${GROUPS_PER_ROUND * REQUESTS_PER_GROUP} at once) in ${GROUPS} overlapping groups, ` +
      `answers ${JSON.stringify(statuses)}, winners per process ${JSON.stringify(winnersPerServer)}`,
  );

  expect(statuses).toEqual({ 201: GROUPS, 422: GROUPS * (REQUESTS_PER_GROUP - 1) });
  for (let group = 0; group < GROUPS; group += 1) {
    expect(answers.filter((a) => a.group === group && a.status === 201)).toHaveLength(1);
  }
  for (const answer of answers.filter((a) => a.status === 422)) {
    expect(answer.json.title).toBe("Time Slot Unavailable");
  }
  const database = inspect(dbPath, (db) => ({
    overlaps: overlappingLiveBookings(db),
    live: bookingCount(db, { live: true }),
  }));
  expect(database.overlaps).toEqual([]);
  expect(database.live).toBe(GROUPS);
});
