import { createHash } from "node:crypto";
import { mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

/**
 * The integration suite's log audit (vitest globalSetup of vitest.integration.config.ts): every
 * server the suite starts writes its stdout and stderr into a directory made here
 * (tests/setup/server.ts), and with the secrets it was given and the sign-ins it made; once all
 * files ran, in whichever workers, the teardown reads them all and fails the run on:
 * - a line that is not JSON,
 * - a password of the tests (every password literal in tests/**: factories, registrations, forms),
 * - a sign-in id as stored, a sign-in cookie's value (a token whose SHA-256 is a stored id) or
 *   any `__session=` cookie,
 * - a SESSION_SECRET or other secret setting a server was started with,
 * - a card number (16 digits starting 4 or 5, spaced or not),
 * - an e-mail body (HTML).
 * The directory is removed afterwards; `KEEP_TEST_LOGS=1` keeps it (its path is in the variable
 * below) to read the logs of a run.
 */
export const LOG_DIR_VARIABLE = "STUDIO_IT_LOG_DIR";

export default function setup() {
  const dir = mkdtempSync(join(tmpdir(), "studio-it-logs-"));
  // Workers start after this and inherit the environment.
  process.env[LOG_DIR_VARIABLE] = dir;
  return () => {
    try {
      const problems = auditLogDirectory(dir, testPasswords());
      if (problems.length > 0) {
        // vitest reports an error thrown here but still exits 0: the exit code is set by hand.
        process.exitCode = 1;
        throw new Error(
          `The integration servers' logs leak or are not JSON (${problems.length}):\n${problems.slice(0, 30).join("\n")}`,
        );
      }
    } finally {
      if (!process.env.KEEP_TEST_LOGS) rmSync(dir, { recursive: true, force: true });
    }
  };
}

/** Every string the tests give a password field or constant (6 characters or more). */
export function testPasswords(root = "tests"): string[] {
  const found = new Set<string>();
  const literal = /password\w*\s*[:=]\s*["'`]([^"'`$]{6,})["'`]/gi;
  for (const file of readdirSync(root, { recursive: true, encoding: "utf8" })) {
    if (!/\.tsx?$/.test(file)) continue;
    for (const match of readFileSync(join(root, file), "utf8").matchAll(literal)) {
      if (match[1]) found.add(match[1]);
    }
  }
  return [...found];
}

/** Standing alone: the digit groups of a request id (a UUID) are not a card number. */
const CARD_NUMBER = /(?<![\w-])(?:4\d{3}|5[1-5]\d{2})(?:[ -]?\d{4}){3}(?![\w-])/;

/** What a server's log must not hold: the secrets it was started with, its sign-ins. */
export type ServerSecrets = { secrets: string[] };

/** The problems found in one directory of logs (empty when clean). */
export function auditLogDirectory(dir: string, passwords: string[]): string[] {
  const files = readdirSync(dir);
  const logs = files.filter((file) => file.endsWith(".log"));
  if (logs.length === 0) return [`No server log in ${dir}: are the servers writing there?`];
  const forbidden = new Set(passwords);
  for (const file of files.filter((f) => f.endsWith(".secrets.json"))) {
    const { secrets } = JSON.parse(readFileSync(join(dir, file), "utf8")) as ServerSecrets;
    for (const secret of secrets) if (secret.length >= 6) forbidden.add(secret);
  }
  // Only a hash of each cookie is stored: a cookie value in a log is found by hashing tokens.
  const storedIds = new Set([...forbidden].filter((secret) => /^[0-9a-f]{64}$/.test(secret)));
  const problems: string[] = [];
  for (const file of logs) {
    const lines = readFileSync(join(dir, file), "utf8").split("\n");
    lines.forEach((line, index) => {
      if (line.trim() === "") return;
      const at = `${file}:${index + 1}`;
      for (const problem of auditLine(line, forbidden, storedIds)) {
        problems.push(`${at}: ${problem}`);
      }
    });
  }
  return problems;
}

/** One log line's problems. The secret itself is never printed, only what kind it was. */
export function auditLine(
  line: string,
  forbidden: Set<string>,
  storedSignInIds: Set<string> = new Set(),
): string[] {
  const problems: string[] = [];
  try {
    JSON.parse(line);
  } catch {
    problems.push(`not JSON: ${line.slice(0, 120)}`);
  }
  for (const secret of forbidden) {
    if (line.includes(secret)) problems.push(`holds a secret (${secret.length} characters)`);
  }
  if (line.includes("__session=")) problems.push("holds a sign-in cookie");
  for (const token of line.match(/[A-Za-z0-9_-]{43}/g) ?? []) {
    const hash = createHash("sha256").update(token).digest("hex");
    if (storedSignInIds.has(hash)) problems.push("holds a sign-in cookie's value");
  }
  if (CARD_NUMBER.test(line)) problems.push("holds a card number");
  if (/<html|<!doctype/i.test(line)) problems.push("holds an HTML body");
  return problems;
}
