import { describe, expect, it } from "vitest";
import { contentSecurityPolicy, INTERCOM_SOURCES } from "#app/web/security.server";

const HASHES = ["c2NyaXB0LW9uZQ==", "c2NyaXB0LXR3bw=="];
const base = { PAYMENT_PROVIDER: "sandbox", NODE_ENV: "production" } as const;

/** The policy as directive -> sources. */
function directives(policy: string): Record<string, string[]> {
  return Object.fromEntries(
    policy.split("; ").map((part) => {
      const [name = "", ...sources] = part.split(" ");
      return [name, sources];
    }),
  );
}

describe("contentSecurityPolicy", () => {
  it("names no third-party host when no chat app id is configured", () => {
    const policy = contentSecurityPolicy(HASHES, { ...base, INTERCOM_APP_ID: undefined });
    expect(policy).not.toMatch(/intercom/i);
    expect(directives(policy)).toMatchObject({
      "default-src": ["'self'"],
      "script-src": [
        "'self'",
        "'sha256-c2NyaXB0LW9uZQ=='",
        "'sha256-c2NyaXB0LXR3bw=='",
        "'strict-dynamic'",
      ],
      "img-src": ["'self'", "data:"],
      "font-src": ["'self'"],
      "media-src": ["'self'"],
      "connect-src": ["'self'"],
      "frame-src": ["'self'"],
      "form-action": ["'self'"],
      "frame-ancestors": ["'none'"],
      "object-src": ["'none'"],
    });
  });

  it("lets the chat widget load, talk and show media when an app id is configured", () => {
    const policy = contentSecurityPolicy(HASHES, { ...base, INTERCOM_APP_ID: "abc123" });
    const parsed = directives(policy);
    for (const [directive, sources] of Object.entries(INTERCOM_SOURCES)) {
      expect(parsed[directive], directive).toEqual(expect.arrayContaining(["'self'", ...sources]));
    }
    // The realtime conversation runs over WebSockets.
    expect(parsed["connect-src"]).toContain("wss://nexus-websocket-a.intercom.io");
    // The page's own scripts' hashes still gate scripts; nothing else is widened.
    expect(parsed["script-src"]?.slice(0, 4)).toEqual([
      "'self'",
      "'sha256-c2NyaXB0LW9uZQ=='",
      "'sha256-c2NyaXB0LXR3bw=='",
      "'strict-dynamic'",
    ]);
    expect(parsed["script-src"]).not.toContain("'unsafe-inline'");
    expect(parsed["script-src"]).not.toContain("'unsafe-eval'");
    expect(parsed["default-src"]).toEqual(["'self'"]);
    expect(parsed["style-src"]).toEqual(["'self'", "'unsafe-inline'"]);
    expect(parsed["form-action"]).toEqual(["'self'"]);
    expect(parsed["frame-ancestors"]).toEqual(["'none'"]);
  });

  it("lets the audio player follow a download to object storage, and only then", () => {
    const local = directives(contentSecurityPolicy(HASHES, base));
    expect(local["media-src"]).toEqual(["'self'"]);
    const tigris = contentSecurityPolicy(HASHES, {
      ...base,
      S3_BUCKET: "files",
      S3_ENDPOINT: "https://fly.storage.tigris.dev/",
    });
    expect(directives(tigris)["media-src"]).toEqual(["'self'", "https://fly.storage.tigris.dev"]);
    expect(directives(tigris)["connect-src"]).toEqual(["'self'"]);
    const aws = contentSecurityPolicy(HASHES, {
      ...base,
      S3_BUCKET: "files",
      S3_REGION: "us-east-2",
    });
    expect(directives(aws)["media-src"]).toEqual([
      "'self'",
      "https://files.s3.us-east-2.amazonaws.com",
    ]);
  });

  it("allows Stripe's checkout only with the Stripe provider", () => {
    const stripe = contentSecurityPolicy(HASHES, {
      ...base,
      PAYMENT_PROVIDER: "stripe",
      INTERCOM_APP_ID: undefined,
    });
    expect(directives(stripe)["form-action"]).toEqual(["'self'", "https://checkout.stripe.com"]);
  });
});
