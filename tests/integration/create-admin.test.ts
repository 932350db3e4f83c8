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

/** The image's command in a terminal (`script` gives it one): what `type` gets is typed in. */
function inTerminal(databasePath: string, args: string) {
  const child = spawn("script", ["-qec", `node build/cli/create-admin.js ${args}`, "/dev/null"], {
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
  });
  return {
    output: collectOutput(child),
    type: (text: string) => child.stdin.write(text),
    exited: new Promise<number | null>((done) => child.once("exit", done)),
  };
}

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

function register(url: string, payload: Record<string, unknown>) {
  return fetch(`${url}/api/register`, {
    method: "POST",
    headers: { "Content-Type": "application/json", Origin: url },
    body: JSON.stringify(payload),
  });
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

  // Each of these runs the CLI several times beside a server: seconds each on a loaded machine.
  it("creates the first admin, who signs in as an admin", { timeout: 90_000 }, async () => {
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

  it("promotes an existing customer only when told to, after showing whose account it is", {
    timeout: 90_000,
  }, async () => {
    const server = await serverOn(databasePath);
    const customer = registrationPayload({ email: "early.bird@example.com" });
    const name = String(customer.username);
    try {
      const registered = await register(server.url, customer);
      expect(registered.status).toBe(201);
      expect(cookiesFrom(registered)).not.toBe("");
      const isAdmin = async () =>
        (await login(server.url, name, String(customer.password))).body.isAdmin;

      // The name alone, as the old command promoted whoever had registered it.
      const byName = await inImage(databasePath, ["--username", name, ...newAdmin], {
        ADMIN_PASSWORD: STRONG,
      });
      expect(byName).toEqual({
        code: 1,
        output: `Nothing was changed:\n- --username: an account named ${name} already exists. To make that account an admin, run again with --promote-existing.\n`,
      });
      expect(await isAdmin()).toBe(false);

      // Not in a terminal and no --yes: nobody confirmed.
      const unconfirmed = await inImage(databasePath, ["--username", name, "--promote-existing"]);
      expect(unconfirmed.code).toBe(1);
      expect(unconfirmed.output).toMatch(
        /: e-mail early\.bird@example\.com, signed up \d{4}-\d{2}-\d{2}\.\nNothing was changed: confirm in a terminal, or add --yes\.\n$/,
      );
      expect(await isAdmin()).toBe(false);

      const promoted = await inImage(databasePath, [
        "--username",
        name,
        "--promote-existing",
        "--yes",
      ]);
      expect(promoted.code).toBe(0);
      const today = new Date().toISOString().slice(0, 10);
      expect(promoted.output).toMatch(
        new RegExp(
          `^${name} \\(account \\d+\\): e-mail early\\.bird@example\\.com, signed up ${today}\\.\\nPromoted .* \\(account \\d+\\) to admin; password unchanged\\.\\n$`,
        ),
      );
      const again = await inImage(databasePath, [
        "--username",
        name.toUpperCase(),
        "--promote-existing",
      ]);
      expect(again.output).toMatch(/is already an admin; nothing changed\.\n$/);

      const signedIn = await login(server.url, name, String(customer.password));
      expect(signedIn).toMatchObject({ status: 200, body: { isAdmin: true } });
    } finally {
      server.stop();
    }
  });

  it("asks in a terminal before promoting, and a no changes nothing", {
    timeout: 90_000,
  }, async () => {
    const server = await serverOn(databasePath);
    const customer = registrationPayload();
    const name = String(customer.username);
    try {
      const registered = await register(server.url, customer);
      expect(registered.status).toBe(201);
      const answer = async (typed: string) => {
        const terminal = inTerminal(databasePath, `--username ${name} --promote-existing`);
        await expect
          .poll(terminal.output, { timeout: 30_000 })
          .toContain("Make this account an admin? Type yes to confirm: ");
        terminal.type(`${typed}\r`);
        return { code: await terminal.exited, output: terminal.output() };
      };
      const declined = await answer("no");
      expect(declined.code).toBe(1);
      expect(declined.output).toContain(`${name} was not promoted: not confirmed.`);
      expect((await login(server.url, name, String(customer.password))).body.isAdmin).toBe(false);
      const confirmed = await answer("yes");
      expect(confirmed.code).toBe(0);
      expect(confirmed.output).toMatch(/Promoted .* to admin; password unchanged\./);
      expect((await login(server.url, name, String(customer.password))).body.isAdmin).toBe(true);
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
    const terminal = inTerminal(
      databasePath,
      `--username at-the-keyboard ${newAdmin.map((a) => `'${a}'`).join(" ")}`,
    );
    // The CLI's start (Node, the bundle, the database) can take seconds on a loaded machine.
    await expect
      .poll(terminal.output, { timeout: 30_000 })
      .toContain("Password for the new admin: ");
    terminal.type(typed);
    await expect.poll(terminal.output, { timeout: 30_000 }).toContain("The same password again: ");
    terminal.type(typed);
    expect(await terminal.exited).toBe(0);
    expect(terminal.output()).toMatch(/Created admin at-the-keyboard \(account \d+\)\./);
    expect(terminal.output()).not.toContain(STRONG);
  });
});

describe("a fresh deploy before create-admin", () => {
  it("refuses registration by the API and the form until the first admin exists", {
    timeout: 90_000,
  }, async () => {
    const databasePath = join(work, "fresh.db");
    const server = await serverOn(databasePath);
    try {
      const squatter = await register(server.url, registrationPayload({ username: "owner" }));
      expect(squatter.status).toBe(403);
      expect(await squatter.json()).toEqual({
        message:
          "Sign-ups are not open yet: the studio is still being set up. Please try again later.",
      });
      const { isStakeholder: _unchecked, ...payload } = registrationPayload({ username: "owner" });
      const form = await fetch(`${server.url}/auth?tab=register`, {
        method: "POST",
        redirect: "manual",
        headers: { Origin: server.url },
        body: new URLSearchParams({
          intent: "register",
          ...Object.fromEntries(
            Object.entries(payload).map(([field, value]) => [field, String(value)]),
          ),
          confirmPassword: payload.password,
        }),
      });
      expect(form.status).toBe(403);
      expect(await form.text()).toContain("Sign-ups are not open yet");
      expect(cookiesFrom(form)).not.toContain("__session");
      expect(userCount(databasePath)).toBe(0);

      const created = await inImage(databasePath, ["--username", "owner", ...newAdmin], {
        ADMIN_PASSWORD: STRONG,
      });
      expect(created).toEqual({ code: 0, output: "Created admin owner (account 1).\n" });
      const customer = await register(server.url, registrationPayload());
      expect(customer.status).toBe(201);
    } finally {
      server.stop();
    }
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
