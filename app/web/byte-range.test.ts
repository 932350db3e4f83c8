import { describe, expect, it } from "vitest";
import { parseRange, rangeStillValid } from "#app/web/byte-range";

describe("parseRange", () => {
  const size = 1000;
  it.each([
    [null, { kind: "whole" }],
    ["", { kind: "whole" }],
    ["bytes=0-499", { kind: "partial", range: { start: 0, end: 499 } }],
    ["bytes=500-", { kind: "partial", range: { start: 500, end: 999 } }],
    ["bytes=999-", { kind: "partial", range: { start: 999, end: 999 } }],
    ["bytes=900-5000", { kind: "partial", range: { start: 900, end: 999 } }],
    ["bytes=-100", { kind: "partial", range: { start: 900, end: 999 } }],
    ["bytes=-5000", { kind: "partial", range: { start: 0, end: 999 } }],
    ["BYTES=1-1", { kind: "partial", range: { start: 1, end: 1 } }],
    ["bytes=1000-", { kind: "unsatisfiable" }],
    ["bytes=1000-1001", { kind: "unsatisfiable" }],
    ["bytes=-0", { kind: "unsatisfiable" }],
    ["bytes=5-4", { kind: "whole" }],
    ["bytes=-", { kind: "whole" }],
    ["bytes=0-1,5-6", { kind: "whole" }],
    ["items=0-1", { kind: "whole" }],
    ["bytes=a-b", { kind: "whole" }],
    ["bytes= 0-1", { kind: "whole" }],
  ])("%j", (header, answer) => {
    expect(parseRange(header, size)).toEqual(answer);
  });

  it("an empty file has no byte to give", () => {
    expect(parseRange("bytes=0-", 0)).toEqual({ kind: "unsatisfiable" });
    expect(parseRange("bytes=-1", 0)).toEqual({ kind: "unsatisfiable" });
  });

  it("a start past any safe number is unsatisfiable, not a crash", () => {
    expect(parseRange("bytes=99999999999999999999-", size)).toEqual({ kind: "unsatisfiable" });
  });
});

describe("rangeStillValid", () => {
  const current = { etag: '"f1-1000"', lastModified: "Fri, 27 Nov 2026 22:00:00 GMT" };
  it("honours a Range without If-Range, or with the current validator", () => {
    expect(rangeStillValid(null, current)).toBe(true);
    expect(rangeStillValid('"f1-1000"', current)).toBe(true);
    expect(rangeStillValid("Fri, 27 Nov 2026 22:00:00 GMT", current)).toBe(true);
  });

  it("sends the whole file when the validator is another version's or weak", () => {
    expect(rangeStillValid('"f1-999"', current)).toBe(false);
    expect(rangeStillValid('W/"f1-1000"', current)).toBe(false);
    expect(rangeStillValid("Thu, 26 Nov 2026 22:00:00 GMT", current)).toBe(false);
  });
});
