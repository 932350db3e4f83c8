import { describe, expect, it } from "vitest";
import { BOOKING_STATUSES, type BookingStatus } from "#app/domain/booking-status";
import {
  BULK_ACTIONS,
  bulkResultMessage,
  canChangeStatus,
  nextStep,
  parseStatus,
  rowActions,
  statusChangeProblem,
} from "#app/domain/admin-workflow";

/** The rule written out by hand, pair by pair, so the implementation is checked against a table. */
const ALLOWED: Record<BookingStatus, BookingStatus[]> = {
  PENDING_PAYMENT: [
    "PENDING",
    "CONFIRMED",
    "RECORDED",
    "POST_PRODUCTION",
    "COMPLETED",
    "CANCELLED",
  ],
  PENDING: ["CONFIRMED", "RECORDED", "POST_PRODUCTION", "COMPLETED", "CANCELLED"],
  CONFIRMED: ["RECORDED", "POST_PRODUCTION", "COMPLETED", "CANCELLED"],
  RECORDED: ["POST_PRODUCTION", "COMPLETED", "CANCELLED"],
  POST_PRODUCTION: ["COMPLETED", "CANCELLED"],
  COMPLETED: [],
  CANCELLED: [],
};

describe("statusChangeProblem", () => {
  for (const from of BOOKING_STATUSES) {
    for (const to of BOOKING_STATUSES) {
      const allowed = ALLOWED[from].includes(to);
      it(`${from} -> ${to} is ${allowed ? "allowed" : "refused"}`, () => {
        expect(canChangeStatus(from, to)).toBe(allowed);
        const problem = statusChangeProblem(from, to);
        if (allowed) expect(problem).toBeNull();
        else expect(problem).toMatch(/\S/);
      });
    }
  }

  it("says why, in words staff understand", () => {
    expect(statusChangeProblem("CONFIRMED", "CONFIRMED")).toBe(
      "This booking is already Confirmed.",
    );
    expect(statusChangeProblem("CANCELLED", "PENDING")).toBe(
      "A cancelled booking cannot change status.",
    );
    expect(statusChangeProblem("COMPLETED", "CANCELLED")).toBe(
      "A completed booking cannot change status.",
    );
    expect(statusChangeProblem("RECORDED", "PENDING")).toBe(
      "A booking cannot go back from Recorded to Pending Review.",
    );
  });
});

describe("row actions", () => {
  it("offers the next step of docs/product.md 'States and transitions' and cancelling", () => {
    expect(rowActions("PENDING_PAYMENT")).toEqual([
      { to: "PENDING", label: "Mark for Review" },
      { to: "CANCELLED", label: "Cancel Session" },
    ]);
    expect(rowActions("PENDING").map((a) => a.label)).toEqual([
      "Confirm Session",
      "Cancel Session",
    ]);
    expect(rowActions("CONFIRMED")[0]).toEqual({ to: "RECORDED", label: "Mark as Recorded" });
    expect(rowActions("RECORDED")[0]).toEqual({
      to: "POST_PRODUCTION",
      label: "Send to Post-Production",
    });
    expect(rowActions("POST_PRODUCTION")[0]).toEqual({
      to: "COMPLETED",
      label: "Mark as Completed",
    });
  });

  it("offers nothing once a booking is completed or cancelled", () => {
    expect(rowActions("COMPLETED")).toEqual([]);
    expect(rowActions("CANCELLED")).toEqual([]);
    expect(nextStep("COMPLETED")).toBeNull();
    expect(nextStep("CANCELLED")).toBeNull();
  });

  it("never offers a change the rule refuses", () => {
    for (const status of BOOKING_STATUSES) {
      for (const action of rowActions(status))
        expect(canChangeStatus(status, action.to)).toBe(true);
    }
  });
});

describe("bulk", () => {
  it("has the six actions of docs/product.md 'Screens', in order", () => {
    expect(BULK_ACTIONS.map((a) => a.label)).toEqual([
      "Set to Pending Review",
      "Confirm Sessions",
      "Mark as Recorded",
      "Send to Post-Production",
      "Mark as Completed",
      "Cancel Sessions",
    ]);
    expect(BULK_ACTIONS.map((a) => a.to)).toEqual([
      "PENDING",
      "CONFIRMED",
      "RECORDED",
      "POST_PRODUCTION",
      "COMPLETED",
      "CANCELLED",
    ]);
  });

  it("reports the result in the words of docs/product.md 'Messages'", () => {
    expect(bulkResultMessage(2, 3, "CONFIRMED")).toBe(
      'Successfully updated 2 of 3 bookings to "Confirmed"',
    );
  });
});

describe("parseStatus", () => {
  it("reads any case and trims", () => {
    expect(parseStatus("confirmed")).toBe("CONFIRMED");
    expect(parseStatus(" post_production ")).toBe("POST_PRODUCTION");
  });

  it("refuses anything else", () => {
    for (const value of ["", "DONE", "pending payment", null, undefined, 3, ["PENDING"], {}]) {
      expect(parseStatus(value)).toBeNull();
    }
  });
});
