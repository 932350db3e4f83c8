import { describe, expect, it } from "vitest";
import {
  LIMIT_MESSAGE,
  MAX_LIMIT,
  MAX_PAGE,
  PAGE_SIZE,
  pageWindow,
  readListRequest,
  readPage,
  toPage,
} from "#app/models/pagination.server";

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

describe("readListRequest", () => {
  const read = (query: string, size?: number) =>
    readListRequest(new URL(`http://studio.test/api/admin/coupons${query}`), size);

  it("asks for the whole list with neither page nor limit", () => {
    expect(read("")).toEqual({ kind: "whole" });
    expect(read("?status=PENDING&membership=all")).toEqual({ kind: "whole" });
  });

  it("pages with either, `limit` rows (the list's size by default)", () => {
    expect(read("?page=3")).toEqual({ kind: "page", page: 3, size: PAGE_SIZE });
    expect(read("?page=2", 100)).toEqual({ kind: "page", page: 2, size: 100 });
    expect(read("?limit=1")).toEqual({ kind: "page", page: 1, size: 1 });
    expect(read(`?page=4&limit=${MAX_LIMIT}`)).toEqual({ kind: "page", page: 4, size: 500 });
  });

  it.each([
    "?limit=501",
    "?limit=0",
    "?limit=",
    "?limit=-1",
    "?limit=1.5",
    "?limit=abc",
    "?page=2&limit=9999999",
  ])("refuses %s", (query) => {
    expect(read(query)).toEqual({ kind: "refused", message: LIMIT_MESSAGE });
  });
});
