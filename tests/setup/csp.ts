import { createHash } from "node:crypto";

/** The CSP hash of every inline script in a page, as a browser computes it: its text between the tags. */
export function inlineScriptHashes(html: string): string[] {
  return [...html.matchAll(/<script\b(?![^>]*\ssrc=)[^>]*>([\s\S]*?)<\/script>/gi)].map(
    ([, text]) =>
      `'sha256-${createHash("sha256")
        .update(text ?? "", "utf8")
        .digest("base64")}'`,
  );
}

/** The sources of a policy's script-src. */
export function scriptSources(csp: string): string[] {
  const directive = csp.split(";").find((part) => part.trim().startsWith("script-src")) ?? "";
  return directive.trim().split(/\s+/).slice(1);
}
