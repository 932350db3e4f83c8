import { createHash, randomBytes } from "node:crypto";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { PASSWORD } from "#tests/factories/user";
import { INTEGRATION_SESSION_SECRET } from "#tests/setup/server";
import { auditLine, auditLogDirectory, testPasswords } from "#tests/setup/log-audit";

/**
 * The suite-wide log audit (tests/setup/log-audit.ts, run after every integration file) finds
 * what it must: proven here on lines made up for it, since the real logs must stay clean.
 */
const clean =
  '{"level":30,"time":1795626844124,"reqId":"4242abcd-0000-4000-8000-000000000000","msg":"request","ms":12.5}';

describe("the log audit", () => {
  it("passes a clean JSON line", () => {
    expect(auditLine(clean, new Set(["correct-horse-battery"]))).toEqual([]);
  });

  it("does not take a request id's digit groups for a card number", () => {
    const line = '{"reqId":"7ea61811-aef1-4292-9366-06735334eb1d","msg":"request"}';
    expect(auditLine(line, new Set())).toEqual([]);
  });

  it.each([
    ["a line that is not JSON", "Server listening", "not JSON"],
    ["a test password", `{"msg":"${PASSWORD}"}`, "secret"],
    ["a sign-in cookie", '{"cookie":"__session=abc"}', "sign-in cookie"],
    ["a spaced card number", '{"msg":"card 4242 4242 4242 4242"}', "card number"],
    ["a bare declined card", '{"msg":"4000000000000002"}', "card number"],
    ["a Mastercard number", '{"msg":"5555-5555-5555-4444"}', "card number"],
    ["an e-mail body", '{"html":"<!DOCTYPE html><html>"}', "HTML"],
  ])("fails %s", (_name, line, problem) => {
    const found = auditLine(line, new Set([PASSWORD]));
    expect(found.join(" ")).toContain(problem);
    // It says what kind of secret, never the secret.
    expect(found.join(" ")).not.toContain(PASSWORD);
  });

  it("knows the tests' passwords from their sources", () => {
    const passwords = testPasswords();
    expect(passwords).toEqual(expect.arrayContaining([PASSWORD, "brand-new-secret"]));
  });

  const dir = mkdtempSync(join(tmpdir(), "studio-audit-test-"));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it("reads a directory of server logs with the secrets each server was given", () => {
    writeFileSync(join(dir, "a.stdout.log"), `${clean}\n{"msg":"id sess-123456"}\n`);
    writeFileSync(join(dir, "a.stderr.log"), "");
    writeFileSync(
      join(dir, "a.secrets.json"),
      JSON.stringify({ secrets: [INTEGRATION_SESSION_SECRET, "sess-123456"] }),
    );
    expect(auditLogDirectory(dir, [])).toEqual(["a.stdout.log:2: holds a secret (11 characters)"]);
  });

  it("finds a sign-in cookie's value by the hash the database keeps of it", () => {
    const cookieValue = randomBytes(32).toString("base64url");
    const stored = createHash("sha256").update(cookieValue).digest("hex");
    const line = `{"msg":"token ${cookieValue}"}`;
    expect(auditLine(line, new Set(), new Set([stored]))).toEqual([
      "holds a sign-in cookie's value",
    ]);
    expect(auditLine(line, new Set(), new Set())).toEqual([]);
  });

  it("fails when no server wrote a log there", () => {
    const empty = mkdtempSync(join(tmpdir(), "studio-audit-empty-"));
    expect(auditLogDirectory(empty, []).join()).toMatch(/No server log/);
    rmSync(empty, { recursive: true });
  });
});
