/**
 * HTTP Range requests on a download (RFC 9110 section 14): one range of bytes, so a download
 * that stopped resumes where it was. Several ranges in one request are answered with the whole
 * file, as the RFC allows; a header that is not a byte range is ignored the same way.
 */

/** Both ends included, as Content-Range counts them. */
export type ByteRange = { start: number; end: number };

export type RangeAnswer =
  | { kind: "whole" }
  | { kind: "partial"; range: ByteRange }
  | { kind: "unsatisfiable" };

const SINGLE = /^bytes=(\d*)-(\d*)$/i;

export function parseRange(header: string | null, size: number): RangeAnswer {
  if (header === null) return { kind: "whole" };
  const match = SINGLE.exec(header.trim());
  if (!match) return { kind: "whole" };
  const [, first = "", last = ""] = match;
  if (first === "" && last === "") return { kind: "whole" };
  if (first === "") {
    // A suffix: the last N bytes.
    const length = Number(last);
    if (length === 0 || size === 0) return { kind: "unsatisfiable" };
    return { kind: "partial", range: { start: Math.max(0, size - length), end: size - 1 } };
  }
  const start = Number(first);
  if (!Number.isSafeInteger(start)) return { kind: "unsatisfiable" };
  if (last !== "" && Number(last) < start) return { kind: "whole" };
  if (start >= size) return { kind: "unsatisfiable" };
  const end = last === "" ? size - 1 : Math.min(Number(last), size - 1);
  return { kind: "partial", range: { start, end } };
}

/**
 * Whether a Range may be honoured: without If-Range always; with it only when it names the
 * current version (the strong ETag, or the exact Last-Modified date), so a resumed download
 * never splices bytes of two versions together.
 */
export function rangeStillValid(
  ifRange: string | null,
  current: { etag: string; lastModified: string },
): boolean {
  if (ifRange === null) return true;
  const value = ifRange.trim();
  if (value.startsWith('"')) return value === current.etag;
  if (value.startsWith("W/")) return false;
  return value === current.lastModified;
}
