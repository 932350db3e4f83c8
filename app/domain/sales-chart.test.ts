import { describe, expect, it } from "vitest";
import { chartBuckets, chartUnit } from "#app/domain/sales-chart";

const utc = (iso: string) => Date.parse(iso);

describe("revenue chart buckets", () => {
  it("picks days, weeks, months or years by the period's length", () => {
    expect(chartUnit("2026-11-01", "2026-12-01")).toBe("day");
    expect(chartUnit("2026-01-01", "2026-04-01")).toBe("week");
    expect(chartUnit("2026-01-01", "2027-01-01")).toBe("month");
    expect(chartUnit("2020-01-01", "2026-01-01")).toBe("year");
  });

  it("cuts bars at studio midnights, DST days included", () => {
    const { unit, buckets } = chartBuckets("2026-03-07", "2026-03-10");
    expect(unit).toBe("day");
    expect(buckets.map((b) => [b.start, b.end])).toEqual([
      [utc("2026-03-07T05:00:00Z"), utc("2026-03-08T05:00:00Z")],
      [utc("2026-03-08T05:00:00Z"), utc("2026-03-09T04:00:00Z")],
      [utc("2026-03-09T04:00:00Z"), utc("2026-03-10T04:00:00Z")],
    ]);
    expect(buckets[1]?.label).toBe("Mar 8");
    expect(buckets[1]?.longLabel).toBe("March 8, 2026");
  });

  it("clips the first and last week to the period, weeks from Sunday", () => {
    const { unit, buckets } = chartBuckets("2026-01-07", "2026-03-04");
    expect(unit).toBe("week");
    expect(buckets[0]?.start).toBe(utc("2026-01-07T05:00:00Z"));
    expect(buckets[0]?.end).toBe(utc("2026-01-11T05:00:00Z"));
    expect(buckets[0]?.longLabel).toBe("Week of January 7, 2026");
    expect(buckets.at(-1)?.start).toBe(utc("2026-03-01T05:00:00Z"));
    expect(buckets.at(-1)?.end).toBe(utc("2026-03-04T05:00:00Z"));
    // Contiguous: the bars add up to the period.
    for (const [i, bucket] of buckets.slice(1).entries())
      expect(bucket.start).toBe(buckets[i]?.end);
  });

  it("labels months and years", () => {
    const months = chartBuckets("2026-01-01", "2027-01-01").buckets;
    expect(months).toHaveLength(12);
    expect(months[10]).toMatchObject({
      label: "Nov 26",
      longLabel: "November 2026",
      start: utc("2026-11-01T04:00:00Z"),
      end: utc("2026-12-01T05:00:00Z"),
    });
    const years = chartBuckets("2019-06-01", "2026-11-24").buckets;
    expect(years.map((b) => b.label)).toEqual([
      "2019",
      "2020",
      "2021",
      "2022",
      "2023",
      "2024",
      "2025",
      "2026",
    ]);
    expect(years[0]?.start).toBe(utc("2019-06-01T04:00:00Z"));
  });
});
