import { parseWithZod } from "@conform-to/zod/v4";
import { describe, expect, it } from "vitest";
import { ADVANCE_NOTICE_MESSAGE } from "#app/domain/availability";
import {
  BOOKING_MESSAGES,
  bookingFormSchema,
  bookingPayloadSchema,
  quoteQuerySchema,
} from "#app/domain/booking-form";
import { studioInstant } from "#app/domain/studio-time";

/** Mon 2026-06-01 12:00 in Atlanta (16:00Z): the earliest allowed start is Wed 12:00. */
const NOW = studioInstant("2026-06-01", "12:00");

const valid = {
  firstName: "Ada",
  lastName: "Lovelace",
  businessName: "Analytical Pods",
  phoneNumber: "(404) 555-0100",
  email: "ada@example.com",
  stakeholder: "no",
  recordingDate: "2026-06-10",
  recordingTime: "10:00",
  guestCount: "2",
  hoursNeeded: "3",
};

type Fields = Record<string, string | readonly string[] | undefined>;

/** A posted form: a list value is a checkbox group, undefined leaves the field out. */
const form = (fields: Fields) => {
  const data = new FormData();
  for (const [name, value] of Object.entries(fields)) {
    if (value === undefined) continue;
    for (const item of typeof value === "string" ? [value] : value) data.append(name, item);
  }
  return data;
};

const post = (fields: Fields, now = NOW) =>
  parseWithZod(form({ ...valid, ...fields }), { schema: bookingFormSchema(now) });

/** The field errors of a submission, {} when it succeeded. */
const errorsOfSubmission = (submission: ReturnType<typeof post>) =>
  submission.status === "success" ? {} : (submission.error ?? {});

const errorsOf = (fields: Fields, now = NOW) => errorsOfSubmission(post(fields, now));

const parsed = (fields: Fields, now = NOW) => {
  const submission = post(fields, now);
  if (submission.status !== "success") {
    throw new Error(`expected success, got ${JSON.stringify(errorsOfSubmission(submission))}`);
  }
  return submission.value;
};

describe("bookingFormSchema (posted form)", () => {
  it("parses a complete booking", () => {
    expect(parsed({})).toEqual({
      firstName: "Ada",
      lastName: "Lovelace",
      businessName: "Analytical Pods",
      phoneNumber: "(404) 555-0100",
      email: "ada@example.com",
      stakeholder: "no",
      recordingDate: "2026-06-10",
      recordingTime: "10:00",
      guestCount: 2,
      hoursNeeded: 3,
      isRetainer: false,
      selectedServices: [],
    });
  });

  it("trims text and drops an empty business name and coupon code", () => {
    const value = parsed({
      firstName: "  Ada ",
      email: " ada@example.com ",
      businessName: "   ",
      couponCode: "",
    });
    expect(value.firstName).toBe("Ada");
    expect(value.email).toBe("ada@example.com");
    expect(value.businessName).toBeUndefined();
    expect(value.couponCode).toBeUndefined();
  });

  it("keeps an applied coupon code, trimmed", () => {
    expect(parsed({ couponCode: "  save10 " }).couponCode).toBe("save10");
  });

  it("gives the message of docs/product.md 'Validation' for every required field left empty", () => {
    const empty = Object.fromEntries(Object.keys(valid).map((name) => [name, ""]));
    expect(errorsOf(empty)).toEqual({
      firstName: ["First name is required"],
      lastName: ["Last name is required"],
      phoneNumber: ["Please enter a valid phone number"],
      email: ["Please enter a valid email address"],
      stakeholder: [BOOKING_MESSAGES.stakeholder],
      recordingDate: [BOOKING_MESSAGES.date],
      recordingTime: ["Please select a time"],
      guestCount: ["Please select number of guests"],
      hoursNeeded: ["Please select duration"],
    });
  });

  it("gives the same messages when the fields are missing from the post", () => {
    const submission = parseWithZod(form({}), { schema: bookingFormSchema(NOW) });
    expect(submission.status).toBe("error");
    expect(errorsOfSubmission(submission)).toMatchObject({
      firstName: ["First name is required"],
      lastName: ["Last name is required"],
      phoneNumber: ["Please enter a valid phone number"],
      email: ["Please enter a valid email address"],
      recordingTime: ["Please select a time"],
      guestCount: ["Please select number of guests"],
      hoursNeeded: ["Please select duration"],
    });
  });

  it.each([
    ["firstName", "   ", "First name is required"],
    ["lastName", " ", "Last name is required"],
    ["phoneNumber", "555-0100", "Please enter a valid phone number"],
    ["phoneNumber", "404555010", "Please enter a valid phone number"],
    ["phoneNumber", "call me maybe", "Please enter a valid phone number"],
    ["email", "ada@", "Please enter a valid email address"],
    ["email", "ada.example.com", "Please enter a valid email address"],
    ["stakeholder", "maybe", BOOKING_MESSAGES.stakeholder],
    ["recordingDate", "2026-6-10", BOOKING_MESSAGES.date],
    ["recordingDate", "2026-02-30", BOOKING_MESSAGES.date],
    ["recordingDate", "10/06/2026", BOOKING_MESSAGES.date],
    ["recordingTime", "25:00", "Please select a time"],
    ["recordingTime", "10:30", "Please select a time"],
    ["recordingTime", "10", "Please select a time"],
  ])("refuses %s %o with %o, on that field only", (field, value, message) => {
    expect(errorsOf({ [field]: value })).toEqual({ [field]: [message] });
  });

  it("accepts a 10-character phone number and the stakeholder answer yes", () => {
    expect(parsed({ phoneNumber: "4045550100" }).phoneNumber).toBe("4045550100");
    expect(parsed({ stakeholder: "yes" }).stakeholder).toBe("yes");
  });

  describe("48-hour rule", () => {
    it("accepts a start exactly 48 hours ahead", () => {
      expect(parsed({ recordingDate: "2026-06-03", recordingTime: "12:00" }).recordingTime).toBe(
        "12:00",
      );
    });

    it("refuses a start 1 ms short of 48 hours, on recordingDate", () => {
      expect(errorsOf({ recordingDate: "2026-06-03", recordingTime: "12:00" }, NOW + 1)).toEqual({
        recordingDate: ["Booking must be at least 48 hours in advance"],
      });
      expect(ADVANCE_NOTICE_MESSAGE).toBe("Booking must be at least 48 hours in advance");
    });

    it("reads a clock at each check when built with one, for a form's schema kept for the page's life", () => {
      let clock = NOW;
      const kept = bookingFormSchema(() => clock);
      const start = form({ ...valid, recordingDate: "2026-06-03", recordingTime: "12:00" });
      expect(parseWithZod(start, { schema: kept }).status).toBe("success");
      clock = NOW + 1;
      expect(errorsOfSubmission(parseWithZod(start, { schema: kept }))).toEqual({
        recordingDate: ["Booking must be at least 48 hours in advance"],
      });
    });

    it("refuses earlier starts, today and past days", () => {
      for (const [recordingDate, recordingTime] of [
        ["2026-06-03", "11:00"],
        ["2026-06-02", "23:00"],
        ["2026-06-01", "13:00"],
        ["2025-06-10", "10:00"],
      ]) {
        expect(errorsOf({ recordingDate, recordingTime })).toEqual({
          recordingDate: [ADVANCE_NOTICE_MESSAGE],
        });
      }
    });

    it("reads the start in studio time whatever the process zone", () => {
      // 2026-06-01 00:30Z is still 31 May, 20:30, in Atlanta: 48 h later is 2 June 20:30.
      const now = Date.UTC(2026, 5, 1, 0, 30);
      expect(post({ recordingDate: "2026-06-02", recordingTime: "21:00" }, now).status).toBe(
        "success",
      );
      expect(errorsOf({ recordingDate: "2026-06-02", recordingTime: "20:00" }, now)).toEqual({
        recordingDate: [ADVANCE_NOTICE_MESSAGE],
      });
    });

    it("reports the rule alongside another field's error", () => {
      expect(errorsOf({ phoneNumber: "555-0100", recordingDate: "2026-06-02" })).toEqual({
        phoneNumber: ["Please enter a valid phone number"],
        recordingDate: [ADVANCE_NOTICE_MESSAGE],
      });
    });

    it("is not judged while the date or time is itself invalid", () => {
      // No RangeError from studioInstant, only the field's own message.
      expect(errorsOf({ recordingDate: "2026-02-30", recordingTime: "10:00" })).toEqual({
        recordingDate: [BOOKING_MESSAGES.date],
      });
      expect(errorsOf({ recordingDate: "2026-06-02", recordingTime: "24:00" })).toEqual({
        recordingTime: ["Please select a time"],
      });
    });
  });

  describe("the spring-forward hour", () => {
    const before = studioInstant("2026-03-01", "12:00");

    it("refuses 02:00 on 2026-03-08 with the skippedTime message", () => {
      expect(errorsOf({ recordingDate: "2026-03-08", recordingTime: "02:00" }, before)).toEqual({
        recordingTime: [BOOKING_MESSAGES.skippedTime],
      });
    });

    it("says skippedTime rather than the 48-hour rule when both would apply", () => {
      const late = studioInstant("2026-03-08", "12:00");
      expect(errorsOf({ recordingDate: "2026-03-08", recordingTime: "02:00" }, late)).toEqual({
        recordingTime: [BOOKING_MESSAGES.skippedTime],
      });
    });

    it("accepts the hours either side of it and 02:00 on other days", () => {
      for (const recordingTime of ["01:00", "03:00"]) {
        expect(post({ recordingDate: "2026-03-08", recordingTime }, before).status).toBe("success");
      }
      expect(post({ recordingDate: "2026-03-07", recordingTime: "02:00" }, before).status).toBe(
        "success",
      );
      // 01:00 on the fall-back day happens twice but exists.
      expect(post({ recordingDate: "2026-11-01", recordingTime: "01:00" }).status).toBe("success");
    });
  });

  describe("guests and hours", () => {
    it.each(["1", "2", "3", "4"])("accepts %s guests", (guestCount) => {
      expect(parsed({ guestCount }).guestCount).toBe(Number(guestCount));
    });

    it.each(["0", "5", "-1", "2.5", "two", "1e1", " "])("refuses %o guests", (guestCount) => {
      expect(errorsOf({ guestCount })).toEqual({ guestCount: ["Please select number of guests"] });
    });

    it.each(["2", "3", "4", "5", "6", "7", "8"])("accepts %s hours", (hoursNeeded) => {
      expect(parsed({ hoursNeeded }).hoursNeeded).toBe(Number(hoursNeeded));
    });

    it.each(["0", "1", "9", "24", "2.5", "eight"])("refuses %o hours", (hoursNeeded) => {
      expect(errorsOf({ hoursNeeded })).toEqual({ hoursNeeded: ["Please select duration"] });
    });
  });

  describe("selectedServices", () => {
    it("is empty when no box is ticked", () => {
      expect(parsed({}).selectedServices).toEqual([]);
      expect(parsed({ selectedServices: "" }).selectedServices).toEqual([]);
    });

    it("reads one ticked box", () => {
      expect(parsed({ selectedServices: "3" }).selectedServices).toEqual([3]);
    });

    it("reads several ticked boxes, each once", () => {
      expect(parsed({ selectedServices: ["3", "5", "12"] }).selectedServices).toEqual([3, 5, 12]);
      expect(parsed({ selectedServices: ["3", "5", "3"] }).selectedServices).toEqual([3, 5]);
    });

    it.each([["abc"], ["0"], ["-2"], ["1.5"]])("refuses the service id %o", (id) => {
      expect(Object.keys(errorsOf({ selectedServices: [id] }))).toEqual([
        expect.stringMatching(/^selectedServices/),
      ]);
    });
  });

  describe("isRetainer", () => {
    it("is true when the checkbox is posted as 'on'", () => {
      expect(parsed({ isRetainer: "on" }).isRetainer).toBe(true);
    });

    it("is false when the checkbox is not posted", () => {
      expect(parsed({ isRetainer: undefined }).isRetainer).toBe(false);
    });

    it("is false for anything but on/true", () => {
      expect(parsed({ isRetainer: "off" }).isRetainer).toBe(false);
      expect(parsed({ isRetainer: "true" }).isRetainer).toBe(true);
    });
  });
});

describe("bookingPayloadSchema (JSON)", () => {
  const payload = {
    ...valid,
    guestCount: 2,
    hoursNeeded: 3,
    userId: 42,
    selectedServices: [1, 2],
    isRetainer: false,
  };

  it("accepts numbers for guestCount, hoursNeeded and the service ids", () => {
    const result = bookingPayloadSchema(NOW).safeParse(payload);
    expect(result.success).toBe(true);
    expect(result.data).toMatchObject({
      guestCount: 2,
      hoursNeeded: 3,
      userId: 42,
      selectedServices: [1, 2],
      isRetainer: false,
    });
  });

  it("also accepts the text values of docs/product.md 'Data' for guestCount and hoursNeeded", () => {
    const result = bookingPayloadSchema(NOW).safeParse({
      ...payload,
      guestCount: "4",
      hoursNeeded: "8",
      isRetainer: true,
    });
    expect(result.data).toMatchObject({ guestCount: 4, hoursNeeded: 8, isRetainer: true });
  });

  it("ignores the client's price figures and retainer dates", () => {
    const result = bookingPayloadSchema(NOW).safeParse({
      ...payload,
      totalCost: 1,
      originalCost: 2,
      discountAmount: 3,
      servicesCost: 4,
      retainerStartDate: "2026-06-10",
      retainerEndDate: "2026-07-10",
    });
    expect(result.success).toBe(true);
    for (const key of [
      "totalCost",
      "originalCost",
      "discountAmount",
      "servicesCost",
      "retainerStartDate",
      "retainerEndDate",
    ]) {
      expect(result.data).not.toHaveProperty(key);
    }
  });

  it("does without userId, services and the retainer flag", () => {
    const { userId: _u, selectedServices: _s, isRetainer: _r, ...minimal } = payload;
    const result = bookingPayloadSchema(NOW).safeParse(minimal);
    expect(result.data).toMatchObject({ selectedServices: [], isRetainer: false });
    expect(result.data?.userId).toBeUndefined();
  });

  it.each([
    ["guestCount", 0, BOOKING_MESSAGES.guests],
    ["guestCount", 5, BOOKING_MESSAGES.guests],
    ["guestCount", 1.5, BOOKING_MESSAGES.guests],
    ["hoursNeeded", 1, BOOKING_MESSAGES.hours],
    ["hoursNeeded", 9, BOOKING_MESSAGES.hours],
    ["hoursNeeded", null, BOOKING_MESSAGES.hours],
    ["recordingTime", "9:00", BOOKING_MESSAGES.time],
    ["email", "not-an-email", "Please enter a valid email address"],
  ])("refuses %s %o with %o", (field, value, message) => {
    const result = bookingPayloadSchema(NOW).safeParse({ ...payload, [field]: value });
    expect(result.error?.issues).toEqual([expect.objectContaining({ path: [field], message })]);
  });

  it("applies the 48-hour rule and the spring-forward hour", () => {
    const tooSoon = bookingPayloadSchema(NOW).safeParse({
      ...payload,
      recordingDate: "2026-06-02",
    });
    expect(tooSoon.error?.issues).toEqual([
      expect.objectContaining({ path: ["recordingDate"], message: ADVANCE_NOTICE_MESSAGE }),
    ]);
    const skipped = bookingPayloadSchema(studioInstant("2026-03-01", "12:00")).safeParse({
      ...payload,
      recordingDate: "2026-03-08",
      recordingTime: "02:00",
    });
    expect(skipped.error?.issues).toEqual([
      expect.objectContaining({ path: ["recordingTime"], message: BOOKING_MESSAGES.skippedTime }),
    ]);
  });

  it("returns issues instead of throwing for an impossible date or time", () => {
    expect(() =>
      bookingPayloadSchema(NOW).safeParse({ ...payload, recordingDate: "2026-13-01" }),
    ).not.toThrow();
    expect(
      bookingPayloadSchema(NOW).safeParse({ ...payload, recordingTime: "99:99" }).error?.issues,
    ).toEqual([
      expect.objectContaining({ path: ["recordingTime"], message: BOOKING_MESSAGES.time }),
    ]);
  });
});

describe("quoteQuerySchema", () => {
  it("reads a date and a duration", () => {
    expect(quoteQuerySchema.safeParse({ date: "2026-06-10", hours: "4" }).data).toEqual({
      date: "2026-06-10",
      hours: 4,
    });
  });

  it("refuses an impossible date and a duration out of range", () => {
    expect(quoteQuerySchema.safeParse({ date: "2026-02-29", hours: "4" }).success).toBe(false);
    expect(quoteQuerySchema.safeParse({ date: "2026-06-10", hours: "9" }).success).toBe(false);
  });
});
