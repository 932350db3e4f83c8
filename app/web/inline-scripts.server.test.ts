import { createHash } from "node:crypto";
import { describe, expect, it } from "vitest";
import { hashMarkedScripts, newScriptMark } from "#app/web/inline-scripts.server";

const sha256 = (text: string) => createHash("sha256").update(text, "utf8").digest("base64");

describe("hashMarkedScripts", () => {
  it("hashes the text of each marked script and takes every mark out", () => {
    const mark = newScriptMark();
    const page = [
      `<link rel="modulepreload" href="/a.js" nonce="${mark}">`,
      `<script nonce="${mark}">window.x = "é\\u003c/script>";</script>`,
      `<template><script type="module" nonce="${mark}">import "/b.js";</script></template>`,
      `<script nonce="${mark}" suppressHydrationWarning="">go()</script>`,
    ].join("");
    const { html, hashes } = hashMarkedScripts(Buffer.from(page), mark);
    expect(html.toString()).not.toContain(mark);
    expect(html.toString()).toContain('<script>window.x = "é');
    expect(hashes).toEqual([
      sha256('window.x = "é\\u003c/script>";'),
      sha256('import "/b.js";'),
      sha256("go()"),
    ]);
  });

  it("never hashes a script the render did not mark, such as one injected through the data", () => {
    const mark = newScriptMark();
    const page = `<p><script>alert(1)</script></p><script nonce="${mark}">ok()</script>`;
    const { html, hashes } = hashMarkedScripts(Buffer.from(page), mark);
    expect(hashes).toEqual([sha256("ok()")]);
    expect(html.toString()).toBe("<p><script>alert(1)</script></p><script>ok()</script>");
  });

  it("makes a new mark for every render", () => {
    expect(newScriptMark()).not.toBe(newScriptMark());
    expect(newScriptMark()).toMatch(/^[A-Za-z0-9_-]{22}$/);
  });
});
