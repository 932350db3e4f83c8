import { describe, expect, it } from "vitest";
import { feedPath, feedTokenFromFile, feedUrls } from "#app/domain/calendar-feed";

const TOKEN = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJ-_01234"; // 43 characters of base64url

describe("feedTokenFromFile", () => {
  it("takes the token of a {token}.ics name", () => {
    expect(TOKEN).toHaveLength(43);
    expect(feedTokenFromFile(`${TOKEN}.ics`)).toBe(TOKEN);
  });

  it.each([
    ["no .ics ending", TOKEN],
    ["another ending", `${TOKEN}.ical`],
    ["an upper-case ending", `${TOKEN}.ICS`],
    ["a token one short", `${TOKEN.slice(1)}.ics`],
    ["a token one long", `${TOKEN}x.ics`],
    ["padding", `${TOKEN.slice(1)}=.ics`],
    ["standard base64's +", `${TOKEN.slice(1)}+.ics`],
    ["a path", `../${TOKEN.slice(3)}.ics`],
    ["only the ending", ".ics"],
    ["the page data's suffix", `${TOKEN}.ics.data`],
  ])("answers null for %s", (_why, file) => {
    expect(feedTokenFromFile(file)).toBeNull();
  });
});

describe("feedUrls", () => {
  it("gives the https URL to copy and the same one as webcal:// to subscribe", () => {
    expect(feedUrls("https://studio.example", TOKEN)).toEqual({
      https: `https://studio.example/calendar/${TOKEN}.ics`,
      webcal: `webcal://studio.example/calendar/${TOKEN}.ics`,
    });
  });

  it("keeps a port and replaces http too (a local run)", () => {
    expect(feedUrls("http://localhost:3000/", TOKEN)?.webcal).toBe(
      `webcal://localhost:3000${feedPath(TOKEN)}`,
    );
  });

  it("has nothing to show before a token exists", () => {
    expect(feedUrls("https://studio.example", null)).toBeNull();
  });
});
