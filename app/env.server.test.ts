import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { parseEnv } from "#app/env.server";

const secret = "x".repeat(32);
const dataKey = Buffer.alloc(32, 7).toString("base64");

describe("parseEnv", () => {
  it("has working defaults for development", () => {
    const env = parseEnv({});
    expect(env).toMatchObject({
      NODE_ENV: "development",
      PORT: 3000,
      DATABASE_PATH: "./data/studio.db",
      PAYMENT_PROVIDER: "sandbox",
      HOLD_MINUTES: 30,
      MAX_UNPAID_HOLDS: 2,
      MAX_UNPAID_SESSIONS: 12,
      BOOKING_HORIZON_DAYS: 365,
      CANCELLATION_FEE_PERCENT: 50,
      TRUST_PROXY: false,
      BOOKING_RATE_LIMIT: 24,
      PAYMENT_STATUS_LIMIT: 60,
    });
  });

  it("reads the booking and payment-check limits and refuses one below one", () => {
    expect(parseEnv({ BOOKING_RATE_LIMIT: "3", PAYMENT_STATUS_LIMIT: "5" })).toMatchObject({
      BOOKING_RATE_LIMIT: 3,
      PAYMENT_STATUS_LIMIT: 5,
    });
    expect(() => parseEnv({ BOOKING_RATE_LIMIT: "0" })).toThrow(/BOOKING_RATE_LIMIT/);
    expect(() => parseEnv({ PAYMENT_STATUS_LIMIT: "0" })).toThrow(/PAYMENT_STATUS_LIMIT/);
  });

  it("serves metrics on 9091 of loopback by default; 0 or empty turns them off", () => {
    expect(parseEnv({})).toMatchObject({ METRICS_PORT: 9091, METRICS_HOST: "127.0.0.1" });
    expect(parseEnv({ METRICS_PORT: "0" }).METRICS_PORT).toBe(0);
    expect(parseEnv({ METRICS_PORT: "" }).METRICS_PORT).toBe(0);
    expect(parseEnv({ METRICS_PORT: "9100", METRICS_HOST: "" })).toMatchObject({
      METRICS_PORT: 9100,
      METRICS_HOST: "127.0.0.1",
    });
    expect(() => parseEnv({ METRICS_PORT: "70000" })).toThrow(/METRICS_PORT/);
    expect(() => parseEnv({ LOG_LEVEL: "loud" })).toThrow(/LOG_LEVEL/);
  });

  it("reads the holding limits and refuses a cap or horizon below one", () => {
    expect(
      parseEnv({ MAX_UNPAID_HOLDS: "5", MAX_UNPAID_SESSIONS: "30", BOOKING_HORIZON_DAYS: "90" }),
    ).toMatchObject({
      MAX_UNPAID_HOLDS: 5,
      MAX_UNPAID_SESSIONS: 30,
      BOOKING_HORIZON_DAYS: 90,
    });
    expect(() => parseEnv({ MAX_UNPAID_HOLDS: "0" })).toThrow(/MAX_UNPAID_HOLDS/);
    expect(() => parseEnv({ MAX_UNPAID_SESSIONS: "0" })).toThrow(/MAX_UNPAID_SESSIONS/);
    expect(() => parseEnv({ MAX_UNPAID_SESSIONS: "100001" })).toThrow(/MAX_UNPAID_SESSIONS/);
    expect(() => parseEnv({ BOOKING_HORIZON_DAYS: "0" })).toThrow(/BOOKING_HORIZON_DAYS/);
  });

  it("requires staff two-factor in production only, unless set, and reads the idle limit", () => {
    const production = {
      NODE_ENV: "production",
      SESSION_SECRET: secret,
      DATA_ENCRYPTION_KEY: dataKey,
      PAYMENT_PROVIDER: "sandbox",
    };
    expect(parseEnv({}).REQUIRE_STAFF_2FA).toBe(false);
    expect(parseEnv(production).REQUIRE_STAFF_2FA).toBe(true);
    expect(parseEnv({ ...production, REQUIRE_STAFF_2FA: "false" }).REQUIRE_STAFF_2FA).toBe(false);
    expect(parseEnv({ REQUIRE_STAFF_2FA: "true" }).REQUIRE_STAFF_2FA).toBe(true);
    expect(parseEnv({}).STAFF_IDLE_MINUTES).toBe(60);
    expect(parseEnv({ STAFF_IDLE_MINUTES: "15" }).STAFF_IDLE_MINUTES).toBe(15);
    expect(() => parseEnv({ STAFF_IDLE_MINUTES: "0" })).toThrow(/STAFF_IDLE_MINUTES/);
    expect(() => parseEnv({ REQUIRE_STAFF_2FA: "maybe" })).toThrow(/REQUIRE_STAFF_2FA/);
  });

  it("requires a long SESSION_SECRET and an explicit payment provider in production", () => {
    expect(() => parseEnv({ NODE_ENV: "production" })).toThrow(
      /SESSION_SECRET: is required in production[\s\S]*PAYMENT_PROVIDER/,
    );
    expect(() =>
      parseEnv({ NODE_ENV: "production", SESSION_SECRET: "short", PAYMENT_PROVIDER: "sandbox" }),
    ).toThrow(/SESSION_SECRET/);
    expect(
      parseEnv({
        NODE_ENV: "production",
        SESSION_SECRET: secret,
        DATA_ENCRYPTION_KEY: dataKey,
        PAYMENT_PROVIDER: "sandbox",
      }).PAYMENT_PROVIDER,
    ).toBe("sandbox");
  });

  it("requires a 32-byte DATA_ENCRYPTION_KEY in production; a fixed one outside it", () => {
    const production = {
      NODE_ENV: "production",
      SESSION_SECRET: secret,
      PAYMENT_PROVIDER: "sandbox",
    };
    expect(() => parseEnv(production)).toThrow(/DATA_ENCRYPTION_KEY: is required in production/);
    expect(parseEnv({ ...production, DATA_ENCRYPTION_KEY: dataKey }).DATA_ENCRYPTION_KEY).toBe(
      dataKey,
    );
    const short = Buffer.alloc(16, 7).toString("base64");
    expect(() => parseEnv({ ...production, DATA_ENCRYPTION_KEY: short })).toThrow(
      /DATA_ENCRYPTION_KEY: must be 32 bytes/,
    );
    expect(() => parseEnv({ DATA_ENCRYPTION_KEY_PREVIOUS: "not a key" })).toThrow(
      /DATA_ENCRYPTION_KEY_PREVIOUS: must be 32 bytes/,
    );
    expect(Buffer.from(parseEnv({}).DATA_ENCRYPTION_KEY, "base64")).toHaveLength(32);
  });

  it("requires Intercom's identity secret in production when the chat is on", () => {
    const production = {
      NODE_ENV: "production",
      SESSION_SECRET: secret,
      DATA_ENCRYPTION_KEY: dataKey,
      PAYMENT_PROVIDER: "sandbox",
    };
    expect(() => parseEnv({ ...production, INTERCOM_APP_ID: "abc123" })).toThrow(
      /INTERCOM_IDENTITY_SECRET/,
    );
    expect(
      parseEnv({ ...production, INTERCOM_APP_ID: "abc123", INTERCOM_IDENTITY_SECRET: "s" })
        .INTERCOM_APP_ID,
    ).toBe("abc123");
    expect(parseEnv({ INTERCOM_APP_ID: "abc123" }).INTERCOM_APP_ID).toBe("abc123");
  });

  it("reads the session files' settings: limits, the folder beside the database, S3 with its keys", () => {
    expect(parseEnv({ DATABASE_PATH: "/data/studio.db" })).toMatchObject({
      MAX_FILE_GB: 20,
      MAX_FORM_UPLOAD_MB: 200,
      FILES_DIR: "/data/files",
      FILES_RESERVE_MB: 1024,
      FILES_RETENTION_DAYS: 90,
      S3_REGION: "auto",
    });
    expect(parseEnv({ FILES_DIR: "/volume/files", MAX_FILE_GB: "0.5" })).toMatchObject({
      FILES_DIR: "/volume/files",
      MAX_FILE_GB: 0.5,
    });
    expect(() => parseEnv({ MAX_FILE_GB: "0" })).toThrow(/MAX_FILE_GB/);
    expect(() => parseEnv({ FILES_RETENTION_DAYS: "7" })).toThrow(/FILES_RETENTION_DAYS/);
    expect(() => parseEnv({ S3_BUCKET: "files" })).toThrow(
      /S3_ACCESS_KEY_ID[\s\S]*S3_SECRET_ACCESS_KEY/,
    );
    expect(() => parseEnv({ S3_BUCKET: "files", S3_ENDPOINT: "not a url" })).toThrow(/S3_ENDPOINT/);
  });

  it("requires Stripe keys when Stripe is chosen", () => {
    expect(() => parseEnv({ PAYMENT_PROVIDER: "stripe" })).toThrow(
      /STRIPE_SECRET_KEY[\s\S]*STRIPE_WEBHOOK_SECRET/,
    );
  });

  it("takes another address for Stripe's API (a test double) only with a test key", () => {
    const stripe = { PAYMENT_PROVIDER: "stripe", STRIPE_WEBHOOK_SECRET: "whsec_x" };
    const url = "http://127.0.0.1:12111";
    expect(
      parseEnv({ ...stripe, STRIPE_SECRET_KEY: "sk_test_abc", STRIPE_API_URL: url }).STRIPE_API_URL,
    ).toBe(url);
    expect(() =>
      parseEnv({ ...stripe, STRIPE_SECRET_KEY: "sk_live_abc", STRIPE_API_URL: url }),
    ).toThrow(/STRIPE_API_URL[\s\S]*test key/);
    expect(() => parseEnv({ STRIPE_API_URL: url })).toThrow(/STRIPE_API_URL/);
    expect(
      parseEnv({ ...stripe, STRIPE_SECRET_KEY: "sk_live_abc" }).STRIPE_API_URL,
    ).toBeUndefined();
  });

  it("names the variable of a bad value, and treats empty values as unset", () => {
    expect(() => parseEnv({ PORT: "eighty" })).toThrow(/PORT/);
    expect(() => parseEnv({ CANCELLATION_FEE_PERCENT: "150" })).toThrow(/CANCELLATION_FEE_PERCENT/);
    expect(() => parseEnv({ TRUST_PROXY: "maybe" })).toThrow(/TRUST_PROXY/);
    expect(parseEnv({ PORT: "" }).PORT).toBe(3000);
  });
});

describe("TRUST_PROXY in the deployment files", () => {
  it("is turned on by fly.toml only: the image itself trusts no client header", () => {
    // Only Fly's proxy sets Fly-Client-IP itself; the same image run elsewhere (plain Docker,
    // another host) would let any client name its own address for the rate limits.
    const dockerfile = readFileSync("Dockerfile", "utf8");
    expect(dockerfile.split("\n").filter((line) => /TRUST_PROXY=/.test(line))).toEqual([]);
    expect(readFileSync("fly.toml", "utf8")).toMatch(/^\s*TRUST_PROXY = "true"$/m);
    expect(parseEnv({}).TRUST_PROXY).toBe(false);
  });
});
