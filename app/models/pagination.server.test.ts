import { describe, expect, it } from "vitest";
import { MAX_PAGE, pageWindow, readPage, toPage } from "#app/models/pagination.server";

const at = (query: string) => new URL(`http://studio.test/admin/bookings${query}`);

describe("readPage", () => {
  it("reads whole page numbers", () => {
    expect(readPage(at(""))).toBe(1);
    expect(readPage(at("?page=3"))).toBe(3);
    expect(readPage(at(`?page=${MAX_PAGE}`))).toBe(MAX_PAGE);
  });

  it("reads anything else as the first page", () => {
    for (const bad of ["0", "-1", "1.5", "abc", "", "1e3", `${MAX_PAGE + 1}`, "9999999999"]) {
      expect(readPage(at(`?page=${encodeURIComponent(bad)}`))).toBe(1);
    }
  });
});

describe("pages", () => {
  it("fetches one row more than it shows and says whether a next page exists", () => {
    expect(pageWindow(1, 10)).toEqual({ limit: 11, offset: 0 });
    expect(pageWindow(3, 10)).toEqual({ limit: 11, offset: 20 });
    const rows = Array.from({ length: 11 }, (_, i) => i);
    expect(toPage(rows, 2, 10)).toEqual({
      rows: rows.slice(0, 10),
      page: 2,
      hasNext: true,
      size: 10,
    });
    expect(toPage(rows.slice(0, 10), 2, 10).hasNext).toBe(false);
    expect(toPage([], 1, 10)).toEqual({ rows: [], page: 1, hasNext: false, size: 10 });
  });
});
