import { afterAll, describe, expect, it } from "vitest";
import { brotliDecompressSync, gunzipSync } from "node:zlib";
import { addStudioDays, studioDateOf } from "#app/domain/studio-time";
import { actorsFor } from "#tests/setup/actors";
import { closeConnections, send } from "#tests/setup/raw-http";
import { serverForThisFile } from "#tests/setup/server-for-this-file";

/**
 * What goes out compressed and how: the build's scripts and styles compressed once at build
 * time (vite.config.ts), sent as they are in the coding the browser takes; pages and JSON
 * compressed per answer by the middleware (server.js).
 */
const server = serverForThisFile();
afterAll(closeConnections);

const get = (path: string, headers: Record<string, string> = {}) =>
  send(server.url, { method: "GET", path, headers });

const decode = { br: brotliDecompressSync, gzip: gunzipSync } as const;

async function landingAssets(): Promise<string[]> {
  const html = (await get("/")).body.toString("utf8");
  return [...new Set(html.match(/\/assets\/[\w.-]+\.(?:js|css)/g) ?? [])];
}

describe("the build's files", () => {
  it("go out compressed once, in the coding the browser takes, byte for byte the file", async () => {
    const paths = await landingAssets();
    expect(paths.some((path) => path.endsWith(".css"))).toBe(true);
    expect(paths.some((path) => path.endsWith(".js"))).toBe(true);
    for (const path of paths) {
      const plain = await get(path, { "Accept-Encoding": "identity" });
      expect(plain.status, path).toBe(200);
      expect(plain.headers["content-encoding"], path).toBeUndefined();
      if (plain.body.byteLength < 1024) continue;
      for (const [accept, coding] of [
        ["gzip, deflate, br, zstd", "br"],
        ["gzip", "gzip"],
        ["br;q=0, gzip", "gzip"],
      ] as const) {
        const answer = await get(path, { "Accept-Encoding": accept });
        const label = `${path} (${accept})`;
        expect(answer.status, label).toBe(200);
        expect(answer.headers["content-encoding"], label).toBe(coding);
        expect(answer.headers.vary, label).toBe("Accept-Encoding");
        expect(answer.headers["content-type"], label).toBe(plain.headers["content-type"]);
        expect(answer.headers["cache-control"], label).toBe("public, max-age=31536000, immutable");
        expect(answer.headers["x-content-type-options"], label).toBe("nosniff");
        expect(Number(answer.headers["content-length"]), label).toBe(answer.body.byteLength);
        expect(answer.body.byteLength, label).toBeLessThan(plain.body.byteLength);
        expect(decode[coding](answer.body).equals(plain.body), label).toBe(true);

        // The browser's cached copy is still good: 304, and the same for the other coding's tag.
        const etag = String(answer.headers.etag);
        const again = await get(path, { "Accept-Encoding": accept, "If-None-Match": etag });
        expect(again.status, label).toBe(304);
        expect(again.body.byteLength, label).toBe(0);
        const plainAgain = await get(path, { "If-None-Match": etag });
        expect(plainAgain.status, label).toBe(200);
      }
    }
  });
});

describe("pages and JSON", () => {
  it("go out compressed per answer in the coding the browser takes", async () => {
    for (const path of ["/", "/auth", "/api/openapi.json"]) {
      const plain = await get(path);
      for (const [accept, coding] of [
        ["gzip, deflate, br, zstd", "br"],
        ["gzip", "gzip"],
      ] as const) {
        const answer = await get(path, { "Accept-Encoding": accept });
        const label = `${path} (${accept})`;
        expect(answer.status, label).toBe(200);
        expect(answer.headers["content-encoding"], label).toBe(coding);
        expect(answer.headers.vary, label).toContain("Accept-Encoding");
        const text = decode[coding](answer.body).toString("utf8");
        if (path.startsWith("/api/")) {
          expect(JSON.parse(text), label).toEqual(JSON.parse(plain.body.toString("utf8")));
        } else {
          expect(text, label).toMatch(/^<!DOCTYPE html>[\s\S]*<\/html>$/);
        }
      }
    }
  });

  it("go out as they are when they fit one TCP segment, to visitors and customers alike", async () => {
    const date = addStudioDays(studioDateOf(Date.now()), 30);
    const path = `/api/availability?date=${date}&hours=2`;
    const plain = await get(path);
    // Over compression's default threshold (1 KB), under one segment's 1,400 bytes.
    expect(plain.body.byteLength).toBeGreaterThan(1024);
    expect(plain.body.byteLength).toBeLessThan(1400);
    const answer = await get(path, { "Accept-Encoding": "gzip, deflate, br, zstd" });
    expect(answer.headers["content-encoding"]).toBeUndefined();
    expect(answer.body.equals(plain.body)).toBe(true);

    // The same stored bytes for a signed-in customer, before the app reads their sign-in.
    const { cookie } = await actorsFor(server).signUp();
    const theirs = await get(path, { Cookie: cookie, "Accept-Encoding": "gzip, deflate, br" });
    expect(theirs.headers.etag).toBe(answer.headers.etag);
    expect(theirs.headers["set-cookie"]).toBeUndefined();
    expect(theirs.body.equals(plain.body)).toBe(true);
  });
});
