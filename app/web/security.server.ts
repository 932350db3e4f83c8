import { data, type MiddlewareFunction } from "react-router";
import { env } from "#app/env.server";
import { scriptHashesContext } from "#app/web/request-context.server";
import { SIGN_IN_COOKIE_NAME } from "#app/web/sign-in.server";

const SAFE_METHODS = new Set(["GET", "HEAD", "OPTIONS"]);

/** React Router checks the Origin of page actions but not of resource routes, so /api/* relies on this. A request with neither header is not from a browser page. */
export function isCrossSiteWrite(request: Request): boolean {
  if (SAFE_METHODS.has(request.method)) return false;
  const fetchSite = request.headers.get("Sec-Fetch-Site");
  if (fetchSite && fetchSite !== "same-origin" && fetchSite !== "none") return true;
  const origin = request.headers.get("Origin");
  if (origin === null) return false;
  return origin !== new URL(request.url).origin;
}

/** Intercom help article 3894 "Using Intercom with Content Security Policy", US workspace, messenger only. */
export const INTERCOM_SOURCES = {
  "script-src": [
    "https://app.intercom.io",
    "https://widget.intercom.io",
    "https://js.intercomcdn.com",
  ],
  "connect-src": [
    "https://via.intercom.io",
    "https://api.intercom.io",
    "https://api-iam.intercom.io",
    "https://api-ping.intercom.io",
    "https://*.intercom-messenger.com",
    "wss://*.intercom-messenger.com",
    "https://nexus-websocket-a.intercom.io",
    "wss://nexus-websocket-a.intercom.io",
    "https://nexus-websocket-b.intercom.io",
    "wss://nexus-websocket-b.intercom.io",
    "https://uploads.intercomcdn.com",
    "https://uploads.intercomusercontent.com",
  ],
  "img-src": [
    "blob:",
    "https://js.intercomcdn.com",
    "https://static.intercomassets.com",
    "https://downloads.intercomcdn.com",
    "https://uploads.intercomusercontent.com",
    "https://gifs.intercomcdn.com",
    "https://video-messages.intercomcdn.com",
    "https://messenger-apps.intercom.io",
    "https://*.intercom-attachments-5.com",
    "https://*.intercom-attachments-6.com",
    "https://*.intercom-attachments-9.com",
  ],
  "font-src": ["https://js.intercomcdn.com", "https://fonts.intercomcdn.com"],
  "media-src": ["https://js.intercomcdn.com"],
  "frame-src": ["https://intercom-sheets.com", "https://www.intercom-reporting.com"],
} as const;

type PolicySettings = Pick<typeof env, "PAYMENT_PROVIDER" | "INTERCOM_APP_ID" | "NODE_ENV"> &
  Partial<Pick<typeof env, "S3_BUCKET" | "S3_ENDPOINT" | "S3_REGION">>;

/** docs/product.md "Session files": the audio player follows the download's redirect, which media-src must allow. */
export function fileStorageOrigin(settings: PolicySettings): string {
  if (!settings.S3_BUCKET) return "";
  if (settings.S3_ENDPOINT) return new URL(settings.S3_ENDPOINT).origin;
  return `https://${settings.S3_BUCKET}.s3.${settings.S3_REGION ?? "us-east-1"}.amazonaws.com`;
}

/** `scriptHashes`: the page's own inline scripts (app/web/inline-scripts.server.ts); no other inline script runs. */
export function contentSecurityPolicy(
  scriptHashes: readonly string[],
  settings: PolicySettings = env,
): string {
  const chat = (directive: keyof typeof INTERCOM_SOURCES) =>
    settings.INTERCOM_APP_ID ? ` ${INTERCOM_SOURCES[directive].join(" ")}` : "";
  return [
    "default-src 'self'",
    `script-src 'self'${scriptHashes.map((hash) => ` 'sha256-${hash}'`).join("")} 'strict-dynamic'${chat("script-src")}`,
    "style-src 'self' 'unsafe-inline'",
    `img-src 'self' data:${chat("img-src")}`,
    `font-src 'self'${chat("font-src")}`,
    `media-src 'self'${chat("media-src")}${settings.S3_BUCKET ? ` ${fileStorageOrigin(settings)}` : ""}`,
    `connect-src 'self'${chat("connect-src")}`,
    `frame-src 'self'${chat("frame-src")}`,
    // A checkout form's redirect to Stripe is a form navigation.
    `form-action 'self'${settings.PAYMENT_PROVIDER === "stripe" ? " https://checkout.stripe.com" : ""}`,
    "base-uri 'none'",
    "object-src 'none'",
    "frame-ancestors 'none'",
    ...(settings.NODE_ENV === "production" ? ["upgrade-insecure-requests"] : []),
  ].join("; ");
}

/** A response carrying exactly this policy keeps it (and may be framed by us); every other may not be framed. */
export const SANDBOXED_DOCUMENT_POLICY =
  "sandbox; default-src 'none'; style-src 'unsafe-inline'; img-src data:; frame-ancestors 'self'";

function hasSignInCookie(request: Request) {
  return request.headers.get("Cookie")?.includes(`${SIGN_IN_COOKIE_NAME}=`) ?? false;
}

export const securityMiddleware: MiddlewareFunction<Response> = async (
  { request, context },
  next,
) => {
  if (isCrossSiteWrite(request)) {
    const isApi = new URL(request.url).pathname.startsWith("/api/");
    throw isApi
      ? Response.json({ message: "Cross-site request refused" }, { status: 403 })
      : data("Cross-site request refused", { status: 403 });
  }

  const response = await next();
  const headers = response.headers;

  const isHtml = headers.get("Content-Type")?.includes("text/html") ?? false;
  const sandboxed = headers.get("Content-Security-Policy") === SANDBOXED_DOCUMENT_POLICY;
  if (!sandboxed) {
    headers.set(
      "Content-Security-Policy",
      isHtml
        ? contentSecurityPolicy(context.get(scriptHashesContext))
        : "default-src 'none'; frame-ancestors 'none'",
    );
  }
  headers.set("X-Content-Type-Options", "nosniff");
  headers.set("Referrer-Policy", "strict-origin-when-cross-origin");
  headers.set("X-Frame-Options", sandboxed ? "SAMEORIGIN" : "DENY");
  headers.set("Cross-Origin-Opener-Policy", "same-origin");
  headers.set("Permissions-Policy", "camera=(), microphone=(), geolocation=(), payment=(self)");
  if (env.NODE_ENV === "production") {
    headers.set("Strict-Transport-Security", "max-age=63072000; includeSubDomains");
  }
  if (hasSignInCookie(request) || headers.has("Set-Cookie")) {
    headers.set("Cache-Control", "private, no-store");
  } else if (!headers.has("Cache-Control")) {
    headers.set("Cache-Control", "no-cache");
  }
  return response;
};
