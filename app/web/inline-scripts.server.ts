import { createHash, randomBytes } from "node:crypto";

/** The mark (a nonce) a render puts on its own inline scripts: made for it, so no text of its data can carry it. */
export function newScriptMark(): string {
  return randomBytes(16).toString("base64url");
}

const SCRIPT_END = "</script";

/** The page unmarked, the same bytes for every visitor, and the CSP hash of each marked script's text (decision 0095). */
export function hashMarkedScripts(
  page: Buffer<ArrayBuffer>,
  mark: string,
): { html: Buffer<ArrayBuffer>; hashes: string[] } {
  const html = page.toString("utf8");
  const attribute = ` nonce="${mark}"`;
  const hashes = new Set<string>();
  const parts: string[] = [];
  let from = 0;
  for (let at = html.indexOf(attribute); at !== -1; at = html.indexOf(attribute, from)) {
    parts.push(html.slice(from, at));
    from = at + attribute.length;
    if (!html.startsWith("<script", html.lastIndexOf("<", at))) continue;
    const start = html.indexOf(">", from) + 1;
    const end = html.indexOf(SCRIPT_END, start);
    if (start === 0 || end === -1) continue;
    hashes.add(createHash("sha256").update(html.slice(start, end), "utf8").digest("base64"));
  }
  if (from === 0) return { html: page, hashes: [] };
  parts.push(html.slice(from));
  return { html: Buffer.from(parts.join(""), "utf8"), hashes: [...hashes] };
}
