import { spawn } from "node:child_process";
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { openDatabaseFile } from "#tests/factories/database";
import { TEST_DATA_ENCRYPTION_KEY } from "#tests/setup/data-key";
import {
  cookiesFrom,
  freePort,
  registrationPayload,
  spawnServer,
  waitUntilHealthy,
  collectOutput,
} from "#tests/setup/server";

/**
 * `create-admin` (docs/deploy.md "First deploy"): in the layout of the production image, with
 * the production dependencies only (node build/cli/create-admin.js), and from a clone
 * (npm run create-admin). The accounts it makes sign in through the real server.
 */
const STRONG = "Studio-Boss-Correct-Horse-7";
const work = mkdtempSync(join(tmpdir(), "studio-create-admin-"));
afterAll(() => rmSync(work, { recursive: true, force: true }));

/**
 * The image's /app: build/, db/migrations, package.json, and a node_modules holding only what
 * package-lock.json does not mark as a development dependency.
 */
function imageLayout(): string {
  const app = join(work, "app");
  mkdirSync(join(app, "node_modules"), { recursive: true });
  cpSync("build", join(app, "build"), { recursive: true });
  cpSync("db/migrations", join(app, "db/migrations"), { recursive: true });
  cpSync("package.json", join(app, "package.json"));
  const lock = JSON.parse(readFileSync("package-lock.json", "utf8")) as {
    packages: Record<string, { dev?: boolean }>;
  };
  for (const [path, entry] of Object.entries(lock.packages)) {
    // Top-level packages only: nested ones come inside their parent's folder.
    if (!/^node_modules\/(@[^/]+\/)?[^/]+$/.test(path) || entry.dev) continue;
    const target = join(app, path);
    mkdirSync(resolve(target, ".."), { recursive: true });
    symlinkSync(resolve(path), target);
  }
  return app;
}
const app = imageLayout();

function run(
  command: string[],
  options: { cwd: string; env: Record<string, string> },
): Promise<{ code: number | null; output: string }> {
  const [program = "", ...args] = command;
  const child = spawn(program, args, {
    cwd: options.cwd,
    env: { PATH: process.env.PATH ?? "", ...options.env },
    stdio: ["ignore", "pipe", "pipe"],
  });
  const output = collectOutput(child);
  return new Promise((done) => child.once("exit", (code) => done({ code, output: output() })));
}

/** The image's command, as on the machine: production settings, the database on the volume. */
function inImage(databasePath: string, args: string[], env: Record<string, string> = {}) {
  return run(["node", "build/cli/create-admin.js", ...args], {
    cwd: app,
    env: {
      NODE_ENV: "production",
      SESSION_SECRET: "create-admin-test-secret-0123456789abcdef",
      DATA_ENCRYPTION_KEY: TEST_DATA_ENCRYPTION_KEY,
      PAYMENT_PROVIDER: "sandbox",
      DATABASE_PATH: databasePath,
      ...env,
    },
  });
}

const newAdmin = ["--email", "boss@example.com", "--phone", "(404) 555-0100"];

async function serverOn(databasePath: string) {
  const port = await freePort();
  const child = spawnServer(port, databasePath, {
    SESSION_SECRET: "create-admin-test-secret-0123456789abcdef",
  });
  const url = `http://127.0.0.1:${port}`;
  await waitUntilHealthy(child, url, collectOutput(child));
  return { url, stop: () => child.kill("SIGTERM") };
}

async function login(url: string, username: string, password: string) {
  const response = await fetch(`${url}/api/login`, {
    method: "POST",
    headers: { "Content-Type": "application/json", Origin: url },
    body: JSON.stringify({ username, password }),
  });
  return { status: response.status, body: (await response.json()) as Record<string, unknown> };
}

function userCount(databasePath: string): number {
  const db = openDatabaseFile(databasePath, { readonly: true });
  try {
    return db.$client.prepare("SELECT count(*) FROM users").pluck().get() as number;
  } finally {
    db.$client.close();
  }
}

describe("create-admin in the image layout", () => {
  const databasePath = join(work, "image.db");

  it("creates the first admin, who signs in as an admin", async () => {
    const created = await inImage(databasePath, ["--username", "boss", ...newAdmin], {
      ADMIN_PASSWORD: STRONG,
    });
    expect(created).toEqual({ code: 0, output: "Created admin boss (account 1).\n" });

    const server = await serverOn(databasePath);
    try {
      const signedIn = await login(server.url, "boss", STRONG);
      expect(signedIn.status).toBe(200);
      expect(signedIn.body).toMatchObject({
        username: "boss",
        isAdmin: true,
        email: "boss@example.com",
      });
    } finally {
      server.stop();
    }
  });

  it("promotes an existing customer, leaving the password as it was", async () => {
    const server = await serverOn(databasePath);
    const customer = registrationPayload();
    try {
      const registered = await fetch(`${server.url}/api/register`, {
        method: "POST",
        headers: { "Content-Type": "application/json", Origin: server.url },
        body: JSON.stringify(customer),
      });
      expect(registered.status).toBe(201);
      expect(cookiesFrom(registered)).not.toBe("");

      const promoted = await inImage(databasePath, ["--username", String(customer.username)]);
      expect(promoted.code).toBe(0);
      expect(promoted.output).toMatch(
        /^Promoted .* \(account \d+\) to admin; password unchanged\.\n$/,
      );
      const again = await inImage(databasePath, [
        "--username",
        String(customer.username).toUpperCase(),
      ]);
      expect(again.output).toMatch(/is already an admin; nothing changed\.\n$/);

      const signedIn = await login(
        server.url,
        String(customer.username),
        String(customer.password),
      );
      expect(signedIn).toMatchObject({ status: 200, body: { isAdmin: true } });
    } finally {
      server.stop();
    }
  });

  it("refuses a weak password, a missing password and unknown options, writing nothing", async () => {
    const before = userCount(databasePath);
    const weak = await inImage(databasePath, ["--username", "weakling", ...newAdmin], {
      ADMIN_PASSWORD: "password123",
    });
    expect(weak.code).toBe(1);
    expect(weak.output).toBe(
      "Nothing was changed:\n- the password: This password is too easy to guess: it is a commonly used password. Try three or four unrelated words, or a longer password.\n",
    );
    const noPassword = await inImage(databasePath, ["--username", "nopassword", ...newAdmin]);
    expect(noPassword).toEqual({
      code: 1,
      output: "A new account needs a password: set ADMIN_PASSWORD, or run this in a terminal.\n",
    });
    const badEmail = await inImage(
      databasePath,
      ["--username", "bademail", "--email", "not-an-address", "--phone", "(404) 555-0100"],
      { ADMIN_PASSWORD: STRONG },
    );
    expect(badEmail.output).toBe(
      "Nothing was changed:\n- --email: Please enter a valid email address\n",
    );
    const typo = await inImage(databasePath, ["--usernme", "boss"]);
    expect(typo.code).toBe(1);
    expect(typo.output).toMatch(
      /^--usernme is not an option of create-admin\.\nUsage: create-admin --username NAME/,
    );
    expect(userCount(databasePath)).toBe(before);
  });

  it("asks for the password twice without echo in a terminal", async () => {
    const typed = `${STRONG}\r`;
    // `script` gives the command a terminal; what it is given on stdin is typed into it.
    const child = spawn(
      "script",
      [
        "-qec",
        `node build/cli/create-admin.js --username at-the-keyboard ${newAdmin.map((a) => `'${a}'`).join(" ")}`,
        "/dev/null",
      ],
      {
        cwd: app,
        env: {
          PATH: process.env.PATH ?? "",
          NODE_ENV: "production",
          SESSION_SECRET: "create-admin-test-secret-0123456789abcdef",
          DATA_ENCRYPTION_KEY: TEST_DATA_ENCRYPTION_KEY,
          PAYMENT_PROVIDER: "sandbox",
          DATABASE_PATH: databasePath,
        },
        stdio: ["pipe", "pipe", "pipe"],
      },
    );
    const output = collectOutput(child);
    const exited = new Promise<number | null>((done) => child.once("exit", done));
    // The CLI's start (Node, the bundle, the database) can take seconds on a loaded machine.
    await expect.poll(output, { timeout: 30_000 }).toContain("Password for the new admin: ");
    child.stdin.write(typed);
    await expect.poll(output, { timeout: 30_000 }).toContain("The same password again: ");
    child.stdin.write(typed);
    expect(await exited).toBe(0);
    expect(output()).toMatch(/Created admin at-the-keyboard \(account \d+\)\./);
    expect(output()).not.toContain(STRONG);
  });
});

describe("npm run create-admin in a clone", () => {
  it("runs the same command through tsx", async () => {
    const databasePath = join(work, "clone.db");
    const created = await run(
      ["npm", "run", "--silent", "create-admin", "--", "--username", "boss", ...newAdmin],
      { cwd: process.cwd(), env: { DATABASE_PATH: databasePath, ADMIN_PASSWORD: STRONG } },
    );
    expect(created).toEqual({ code: 0, output: "Created admin boss (account 1).\n" });
    expect(userCount(databasePath)).toBe(1);
  });
});
