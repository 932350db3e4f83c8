import { describe, expect, it } from "vitest";
import {
  isIdleTooLong,
  lastSeenIsStale,
  looksLikeTotp,
  normalizeCode,
  totpStep,
} from "#app/domain/two-factor";

describe("staff idle expiry", () => {
  const minute = 60_000;
  it("ends a session exactly when the idle minutes have passed, not a millisecond before", () => {
    expect(isIdleTooLong(0, 60 * minute - 1, 60)).toBe(false);
    expect(isIdleTooLong(0, 60 * minute, 60)).toBe(true);
    expect(isIdleTooLong(0, 61 * minute, 60)).toBe(true);
    expect(isIdleTooLong(1_000, 1_000 + 15 * minute - 1, 15)).toBe(false);
  });

  it("writes the last-seen time at most once a minute", () => {
    expect(lastSeenIsStale(0, minute - 1)).toBe(false);
    expect(lastSeenIsStale(0, minute)).toBe(true);
  });
});

describe("codes as typed", () => {
  it("drops spaces and dashes and ignores case", () => {
    expect(normalizeCode(" ABCDE-fghij ")).toBe("abcdefghij");
    expect(looksLikeTotp("123 456")).toBe(true);
    expect(looksLikeTotp("12345")).toBe(false);
    expect(looksLikeTotp("abcde-12345")).toBe(false);
  });

  it("puts a moment in its 30-second step", () => {
    expect(totpStep(0)).toBe(0);
    expect(totpStep(29_999)).toBe(0);
    expect(totpStep(30_000)).toBe(1);
  });
});
