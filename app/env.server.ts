import { dirname, join } from "node:path";
import { z } from "zod";

/**
 * Every setting (the README's "Configuration"), parsed once at start: a bad value stops the
 * process with a message naming it, rather than failing later on a request.
 */
const boolean = z
  .enum(["true", "false", "1", "0"])
  .transform((value) => value === "true" || value === "1");

const dataKey = z
  .string()
  .refine(
    (text) => /^[A-Za-z0-9+/_-]+={0,2}$/.test(text) && Buffer.from(text, "base64").length === 32,
    "must be 32 bytes written in base64 (openssl rand -base64 32)",
  );

/** Outside production only, and the one `npm run start:local` passes, so seed and demo share it. */
const DEVELOPMENT_DATA_KEY = "ZGV2ZWxvcG1lbnQtb25seS1kYXRhLWtleS0wMDAwMDA=";

const schema = z
  .object({
    NODE_ENV: z.enum(["development", "production", "test"]).default("development"),
    PORT: z.coerce.number().int().min(1).max(65535).default(3000),
    HOST: z.string().min(1).default("0.0.0.0"),
    DATABASE_PATH: z.string().min(1).default("./data/studio.db"),
    SESSION_SECRET: z.string().optional(),
    DATA_ENCRYPTION_KEY: dataKey.optional(),
    DATA_ENCRYPTION_KEY_PREVIOUS: dataKey.optional(),
    SESSION_MAX_AGE_DAYS: z.coerce.number().int().min(1).max(90).default(14),
    TRUST_PROXY: boolean.default(false),
    PAYMENT_PROVIDER: z.enum(["sandbox", "stripe"]).optional(),
    STRIPE_SECRET_KEY: z.string().optional(),
    STRIPE_WEBHOOK_SECRET: z.string().optional(),
    STRIPE_API_URL: z.url().optional(),
    APP_URL: z.url().optional(),
    SMTP_URL: z.url().optional(),
    MAIL_FROM: z.string().default("Atlanta Podcast & Video Studio <bookings@studio.example>"),
    INTERCOM_APP_ID: z.string().optional(),
    INTERCOM_IDENTITY_SECRET: z.string().optional(),
    HOLD_MINUTES: z.coerce
      .number()
      .int()
      .min(5)
      .max(24 * 60)
      .default(30),
    MAX_UNPAID_HOLDS: z.coerce.number().int().min(1).max(100_000).default(2),
    MAX_UNPAID_SESSIONS: z.coerce.number().int().min(1).max(100_000).default(12),
    MAX_WAITLIST: z.coerce.number().int().min(1).max(1000).default(5),
    BOOKING_HORIZON_DAYS: z.coerce.number().int().min(1).max(36500).default(365),
    BUFFER_MINUTES: z.coerce.number().int().min(0).max(240).default(0),
    CANCELLATION_FEE_PERCENT: z.coerce.number().int().min(0).max(100).default(50),
    LOGIN_RATE_LIMIT: z.coerce.number().int().min(1).default(10),
    LOGIN_ACCOUNT_LIMIT: z.coerce.number().int().min(1).default(20),
    REGISTER_RATE_LIMIT: z.coerce.number().int().min(1).default(5),
    COUPON_LOOKUP_LIMIT: z.coerce.number().int().min(1).default(10),
    TWO_FACTOR_CODE_LIMIT: z.coerce.number().int().min(1).default(10),
    /** NIST SP 800-63B allows at most 100. */
    TWO_FACTOR_FREEZE_AFTER: z.coerce.number().int().min(1).max(100).default(20),
    REQUIRE_STAFF_2FA: boolean.optional(),
    STAFF_IDLE_MINUTES: z.coerce
      .number()
      .int()
      .min(1)
      .max(24 * 60)
      .default(60),
    BOOKING_RATE_LIMIT: z.coerce.number().int().min(1).default(24),
    PAYMENT_STATUS_LIMIT: z.coerce.number().int().min(1).default(60),
    CALENDAR_FEED_LIMIT: z.coerce.number().int().min(1).default(120),
    MAX_FILE_GB: z.coerce.number().positive().max(5000).default(20),
    MAX_FORM_UPLOAD_MB: z.coerce.number().int().min(1).max(5000).default(200),
    FILES_DIR: z.string().min(1).optional(),
    FILES_RESERVE_MB: z.coerce.number().int().min(0).default(1024),
    FILES_RETENTION_DAYS: z.coerce.number().int().min(8).max(3650).default(90),
    S3_BUCKET: z.string().min(1).optional(),
    S3_ENDPOINT: z.url().optional(),
    S3_REGION: z.string().min(1).default("auto"),
    S3_ACCESS_KEY_ID: z.string().min(1).optional(),
    S3_SECRET_ACCESS_KEY: z.string().min(1).optional(),
    METRICS_PORT: z.coerce.number().int().min(0).max(65535).default(9091),
    /** Loopback rather than ::1, which a host without IPv6 lacks: metrics are nobody's business. */
    METRICS_HOST: z.string().min(1).default("127.0.0.1"),
    LOG_LEVEL: z
      .enum(["fatal", "error", "warn", "info", "debug", "trace", "silent"])
      .default("info"),
  })
  .superRefine((env, ctx) => {
    if (env.NODE_ENV === "production") {
      if (!env.SESSION_SECRET || env.SESSION_SECRET.length < 32) {
        ctx.addIssue({
          code: "custom",
          path: ["SESSION_SECRET"],
          message: "is required in production and must be at least 32 characters",
        });
      }
      if (!env.DATA_ENCRYPTION_KEY) {
        ctx.addIssue({
          code: "custom",
          path: ["DATA_ENCRYPTION_KEY"],
          message: "is required in production (32 bytes in base64: openssl rand -base64 32)",
        });
      }
      if (env.INTERCOM_APP_ID && !env.INTERCOM_IDENTITY_SECRET) {
        ctx.addIssue({
          code: "custom",
          path: ["INTERCOM_IDENTITY_SECRET"],
          message:
            "is required in production when INTERCOM_APP_ID is set (without it anyone could open another customer's chat)",
        });
      }
      if (!env.PAYMENT_PROVIDER) {
        ctx.addIssue({
          code: "custom",
          path: ["PAYMENT_PROVIDER"],
          message: 'must be chosen explicitly in production ("stripe", or "sandbox" for a demo)',
        });
      }
    }
    if (env.STRIPE_API_URL && !env.STRIPE_SECRET_KEY?.startsWith("sk_test_")) {
      ctx.addIssue({
        code: "custom",
        path: ["STRIPE_API_URL"],
        message: "may only be set with a Stripe test key (sk_test_…)",
      });
    }
    if (env.S3_BUCKET) {
      for (const key of ["S3_ACCESS_KEY_ID", "S3_SECRET_ACCESS_KEY"] as const) {
        if (!env[key]) {
          ctx.addIssue({
            code: "custom",
            path: [key],
            message: "is required when S3_BUCKET is set",
          });
        }
      }
    }
    if (env.PAYMENT_PROVIDER === "stripe") {
      for (const key of ["STRIPE_SECRET_KEY", "STRIPE_WEBHOOK_SECRET"] as const) {
        if (!env[key]) {
          ctx.addIssue({
            code: "custom",
            path: [key],
            message: 'is required when PAYMENT_PROVIDER is "stripe"',
          });
        }
      }
    }
  });

export type Env = z.infer<typeof schema> & {
  SESSION_SECRET: string;
  DATA_ENCRYPTION_KEY: string;
  REQUIRE_STAFF_2FA: boolean;
  PAYMENT_PROVIDER: "sandbox" | "stripe";
  APP_URL: string;
  FILES_DIR: string;
};

export function parseEnv(source: Record<string, string | undefined>): Env {
  // Treat empty strings as unset so `FOO=` in an .env file means "use the default".
  const cleaned = Object.fromEntries(Object.entries(source).filter(([, value]) => value !== ""));
  // The one setting whose empty value is not its default: `METRICS_PORT=` turns metrics off.
  if (source.METRICS_PORT === "") cleaned.METRICS_PORT = "0";
  const result = schema.safeParse(cleaned);
  if (!result.success) {
    const lines = result.error.issues.map((issue) => `  ${issue.path.join(".")}: ${issue.message}`);
    throw new Error(`Invalid configuration:\n${lines.join("\n")}`);
  }
  const env = result.data;
  return {
    ...env,
    // Outside production a fixed secret keeps dev cookies valid across restarts.
    SESSION_SECRET: env.SESSION_SECRET ?? "development-only-session-secret-change-me",
    DATA_ENCRYPTION_KEY: env.DATA_ENCRYPTION_KEY ?? DEVELOPMENT_DATA_KEY,
    PAYMENT_PROVIDER: env.PAYMENT_PROVIDER ?? "sandbox",
    REQUIRE_STAFF_2FA: env.REQUIRE_STAFF_2FA ?? env.NODE_ENV === "production",
    APP_URL: (env.APP_URL ?? `http://localhost:${env.PORT}`).replace(/\/+$/, ""),
    FILES_DIR: env.FILES_DIR ?? join(dirname(env.DATABASE_PATH), "files"),
  };
}

export const env: Env = parseEnv(process.env);

export function publicEnv() {
  return {
    intercomAppId: env.INTERCOM_APP_ID ?? null,
    // The sandbox never charges; Stripe test keys do not either. Every page says so.
    paymentsInTestMode:
      env.PAYMENT_PROVIDER === "sandbox" ||
      (env.STRIPE_SECRET_KEY?.startsWith("sk_test_") ?? false),
  };
}
