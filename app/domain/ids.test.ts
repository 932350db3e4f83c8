import { describe, expect, it } from "vitest";
import { parseId } from "#app/domain/ids";

describe("parseId", () => {
  it("reads positive decimal ids", () => {
    expect(parseId("1")).toBe(1);
    expect(parseId("000042")).toBe(42);
    expect(parseId("999999999999999")).toBe(999_999_999_999_999);
  });

  it("refuses what Number() would turn into another id", () => {
    for (const param of ["0x10", "1e1", " 1", "1 ", "+1", "-1", "1.0", "0", "", "abc", undefined]) {
      expect(parseId(param)).toBeNull();
    }
    expect(parseId("1234567890123456")).toBeNull();
  });
});
