import { describe, expect, it } from "vitest";
import {
  DESCRIPTION_LIMITS,
  RESOLUTION_MAX,
  SUPPORT_MESSAGES,
  SUPPORT_TRANSITIONS,
  SUPPORT_UPDATE_MESSAGES,
  supportReceivedMessage,
  supportRequestSchema,
  supportStatusParam,
  supportTransitionMessage,
  supportTransitionProblem,
  supportUpdateSchema,
} from "#app/domain/support";

const valid = {
  issueType: "EQUIPMENT",
  description: "The second microphone crackles whenever the guest moves.",
  preferredContactMethod: "EMAIL",
  name: "Ada Lovelace",
  email: "ada@example.com",
  phoneNumber: "404-555-0100",
};

const parse = (overrides: Record<string, unknown>) =>
  supportRequestSchema.safeParse({ ...valid, ...overrides });

const errorsOf = (overrides: Record<string, unknown>) =>
  Object.fromEntries(
    (parse(overrides).error?.issues ?? []).map((issue) => [issue.path.join("."), issue.message]),
  );

describe("supportRequestSchema", () => {
  it("accepts a complete request and trims what was typed", () => {
    const result = parse({ name: "  Ada Lovelace ", description: `  ${valid.description}  ` });
    expect(result.success).toBe(true);
    expect(result.data).toMatchObject({ name: "Ada Lovelace", description: valid.description });
    expect(result.data?.bookingId).toBeUndefined();
  });

  it("requires a description of sensible length", () => {
    const short = "x".repeat(DESCRIPTION_LIMITS.min - 1);
    expect(errorsOf({ description: short })).toEqual({
      description: SUPPORT_MESSAGES.descriptionShort,
    });
    // Spaces around a short text do not make it long enough.
    expect(errorsOf({ description: `   ${short}     ` })).toEqual({
      description: SUPPORT_MESSAGES.descriptionShort,
    });
    expect(errorsOf({ description: undefined })).toEqual({
      description: SUPPORT_MESSAGES.descriptionShort,
    });
    expect(parse({ description: "x".repeat(DESCRIPTION_LIMITS.max) }).success).toBe(true);
    expect(errorsOf({ description: "x".repeat(DESCRIPTION_LIMITS.max + 1) })).toEqual({
      description: SUPPORT_MESSAGES.descriptionLong,
    });
  });

  it.each([
    ["issueType", "FIRE", SUPPORT_MESSAGES.issueType],
    ["issueType", "equipment", SUPPORT_MESSAGES.issueType],
    ["issueType", undefined, SUPPORT_MESSAGES.issueType],
    ["preferredContactMethod", "FAX", SUPPORT_MESSAGES.contactMethod],
    ["name", "   ", SUPPORT_MESSAGES.name],
    ["email", "ada@", "Please enter a valid email address"],
    ["phoneNumber", "555", "Please enter a valid phone number"],
  ])("rejects %s %o with %o", (field, value, message) => {
    expect(errorsOf({ [field]: value })).toEqual({ [field]: message });
  });

  it("needs a phone number only when the customer wants a call", () => {
    for (const phoneNumber of [undefined, "", "  ", null]) {
      expect(parse({ phoneNumber, preferredContactMethod: "EMAIL" }).success).toBe(true);
      expect(errorsOf({ phoneNumber, preferredContactMethod: "PHONE" })).toEqual({
        phoneNumber: SUPPORT_MESSAGES.phoneForCall,
      });
    }
    expect(parse({ preferredContactMethod: "PHONE" }).success).toBe(true);
  });

  it.each([
    ["12", 12],
    [12, 12],
    [" 7 ", 7],
    ["", undefined],
    [null, undefined],
    [undefined, undefined],
  ])("reads the booking %o as %o", (bookingId, expected) => {
    const result = parse({ bookingId });
    expect(result.success).toBe(true);
    expect(result.data?.bookingId).toBe(expected);
  });

  it.each(["0", "-1", "1.5", "0x10", "1e3", "abc", "9".repeat(16), 0, -3, 2.5, true, [1]])(
    "refuses the booking id %o",
    (bookingId) => {
      expect(errorsOf({ bookingId })).toEqual({ bookingId: SUPPORT_MESSAGES.booking });
    },
  );

  it("drops fields it does not know (status, userId, resolution)", () => {
    const result = parse({ status: "RESOLVED", userId: 1, resolution: "done" });
    expect(result.success).toBe(true);
    expect(result.data).not.toHaveProperty("status");
    expect(result.data).not.toHaveProperty("userId");
    expect(result.data).not.toHaveProperty("resolution");
  });
});

describe("supportReceivedMessage", () => {
  it("promises the channel the customer chose", () => {
    expect(supportReceivedMessage("EMAIL")).toBe(
      "We have received your request and will contact you by e-mail.",
    );
    expect(supportReceivedMessage("PHONE")).toBe(
      "We have received your request and will contact you by phone.",
    );
  });
});

describe("supportTransitionProblem", () => {
  const STATUSES = ["PENDING", "IN_PROGRESS", "RESOLVED", "CANCELLED"] as const;
  const ALLOWED = new Set([
    "PENDING>IN_PROGRESS",
    "PENDING>CANCELLED",
    "IN_PROGRESS>RESOLVED",
    "IN_PROGRESS>CANCELLED",
  ]);

  it("allows exactly the moves of docs/product.md 'Technical assistance statuses', and none out of RESOLVED or CANCELLED", () => {
    for (const from of STATUSES) {
      for (const to of STATUSES) {
        const problem = supportTransitionProblem(from, to, "Replaced the cable.");
        expect(problem, `${from} -> ${to}`).toBe(
          ALLOWED.has(`${from}>${to}`) ? null : "not-allowed",
        );
        expect(SUPPORT_TRANSITIONS[from].includes(to)).toBe(ALLOWED.has(`${from}>${to}`));
      }
    }
  });

  it("needs resolution details to resolve, and nothing else does", () => {
    for (const resolution of [undefined, null, "", "   \n "]) {
      expect(supportTransitionProblem("IN_PROGRESS", "RESOLVED", resolution)).toBe(
        "resolution-required",
      );
      expect(supportTransitionProblem("PENDING", "IN_PROGRESS", resolution)).toBeNull();
      expect(supportTransitionProblem("IN_PROGRESS", "CANCELLED", resolution)).toBeNull();
    }
    // Skipping a step is refused before the resolution is looked at.
    expect(supportTransitionProblem("PENDING", "RESOLVED", "Fixed")).toBe("not-allowed");
  });

  it("explains a refused move", () => {
    expect(supportTransitionMessage(7, "IN_PROGRESS", "IN_PROGRESS")).toBe(
      "Request #7 is In Progress: it cannot move to In Progress.",
    );
    expect(supportTransitionMessage(7, "RESOLVED", "CANCELLED")).toBe(
      "Request #7 is already Resolved: it cannot be changed any more.",
    );
  });
});

describe("supportUpdateSchema", () => {
  it("keeps a trimmed resolution only for RESOLVED", () => {
    expect(
      supportUpdateSchema.parse({ status: "RESOLVED", resolution: "  Replaced the cable. " }),
    ).toEqual({ status: "RESOLVED", resolution: "Replaced the cable." });
    expect(supportUpdateSchema.parse({ status: "CANCELLED", resolution: "ignored" })).toEqual({
      status: "CANCELLED",
      resolution: null,
    });
    expect(supportUpdateSchema.parse({ status: "IN_PROGRESS" })).toEqual({
      status: "IN_PROGRESS",
      resolution: null,
    });
  });

  it.each([
    [{ status: "RESOLVED" }, "resolution", SUPPORT_UPDATE_MESSAGES.resolutionRequired],
    [
      { status: "RESOLVED", resolution: "   " },
      "resolution",
      SUPPORT_UPDATE_MESSAGES.resolutionRequired,
    ],
    [
      { status: "RESOLVED", resolution: null },
      "resolution",
      SUPPORT_UPDATE_MESSAGES.resolutionRequired,
    ],
    [
      { status: "RESOLVED", resolution: "x".repeat(RESOLUTION_MAX + 1) },
      "resolution",
      SUPPORT_UPDATE_MESSAGES.resolutionLong,
    ],
    [{ status: "resolved", resolution: "Fixed" }, "status", SUPPORT_UPDATE_MESSAGES.status],
    [{ status: "DONE" }, "status", SUPPORT_UPDATE_MESSAGES.status],
    [{}, "status", SUPPORT_UPDATE_MESSAGES.status],
    [
      { status: "RESOLVED", resolution: 42 },
      "resolution",
      SUPPORT_UPDATE_MESSAGES.resolutionRequired,
    ],
  ])("refuses %o on %s", (body, field, message) => {
    const result = supportUpdateSchema.safeParse(body);
    expect(result.success).toBe(false);
    expect(result.error?.issues[0]?.path.join(".")).toBe(field);
    expect(result.error?.issues[0]?.message).toBe(message);
  });
});

describe("supportStatusParam", () => {
  it("reads a status, and anything else as every request", () => {
    expect(supportStatusParam("IN_PROGRESS")).toBe("IN_PROGRESS");
    expect(supportStatusParam("in_progress")).toBeNull();
    expect(supportStatusParam("")).toBeNull();
    expect(supportStatusParam(null)).toBeNull();
    expect(supportStatusParam("__proto__")).toBeNull();
  });
});
