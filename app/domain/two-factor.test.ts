import { describe, expect, it } from "vitest";
import {
  codeIsChecked,
  isIdleTooLong,
  lastSeenIsStale,
  looksLikeTotp,
  normalizeCode,
  totpStep,
  wrongCodeAlert,
} from "#app/domain/two-factor";

describe("staff idle expiry", () => {
  const minute = 60_000;
  it("ends a sign-in exactly when the idle minutes have passed, not a millisecond before", () => {
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

describe("the freeze after wrong codes in a row", () => {
  it("checks the app's codes up to the limit, a recovery code always", () => {
    expect(codeIsChecked(20, 20, "123456")).toBe(true);
    expect(codeIsChecked(21, 20, "123 456")).toBe(false);
    expect(codeIsChecked(21, 20, "abcde-12345")).toBe(true);
    expect(codeIsChecked(500, 20, "abcde-12345")).toBe(true);
  });

  it("alerts the owner on the first wrong code of a run and on the one that freezes", () => {
    expect([1, 2, 19, 20, 21, 40].map((n) => wrongCodeAlert(n, 20))).toEqual([
      "wrong-code",
      null,
      null,
      "frozen",
      null,
      null,
    ]);
    // A limit of one: the first wrong code freezes, and says so once.
    expect(wrongCodeAlert(1, 1)).toBe("frozen");
  });
});
