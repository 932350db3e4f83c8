import { execFileSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

/**
 * A PDF's text as a reader sees it, by poppler's `pdftotext` (Debian's poppler-utils, installed
 * by .ci/run): the receipts' tests read back the figures the file really shows.
 */
export function pdfText(pdf: Uint8Array): string {
  const dir = mkdtempSync(join(tmpdir(), "pdf-text-"));
  try {
    const file = join(dir, "document.pdf");
    writeFileSync(file, pdf);
    return execFileSync("pdftotext", ["-layout", "-enc", "UTF-8", file, "-"], {
      encoding: "utf8",
    });
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** The text with its runs of spaces made one, so a test need not know the layout's columns. */
export function pdfWords(pdf: Uint8Array): string {
  return pdfText(pdf).replace(/[ \t]+/g, " ");
}
