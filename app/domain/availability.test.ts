import { describe, expect, it } from "vitest";
import {
  ADVANCE_NOTICE_MESSAGE,
  BOOKING_LIMITS,
  type BusyRange,
  busyWindowFor,
  conflictsWith,
  earliestBookableDate,
  GUEST_OPTIONS,
  HOUR_OPTIONS,
  meetsAdvanceNotice,
  START_TIMES,
  startProblem,
  startTimeOptions,
} from "#app/domain/availability";
import { addStudioDays, studioInstant, studioSession } from "#app/domain/studio-time";

const utc = (iso: string) => Date.parse(iso);
const MINUTE = 60 * 1000;
const HOUR = 60 * MINUTE;

const booking = (date: string, time: string, hours: number): BusyRange => ({
  ...studioSession(date, time, hours),
  kind: "booking",
});
const blocked = (date: string, time: string, hours: number): BusyRange => ({
  ...studioSession(date, time, hours),
  kind: "blocked",
});

/** A `now` long before June 2026, so the 48-hour rule never gets in the way. */
const LONG_AGO = utc("2026-01-01T12:00:00Z");

const optionsFor = (input: {
  date: string;
  hours: number;
  busy?: BusyRange[];
  now?: number;
  bufferMinutes?: number;
}) => startTimeOptions({ busy: [], now: LONG_AGO, bufferMinutes: 0, ...input });

const reasons = (options: ReturnType<typeof startTimeOptions>) =>
  Object.fromEntries(options.map((option) => [option.time, option.reason]));

describe("constants", () => {
  it("offer hourly starts from 00:00 to 23:00", () => {
    expect(START_TIMES).toHaveLength(24);
    expect(START_TIMES[0]).toBe("00:00");
    expect(START_TIMES[9]).toBe("09:00");
    expect(START_TIMES[13]).toBe("13:00");
    expect(START_TIMES[23]).toBe("23:00");
    expect(START_TIMES).toEqual([...new Set(START_TIMES)].sort());
    for (const time of START_TIMES) expect(time).toMatch(/^([01]\d|2[0-3]):00$/);
  });

  it("offer 2 to 8 hours and 1 to 4 guests with 48 hours' notice", () => {
    expect(HOUR_OPTIONS).toEqual([2, 3, 4, 5, 6, 7, 8]);
    expect(GUEST_OPTIONS).toEqual([1, 2, 3, 4]);
    expect(BOOKING_LIMITS.advanceNoticeHours).toBe(48);
    expect(ADVANCE_NOTICE_MESSAGE).toBe("Booking must be at least 48 hours in advance");
  });
});

describe("meetsAdvanceNotice", () => {
  const now = utc("2026-06-01T16:00:00Z");

  it("accepts a start exactly 48 hours ahead", () => {
    expect(meetsAdvanceNotice(now + 48 * HOUR, now)).toBe(true);
  });

  it("refuses a start 1 ms short of 48 hours", () => {
    expect(meetsAdvanceNotice(now + 48 * HOUR - 1, now)).toBe(false);
  });

  it("accepts anything later and refuses anything sooner or past", () => {
    expect(meetsAdvanceNotice(now + 48 * HOUR + 1, now)).toBe(true);
    expect(meetsAdvanceNotice(now + 30 * 24 * HOUR, now)).toBe(true);
    expect(meetsAdvanceNotice(now + 47 * HOUR, now)).toBe(false);
    expect(meetsAdvanceNotice(now, now)).toBe(false);
    expect(meetsAdvanceNotice(now - HOUR, now)).toBe(false);
  });

  it("counts elapsed hours over a clock change, not wall-clock days", () => {
    // Fri 2026-10-30 12:00 EDT + 48 h = Sun 2026-11-01 11:00 EST (the clocks fell back).
    const friday = studioInstant("2026-10-30", "12:00");
    expect(meetsAdvanceNotice(studioInstant("2026-11-01", "11:00"), friday)).toBe(true);
    expect(meetsAdvanceNotice(studioInstant("2026-11-01", "12:00"), friday)).toBe(true);
    expect(meetsAdvanceNotice(studioInstant("2026-11-01", "10:00"), friday)).toBe(false);
    // Fri 2026-03-06 12:00 EST + 48 h = Sun 2026-03-08 13:00 EDT (the clocks sprang forward).
    const springFriday = studioInstant("2026-03-06", "12:00");
    expect(meetsAdvanceNotice(studioInstant("2026-03-08", "12:00"), springFriday)).toBe(false);
    expect(meetsAdvanceNotice(studioInstant("2026-03-08", "13:00"), springFriday)).toBe(true);
  });
});

describe("earliestBookableDate", () => {
  it("is two days out when 23:00 that day is still 48 hours away", () => {
    // Mon 2026-06-01 12:00 EDT: 48 h later is Wed 12:00.
    expect(earliestBookableDate(studioInstant("2026-06-01", "12:00"))).toBe("2026-06-03");
    expect(earliestBookableDate(studioInstant("2026-06-01", "00:00"))).toBe("2026-06-03");
  });

  it("moves to the next day once 23:00 two days out is inside 48 hours", () => {
    const at2300 = studioInstant("2026-06-01", "23:00");
    // Exactly 48 h before Wed 23:00: that start is still allowed.
    expect(earliestBookableDate(at2300)).toBe("2026-06-03");
    expect(earliestBookableDate(at2300 + 1)).toBe("2026-06-04");
    expect(earliestBookableDate(studioInstant("2026-06-01", "23:30"))).toBe("2026-06-04");
  });

  it("uses the studio's day around midnight, not UTC's", () => {
    // 03:59Z on 2 June is 23:59 on 1 June in Atlanta: Wed 23:00 is under 48 h away.
    expect(earliestBookableDate(utc("2026-06-02T03:59:00Z"))).toBe("2026-06-04");
    // 04:00Z is Atlanta midnight of 2 June: 48 h later is Thu 00:00.
    expect(earliestBookableDate(utc("2026-06-02T04:00:00Z"))).toBe("2026-06-04");
    // 20:00Z is 16:00 in Atlanta, but already 3 June in Auckland.
    expect(earliestBookableDate(utc("2026-06-01T20:00:00Z"))).toBe("2026-06-03");
  });

  it("crosses month and year ends", () => {
    expect(earliestBookableDate(studioInstant("2026-06-29", "10:00"))).toBe("2026-07-01");
    expect(earliestBookableDate(studioInstant("2026-12-30", "23:30"))).toBe("2027-01-02");
    expect(earliestBookableDate(studioInstant("2027-02-26", "09:00"))).toBe("2027-02-28");
  });

  it("counts elapsed hours across spring forward (2026-03-08)", () => {
    // Fri 22:30 EST + 48 h = Sun 23:30 EDT: Sunday 23:00 is too soon, although a wall clock
    // two days on would read 22:30.
    expect(earliestBookableDate(studioInstant("2026-03-06", "22:30"))).toBe("2026-03-09");
    expect(earliestBookableDate(studioInstant("2026-03-06", "21:59"))).toBe("2026-03-08");
    // 22:00 EST + 48 h is exactly Sun 23:00 EDT.
    expect(earliestBookableDate(studioInstant("2026-03-06", "22:00"))).toBe("2026-03-08");
    expect(earliestBookableDate(studioInstant("2026-03-06", "22:00") + 1)).toBe("2026-03-09");
  });

  it("counts elapsed hours across fall back (2026-11-01)", () => {
    // Fri 23:30 EDT + 48 h = Sun 22:30 EST: Sunday 23:00 is still allowed, although a wall
    // clock two days on would read 23:30.
    expect(earliestBookableDate(studioInstant("2026-10-30", "23:30"))).toBe("2026-11-01");
    // Exactly 48 h before Sun 23:00 EST is Sat 00:00 EDT.
    expect(earliestBookableDate(studioInstant("2026-10-31", "00:00"))).toBe("2026-11-01");
    expect(earliestBookableDate(studioInstant("2026-10-31", "00:00") + 1)).toBe("2026-11-02");
  });

  it("always names a day that has an allowed start and no earlier day does", () => {
    // 23:00 is the last start of every studio day. Every 5 h 17 min through 2026 hits every
    // hour of the day and both clock changes' weekends.
    const step = 5 * HOUR + 17 * MINUTE;
    for (let now = utc("2026-01-01T00:00:00Z"); now < utc("2027-01-01T00:00:00Z"); now += step) {
      const day = earliestBookableDate(now);
      expect(meetsAdvanceNotice(studioInstant(day, "23:00"), now)).toBe(true);
      expect(meetsAdvanceNotice(studioInstant(addStudioDays(day, -1), "23:00"), now)).toBe(false);
    }
  });

  it("agrees with the start-time list on both clock-change weekends", () => {
    for (const start of ["2026-03-05", "2026-10-29"]) {
      for (
        let now = studioInstant(start, "00:00");
        now < studioInstant(start, "00:00") + 4 * 24 * HOUR;
        now += 2 * HOUR + 30 * MINUTE
      ) {
        const day = earliestBookableDate(now);
        const free = optionsFor({ date: day, hours: 2, now }).filter((option) => option.available);
        expect(free.length).toBeGreaterThan(0);
        const dayBefore = optionsFor({ date: addStudioDays(day, -1), hours: 2, now });
        expect(dayBefore.every((option) => !option.available)).toBe(true);
      }
    }
  });
});

describe("conflictsWith", () => {
  const range = booking("2026-06-10", "10:00", 2); // 10:00-12:00
  const busy = [range];
  const slot = (time: string, hours: number) => studioSession("2026-06-10", time, hours);

  it("finds nothing in an empty studio", () => {
    expect(conflictsWith(slot("10:00", 8), [], 60)).toBe(false);
  });

  it("lets ranges that only touch share the boundary", () => {
    expect(conflictsWith(slot("08:00", 2), busy, 0)).toBe(false); // ends 10:00
    expect(conflictsWith(slot("12:00", 2), busy, 0)).toBe(false); // starts 12:00
  });

  it("finds any overlap", () => {
    expect(conflictsWith(slot("09:00", 2), busy, 0)).toBe(true); // overlaps the start
    expect(conflictsWith(slot("11:00", 2), busy, 0)).toBe(true); // overlaps the end
    expect(conflictsWith(slot("10:00", 2), busy, 0)).toBe(true); // same range
    expect(conflictsWith(slot("08:00", 6), busy, 0)).toBe(true); // contains it
    expect(
      conflictsWith(
        { startsAt: range.startsAt + 30 * MINUTE, endsAt: range.startsAt + 60 * MINUTE },
        busy,
        0,
      ),
    ).toBe(true); // inside it
  });

  it("misses by a millisecond", () => {
    expect(
      conflictsWith({ startsAt: range.endsAt - 1, endsAt: range.endsAt + HOUR }, busy, 0),
    ).toBe(true);
    expect(
      conflictsWith({ startsAt: range.startsAt - HOUR, endsAt: range.startsAt + 1 }, busy, 0),
    ).toBe(true);
  });

  it("keeps the turnaround buffer free after a booking", () => {
    const minutesAfter = (minutes: number) => ({
      startsAt: range.endsAt + minutes * MINUTE,
      endsAt: range.endsAt + minutes * MINUTE + 2 * HOUR,
    });
    expect(conflictsWith(minutesAfter(29), busy, 30)).toBe(true);
    expect(conflictsWith(minutesAfter(30), busy, 30)).toBe(false);
    expect(conflictsWith(slot("12:00", 2), busy, 30)).toBe(true);
  });

  it("keeps the turnaround buffer free before a booking", () => {
    const minutesBefore = (minutes: number) => ({
      startsAt: range.startsAt - minutes * MINUTE - 2 * HOUR,
      endsAt: range.startsAt - minutes * MINUTE,
    });
    expect(conflictsWith(minutesBefore(29), busy, 30)).toBe(true);
    expect(conflictsWith(minutesBefore(30), busy, 30)).toBe(false);
    expect(conflictsWith(slot("08:00", 2), busy, 30)).toBe(true);
  });

  it("puts no buffer around a blocked range", () => {
    const maintenance = [blocked("2026-06-10", "10:00", 2)];
    expect(conflictsWith(slot("08:00", 2), maintenance, 60)).toBe(false);
    expect(conflictsWith(slot("12:00", 2), maintenance, 60)).toBe(false);
    expect(conflictsWith(slot("11:00", 2), maintenance, 60)).toBe(true);
    expect(conflictsWith(slot("09:00", 2), maintenance, 60)).toBe(true);
  });

  it("checks every range in the list", () => {
    const several = [
      booking("2026-06-10", "06:00", 2),
      blocked("2026-06-10", "14:00", 3),
      booking("2026-06-10", "20:00", 2),
    ];
    expect(conflictsWith(slot("08:00", 6), several, 0)).toBe(false); // 08:00-14:00
    expect(conflictsWith(slot("16:00", 2), several, 0)).toBe(true); // blocked 14-17
    expect(conflictsWith(slot("17:00", 3), several, 0)).toBe(false); // 17:00-20:00
    expect(conflictsWith(slot("17:00", 4), several, 0)).toBe(true); // into 20:00
  });
});

describe("busyWindowFor", () => {
  it("spans the day from midnight to 08:00 the next morning", () => {
    expect(busyWindowFor("2026-06-10", 0)).toEqual({
      from: utc("2026-06-10T04:00:00Z"),
      to: utc("2026-06-11T12:00:00Z"),
    });
  });

  it("widens by the buffer on both sides", () => {
    expect(busyWindowFor("2026-06-10", 45)).toEqual({
      from: utc("2026-06-10T03:15:00Z"),
      to: utc("2026-06-11T12:45:00Z"),
    });
  });

  it("uses the studio's midnight on both clock-change days", () => {
    expect(busyWindowFor("2026-03-08", 0)).toEqual({
      from: utc("2026-03-08T05:00:00Z"), // 00:00 EST
      to: utc("2026-03-09T12:00:00Z"), // 08:00 EDT the next day
    });
    expect(busyWindowFor("2026-11-01", 0)).toEqual({
      from: utc("2026-11-01T04:00:00Z"), // 00:00 EDT
      to: utc("2026-11-02T13:00:00Z"), // 08:00 EST the next day
    });
  });

  it("includes a session that started the previous evening and runs past midnight", () => {
    const lateNight = booking("2026-06-09", "22:00", 4); // until 02:00 on the 10th
    const { from, to } = busyWindowFor("2026-06-10", 0);
    expect(lateNight.startsAt < to && lateNight.endsAt > from).toBe(true);
    // ...and that session does block the 10th's early starts.
    expect(reasons(optionsFor({ date: "2026-06-10", hours: 2, busy: [lateNight] }))["01:00"]).toBe(
      "taken",
    );
  });

  it("excludes a session that ended at the studio's midnight", () => {
    const evening = booking("2026-06-09", "20:00", 4); // until 00:00 on the 10th
    const { from } = busyWindowFor("2026-06-10", 0);
    expect(evening.endsAt).toBe(from);
  });

  it("holds every buffered session that may start on the day", () => {
    for (const date of ["2026-06-10", "2026-03-07", "2026-03-08", "2026-10-31", "2026-11-01"]) {
      for (const buffer of [0, 15, 60]) {
        const { from, to } = busyWindowFor(date, buffer);
        for (const time of START_TIMES) {
          for (const hours of HOUR_OPTIONS) {
            const { startsAt, endsAt } = studioSession(date, time, hours);
            expect(startsAt - buffer * MINUTE).toBeGreaterThanOrEqual(from);
            expect(endsAt + buffer * MINUTE).toBeLessThanOrEqual(to);
          }
        }
      }
    }
  });

  it("leaves out nothing that could conflict with a start of the day", () => {
    // A booking just outside the window, on either side, conflicts with no start of the day.
    const date = "2026-06-10";
    const buffer = 30;
    const { from, to } = busyWindowFor(date, buffer);
    const justBefore: BusyRange = { startsAt: from - 2 * HOUR, endsAt: from, kind: "booking" };
    const justAfter: BusyRange = { startsAt: to, endsAt: to + 2 * HOUR, kind: "booking" };
    for (const time of START_TIMES) {
      for (const hours of HOUR_OPTIONS) {
        const slot = studioSession(date, time, hours);
        expect(conflictsWith(slot, [justBefore, justAfter], buffer)).toBe(false);
      }
    }
  });
});

describe("startTimeOptions", () => {
  it("offers all 24 starts of a free day far enough ahead", () => {
    const options = optionsFor({ date: "2026-06-10", hours: 2 });
    expect(options.map((option) => option.time)).toEqual(START_TIMES);
    expect(options.every((option) => option.available && option.reason === null)).toBe(true);
  });

  it("marks starts that would overlap a booking as taken", () => {
    const options = optionsFor({
      date: "2026-06-10",
      hours: 2,
      busy: [booking("2026-06-10", "10:00", 2)],
    });
    expect(options.find((option) => option.time === "09:00")).toEqual({
      time: "09:00",
      available: false,
      reason: "taken",
    });
    expect(reasons(options)).toMatchObject({
      "07:00": null,
      "08:00": null,
      "09:00": "taken",
      "10:00": "taken",
      "11:00": "taken",
      "12:00": null,
    });
    expect(options.filter((option) => !option.available)).toHaveLength(3);
  });

  it("takes the duration into account", () => {
    const busy = [booking("2026-06-10", "10:00", 2)];
    const long = reasons(optionsFor({ date: "2026-06-10", hours: 5, busy }));
    expect(long["05:00"]).toBeNull(); // 05:00-10:00
    expect(long["06:00"]).toBe("taken");
    expect(long["12:00"]).toBeNull();
  });

  it("widens taken starts by the buffer around bookings", () => {
    const options = reasons(
      optionsFor({
        date: "2026-06-10",
        hours: 2,
        busy: [booking("2026-06-10", "10:00", 2)],
        bufferMinutes: 60,
      }),
    );
    expect(options).toMatchObject({
      "07:00": null,
      "08:00": "taken",
      "12:00": "taken",
      "13:00": null,
    });
  });

  it("does not widen blocked ranges by the buffer", () => {
    const options = reasons(
      optionsFor({
        date: "2026-06-10",
        hours: 2,
        busy: [blocked("2026-06-10", "10:00", 2)],
        bufferMinutes: 60,
      }),
    );
    expect(options).toMatchObject({
      "08:00": null,
      "09:00": "taken",
      "11:00": "taken",
      "12:00": null,
    });
  });

  it("marks starts inside 48 hours as too soon", () => {
    const now = studioInstant("2026-06-08", "09:30");
    const options = reasons(optionsFor({ date: "2026-06-10", hours: 2, now }));
    expect(options["00:00"]).toBe("too-soon");
    expect(options["09:00"]).toBe("too-soon");
    expect(options["10:00"]).toBeNull();
    expect(options["23:00"]).toBeNull();
    // The start exactly 48 hours ahead is allowed.
    const exactly = reasons(
      optionsFor({ date: "2026-06-10", hours: 2, now: studioInstant("2026-06-08", "10:00") }),
    );
    expect(exactly["10:00"]).toBeNull();
    expect(exactly["09:00"]).toBe("too-soon");
  });

  it("says too soon rather than taken when both apply", () => {
    const now = studioInstant("2026-06-08", "12:00");
    const options = reasons(
      optionsFor({ date: "2026-06-10", hours: 2, now, busy: [booking("2026-06-10", "10:00", 2)] }),
    );
    expect(options["11:00"]).toBe("too-soon");
    expect(options["12:00"]).toBeNull();
    expect(options["13:00"]).toBeNull();
  });

  it("marks 02:00 on the spring-forward day 2026-03-08 as skipped and nothing else", () => {
    const options = optionsFor({ date: "2026-03-08", hours: 2 });
    expect(options).toHaveLength(24);
    expect(reasons(options)["02:00"]).toBe("skipped");
    expect(options.filter((option) => !option.available).map((option) => option.time)).toEqual([
      "02:00",
    ]);
  });

  it("says skipped for 02:00 even when the day is also too soon or taken", () => {
    const now = studioInstant("2026-03-07", "00:00");
    expect(reasons(optionsFor({ date: "2026-03-08", hours: 2, now }))["02:00"]).toBe("skipped");
    const busy = [blocked("2026-03-08", "00:00", 12)];
    expect(reasons(optionsFor({ date: "2026-03-08", hours: 2, busy }))).toMatchObject({
      "01:00": "taken",
      "02:00": "skipped",
      "03:00": "taken",
    });
  });

  it("offers every hour once on the fall-back day 2026-11-01", () => {
    const options = optionsFor({ date: "2026-11-01", hours: 2 });
    expect(options.every((option) => option.available)).toBe(true);
    // 01:00 is its first (daylight) occurrence, 05:00Z; a booking in the second 01:00 (EST,
    // 06:00Z) is an hour later.
    const secondOneOClock: BusyRange = {
      startsAt: utc("2026-11-01T06:00:00Z"),
      endsAt: utc("2026-11-01T07:00:00Z"),
      kind: "booking",
    };
    const withBusy = reasons(optionsFor({ date: "2026-11-01", hours: 2, busy: [secondOneOClock] }));
    expect(withBusy["00:00"]).toBeNull(); // 04:00Z-06:00Z, touches
    expect(withBusy["01:00"]).toBe("taken"); // 05:00Z-07:00Z
    expect(withBusy["02:00"]).toBeNull(); // 07:00Z, 02:00 EST
  });

  it("lets a session that runs past midnight collide with next-day bookings", () => {
    const busy = [booking("2026-06-11", "01:00", 2)];
    const options = reasons(optionsFor({ date: "2026-06-10", hours: 4, busy }));
    expect(options["20:00"]).toBeNull(); // until 00:00
    expect(options["21:00"]).toBeNull(); // until 01:00, touches
    expect(options["22:00"]).toBe("taken"); // until 02:00
    expect(options["23:00"]).toBe("taken");
  });

  it("lets a next-day session be taken by a late session of the day before", () => {
    const busy = [booking("2026-06-10", "22:00", 8)]; // until 06:00 on the 11th
    const options = reasons(optionsFor({ date: "2026-06-11", hours: 2, busy }));
    expect(options["05:00"]).toBe("taken");
    expect(options["06:00"]).toBeNull();
  });
});

describe("startProblem", () => {
  const input = { hours: 2, busy: [] as BusyRange[], now: LONG_AGO, bufferMinutes: 0 };

  it("is null for a free, allowed start", () => {
    expect(startProblem({ ...input, date: "2026-06-10", time: "10:00" })).toBeNull();
  });

  it("agrees with startTimeOptions", () => {
    const busy = [booking("2026-06-10", "10:00", 2)];
    const now = studioInstant("2026-06-08", "05:00");
    const options = startTimeOptions({
      date: "2026-06-10",
      hours: 3,
      busy,
      now,
      bufferMinutes: 30,
    });
    for (const option of options) {
      expect(
        startProblem({
          date: "2026-06-10",
          time: option.time,
          hours: 3,
          busy,
          now,
          bufferMinutes: 30,
        }),
      ).toBe(option.reason);
    }
    expect(new Set(options.map((option) => option.reason))).toEqual(
      new Set(["too-soon", "taken", null]),
    );
  });

  it("refuses a skipped time, a too-soon time and a taken time", () => {
    expect(startProblem({ ...input, date: "2026-03-08", time: "02:00" })).toBe("skipped");
    expect(
      startProblem({
        ...input,
        date: "2026-06-10",
        time: "10:00",
        now: studioInstant("2026-06-09", "10:00"),
      }),
    ).toBe("too-soon");
    expect(
      startProblem({
        ...input,
        date: "2026-06-10",
        time: "10:00",
        busy: [booking("2026-06-10", "11:00", 2)],
      }),
    ).toBe("taken");
  });

  it("checks a time that is not on the hourly list too", () => {
    expect(startProblem({ ...input, date: "2026-03-08", time: "02:30" })).toBe("skipped");
    expect(
      startProblem({
        ...input,
        date: "2026-06-10",
        time: "09:30",
        busy: [booking("2026-06-10", "11:00", 2)],
      }),
    ).toBe("taken");
  });
});
