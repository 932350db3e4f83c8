import { spawn } from "node:child_process";
import { chmodSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parse as parseToml } from "smol-toml";
import { afterAll, describe, expect, it } from "vitest";
import { parse as parseYaml } from "yaml";
import { SERVER_NODE_FLAGS } from "#tests/setup/server";

/**
 * The deployment files Litestream and Fly read (docs/deploy.md "Backups"). Litestream cannot run
 * here (no internet, no bucket), so its configuration is checked the way Litestream reads it,
 * against the names the Dockerfile, fly.toml, the app and the docs use; and the entry point
 * script runs with stand-ins for `litestream` and `node` that record how they were called.
 */
const read = (path: string) => readFileSync(path, "utf8");
const dockerfile = read("Dockerfile");
const startScript = read("scripts/start.sh");
const deployDocs = read("docs/deploy.md");

/** How Litestream's configuration names an environment variable: ${NAME}. */
const variable = (name: string) => `\${${name}}`;

type LitestreamConfig = {
  dbs: { path: string; replicas: Record<string, string>[] }[];
};
const litestream = parseYaml(read("litestream.yml")) as LitestreamConfig;
const fly = parseToml(read("fly.toml")) as {
  mounts: { destination: string }[];
  env: Record<string, string>;
  http_service: { internal_port: number; checks: { path: string }[] };
  checks: Record<string, { type: string; port: number; path: string }>;
  metrics: { port: number; path: string };
};

/** `ENV A=b \ C=d` lines of the runtime stage. */
function dockerEnv(): Record<string, string> {
  const runtime = dockerfile.slice(dockerfile.indexOf("AS runtime"));
  const block = /^ENV ((?:.*\\\n)*.*)$/m.exec(runtime)?.[1] ?? "";
  return Object.fromEntries(
    block
      .split(/\s*\\\n\s*|\s+/)
      .filter(Boolean)
      .map((pair) => pair.split("=") as [string, string]),
  );
}

describe("litestream.yml", () => {
  const [database] = litestream.dbs;
  const replica = database?.replicas[0] ?? {};
  const settings = read("litestream.yml").replace(/#.*$/gm, "");
  const variables = [...settings.matchAll(/\$\{(\w+)\}/g)].map((m) => m[1]);

  it("replicates the one database the app opens, to one S3-compatible replica", () => {
    expect(litestream.dbs).toHaveLength(1);
    expect(database?.path).toBe(variable("DATABASE_PATH"));
    expect(read("app/env.server.ts")).toMatch(/\bDATABASE_PATH\b/);
    expect(replica).toMatchObject({
      type: "s3",
      bucket: variable("BUCKET_NAME"),
      endpoint: variable("AWS_ENDPOINT_URL_S3"),
      region: variable("AWS_REGION"),
    });
    expect(replica["sync-interval"]).toBe("1s");
  });

  it("names only settings the image or `fly storage create` provides, all documented", () => {
    const tigrisSecrets = ["BUCKET_NAME", "AWS_ENDPOINT_URL_S3", "AWS_REGION"];
    expect(new Set(variables)).toEqual(new Set(["DATABASE_PATH", ...tigrisSecrets]));
    for (const secret of [...tigrisSecrets, "AWS_ACCESS_KEY_ID", "AWS_SECRET_ACCESS_KEY"]) {
      expect(deployDocs).toContain(secret);
    }
  });

  it("is where the entry point looks for it, for a database on the volume", () => {
    expect(dockerfile).toMatch(/^COPY litestream\.yml \/etc\/litestream\.yml$/m);
    expect(startScript.match(/-config (\S+)/g)).toEqual([
      "-config /etc/litestream.yml",
      "-config /etc/litestream.yml",
    ]);
    const databasePath = dockerEnv().DATABASE_PATH ?? "";
    expect(databasePath).toBe("/data/studio.db");
    expect(fly.mounts.map((mount) => `${mount.destination}/`)).toContain("/data/");
    expect(databasePath.startsWith(fly.mounts[0]?.destination ?? "?")).toBe(true);
  });

  it("comes from a pinned Litestream release, and the image starts through start.sh", () => {
    expect(dockerfile).toMatch(/^ARG LITESTREAM_VERSION=\d+\.\d+\.\d+$/m);
    expect(dockerfile).toContain(
      `https://github.com/benbjohnson/litestream/releases/download/v${variable("LITESTREAM_VERSION")}/`,
    );
    expect(dockerfile).toMatch(/^CMD \["scripts\/start\.sh"\]$/m);
    expect(dockerfile).toMatch(/^COPY .*\/app\/scripts\/start\.sh .*\.\/scripts\/$/m);
    expect(dockerfile).toMatch(/^COPY .*\/app\/scripts\/restore\.ts .*\.\/scripts\/$/m);
  });

  it("verifies the Litestream download's SHA-256 for each platform before extracting it", () => {
    // The sums of the v0.3.13 release assets (linux-amd64, linux-arm64 .tar.gz).
    expect(dockerfile).toMatch(/^ARG LITESTREAM_VERSION=0\.3\.13$/m);
    expect(dockerfile).toMatch(
      /^ARG LITESTREAM_SHA256_AMD64=eb75a3de5cab03875cdae9f5f539e6aedadd66607003d9b1e7a9077948818ba0$/m,
    );
    expect(dockerfile).toMatch(
      /^ARG LITESTREAM_SHA256_ARM64=9585f5a508516bd66af2b2376bab4de256a5ef8e2b73ec760559e679628f2d59$/m,
    );
    const check = dockerfile.indexOf("| sha256sum -c -");
    const extract = dockerfile.indexOf("tar -C /usr/local/bin -xzf /tmp/litestream.tar.gz");
    expect(check).toBeGreaterThan(
      dockerfile.indexOf("ADD https://github.com/benbjohnson/litestream"),
    );
    expect(extract).toBeGreaterThan(check);
    // Another platform has no sum: the build stops rather than run an unchecked binary.
    expect(dockerfile).toContain(
      `*) echo "No Litestream checksum for ${variable("TARGETARCH")}" >&2; exit 1 ;;`,
    );
  });
});

describe("scripts/start.sh", () => {
  const bin = mkdtempSync(join(tmpdir(), "studio-start-"));
  const calls = join(bin, "calls.log");
  const database = join(bin, "studio.db");
  afterAll(() => rmSync(bin, { recursive: true, force: true }));
  // Stand-ins that record their arguments, one call per line.
  for (const program of ["litestream", "node"]) {
    writeFileSync(join(bin, program), `#!/bin/sh\necho "${program} $*" >> "${calls}"\n`);
    chmodSync(join(bin, program), 0o755);
  }

  function start(env: Record<string, string>) {
    rmSync(calls, { force: true });
    const child = spawn("sh", ["scripts/start.sh"], {
      env: { PATH: `${bin}:/usr/bin:/bin`, ...env },
      stdio: ["ignore", "pipe", "pipe"],
    });
    let output = "";
    child.stdout.on("data", (chunk) => (output += chunk));
    child.stderr.on("data", (chunk) => (output += chunk));
    const exited = new Promise<number | null>((resolve) => child.once("exit", resolve));
    const recorded = () => {
      try {
        return read(calls).trim().split("\n");
      } catch {
        return [];
      }
    };
    return { child, exited, recorded, output: () => output };
  }

  it("runs the site alone without a bucket", async () => {
    const run = start({ DATABASE_PATH: database });
    expect(await run.exited).toBe(0);
    expect(run.recorded()).toEqual([`node ${SERVER_NODE_FLAGS} server.js`]);
  });

  it("restores an empty volume from the bucket, then runs the site under Litestream", async () => {
    const run = start({ DATABASE_PATH: database, BUCKET_NAME: "studio-backups" });
    expect(await run.exited).toBe(0);
    expect(run.recorded()).toEqual([
      `litestream restore -config /etc/litestream.yml -if-db-not-exists -if-replica-exists ${database}`,
      `litestream replicate -config /etc/litestream.yml -exec node ${SERVER_NODE_FLAGS} server.js`,
    ]);
  });

  it("opens nothing while the maintenance file exists, and stops on SIGTERM", async () => {
    writeFileSync(`${database}.maintenance`, "");
    const run = start({ DATABASE_PATH: database, BUCKET_NAME: "studio-backups" });
    await expect.poll(run.output).toMatch(/Maintenance: .* exists, so the site is not started/);
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(run.recorded()).toEqual([]);
    run.child.kill("SIGTERM");
    expect(await run.exited).toBe(0);
    rmSync(`${database}.maintenance`);
  });

  it("gives node the flags npm start and the tests' servers give it", () => {
    const scripts = (JSON.parse(read("package.json")) as { scripts: Record<string, string> })
      .scripts;
    for (const name of ["start", "start:local"]) {
      expect(scripts[name]).toContain(`node ${SERVER_NODE_FLAGS} ./server.js`);
    }
  });

  it("refuses to start without DATABASE_PATH", async () => {
    const run = start({});
    expect(await run.exited).not.toBe(0);
    expect(run.output()).toMatch(/DATABASE_PATH must name the database file/);
    expect(run.recorded()).toEqual([]);
  });
});

describe("fly.toml's metrics", () => {
  it("are bound to the machine's private (6PN) address, which Fly's scraper uses", () => {
    // /etc/hosts on a Fly Machine names its 6PN address fly-local-6pn; the app's own
    // default is loopback, which the scraper cannot reach.
    expect(fly.env.METRICS_HOST).toBe("fly-local-6pn");
    expect(fly.metrics).toEqual({ port: 9091, path: "/metrics" });
  });
});

describe("fly.toml's checks", () => {
  it("route by liveness and watch readiness on the service's port", () => {
    expect(fly.http_service.checks.map((check) => check.path)).toEqual(["/healthz"]);
    expect(fly.checks.ready).toMatchObject({
      type: "http",
      port: fly.http_service.internal_port,
      path: "/healthz/ready",
    });
    expect(read("app/routes.ts")).toContain('route("healthz/ready"');
  });
});
