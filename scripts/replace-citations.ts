/**
 * Points comments at the repository's own documents: rewrites each citation form listed in
 * `docs/citations.tsv` (exact text, a tab, its replacement) inside comments and test titles,
 * then reports what it changed and every reference to an outside document it could not map.
 *
 *   npx tsx scripts/replace-citations.ts [--dry-run] [--check] [--table <file>] [<path>...]
 *
 * Paths default to app/, db/, tests/, scripts/, server/ and the top-level .ts/.js files.
 * `--dry-run` writes nothing. `--check` (for CI) writes nothing either and exits 1 while a
 * citation is left to rewrite, an outside reference is unmapped, or a citation is dead: a
 * `docs/product.md "<heading>"` (or quality.md) with no such heading, or a record (`decision NNNN`,
 * `docs/decisions/NNNN-...`) that is not in docs/decisions/.
 *
 * Only comments and the titles of `describe`/`it`/`test` are touched: a user-visible string
 * never changes (in a title, the replacement's double quotes become single ones). A citation may
 * be wrapped over two comment lines ("\n * "): the break is kept, outside any cited heading, and a
 * comment line the replacement pushes past 100 columns is rewrapped to the end of its paragraph.
 * A table line whose replacement equals its text marks a phrase that merely looks like a
 * citation (a Playwright spec file, say) and is left alone. Running it twice changes nothing the
 * second time.
 */
import { readdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import path from "node:path";
import ts from "typescript";

type Form = { from: string; to: string; keep: boolean; count: number };
type Region = { start: number; end: number; quote: string | null };
type Edit = { start: number; end: number; text: string; form: Form };

const SOURCE_EXTENSIONS = [".ts", ".tsx", ".js", ".mjs", ".cjs"];
const DEFAULT_PATHS = ["app", "db", "tests", "scripts", "server"];
const SKIPPED_DIRS = new Set(["node_modules", "build", ".react-router", "migrations"]);
const SELF = path.resolve(import.meta.dirname, "replace-citations.ts");

/** A space in a form matches a space run or a line break with the next comment line's prefix. */
const GAP = String.raw`(?:[ \t]*\r?\n[ \t]*(?:\*(?!/)|//)?[ \t]*|[ \t]+)`;

/** Anything that still names a document outside the repository, after the table ran. */
const OUTSIDE_REFERENCE =
  /(?<![\w.\-/])(?:[Ss]pec(?:s|'s)?\b(?!\.ts)|product-decisions(?:\.md)?|quality\.md|architecture\.md)/g;

/** `docs/deploy.md`, `docs/product.md "A", "B" and "C"`: a document and the headings cited. */
const DOCUMENT_CITATION =
  /(?<![\w-])(docs\/[\w-]+|product|quality)\.md((?:(?:,|,? and|,? or)? (?:"[^"\n]+"|'[^'\n]+'))*)/g;
const DECISION_CITATION = /\b(?:decisions? (\d{4})\b|docs\/decisions\/(\d{4})(-[\w.-]*\.md)?)/gi;

const headingsByFile = new Map<string, Set<string> | null>();

/** The headings of a document of the repository, or null when there is no such file. */
function headingsOf(file: string): Set<string> | null {
  if (!headingsByFile.has(file)) {
    const text = statSync(file, { throwIfNoEntry: false }) ? readFileSync(file, "utf8") : null;
    const headings = text?.matchAll(/^#+ (.+)$/gm) ?? [];
    headingsByFile.set(
      file,
      text === null ? null : new Set([...headings].map((m) => (m[1] ?? "").trim())),
    );
  }
  return headingsByFile.get(file) ?? null;
}

/** Why a citation in this (flattened) comment points nowhere, one line per dead citation. */
function deadCitations(body: string, records: string[]): string[] {
  const dead: string[] = [];
  for (const match of body.matchAll(DOCUMENT_CITATION)) {
    const document = `${match[1]?.startsWith("docs/") ? "" : "docs/"}${match[1]}.md`;
    const headings = headingsOf(document);
    if (!headings) dead.push(`no ${document} in the repository`);
    for (const quoted of (match[2] ?? "").matchAll(/"([^"]+)"|'([^']+)'/g)) {
      const heading = quoted[1] ?? quoted[2] ?? "";
      if (headings && !headings.has(heading)) dead.push(`${document} has no heading "${heading}"`);
    }
  }
  for (const match of body.matchAll(DECISION_CITATION)) {
    const number = match[1] ?? match[2] ?? "";
    const file = match[3] ? `${number}${match[3]}` : null;
    const found = file ? records.includes(file) : records.some((r) => r.startsWith(`${number}-`));
    if (!found) dead.push(`no decision record ${file ?? number} in docs/decisions/`);
  }
  return dead;
}

function deadIn(file: string, text: string, records: string[]): string[] {
  return regionsOf(file, text).flatMap((region) =>
    deadCitations(flatten(text.slice(region.start, region.end)), records).map(
      (reason) => `${file}:${lineOf(text, region.start)}: ${reason}`,
    ),
  );
}

function parseArgs(argv: string[]) {
  const options = {
    dryRun: false,
    check: false,
    table: "docs/citations.tsv",
    paths: [] as string[],
  };
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i] ?? "";
    if (arg === "--dry-run") options.dryRun = true;
    else if (arg === "--check") {
      options.check = true;
      options.dryRun = true;
    } else if (arg === "--table") options.table = argv[++i] ?? options.table;
    else if (arg.startsWith("--")) throw new Error(`Unknown option ${arg}`);
    else options.paths.push(arg);
  }
  if (options.paths.length === 0) {
    const topLevel = readdirSync(".").filter(
      (name) => SOURCE_EXTENSIONS.includes(path.extname(name)) && statSync(name).isFile(),
    );
    options.paths = [...DEFAULT_PATHS, ...topLevel];
  }
  return options;
}

function readTable(file: string): Form[] {
  const forms: Form[] = [];
  for (const [index, line] of readFileSync(file, "utf8").split("\n").entries()) {
    if (line.trim() === "" || line.startsWith("#")) continue;
    const [from, to, ...rest] = line.split("\t");
    if (!from || to === undefined || rest.length > 0) {
      throw new Error(`${file}:${index + 1}: expected "<text>\\t<replacement>"`);
    }
    forms.push({ from, to, keep: from === to, count: 0 });
  }
  // Longest first: at one position the fullest form wins ("spec section 2 "Sales tab"" over
  // "spec section 2").
  return forms.sort((a, b) => b.from.length - a.from.length);
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}

function formPattern(forms: Form[]): RegExp {
  if (forms.length === 0) return /(?!)/g;
  const alternatives = forms.map((form) => {
    const body = form.from.split(" ").map(escapeRegExp).join(GAP);
    const tail = /\w$/.test(form.from) ? String.raw`(?![\w])` : "";
    return `(${body}${tail})`;
  });
  return new RegExp(String.raw`(?<![\w.\-/])(?:${alternatives.join("|")})`, "g");
}

function listFiles(entry: string): string[] {
  const stat = statSync(entry, { throwIfNoEntry: false });
  if (!stat) return [];
  if (stat.isFile()) return SOURCE_EXTENSIONS.includes(path.extname(entry)) ? [entry] : [];
  if (SKIPPED_DIRS.has(path.basename(entry))) return [];
  return readdirSync(entry)
    .sort()
    .flatMap((name) => listFiles(path.join(entry, name)));
}

/** The comments of a file, and the title strings of its describe/it/test calls. */
function regionsOf(file: string, text: string): Region[] {
  const kind = file.endsWith(".tsx")
    ? ts.ScriptKind.TSX
    : file.endsWith(".ts")
      ? ts.ScriptKind.TS
      : ts.ScriptKind.JS;
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true, kind);
  const regions = new Map<number, Region>();
  const addComments = (ranges: readonly ts.CommentRange[] | undefined) => {
    for (const range of ranges ?? []) {
      regions.set(range.pos, { start: range.pos, end: range.end, quote: null });
    }
  };
  const visit = (node: ts.Node) => {
    // JSX text is content, not trivia: "// like this" inside it is shown to people.
    if (node.kind === ts.SyntaxKind.JsxText) return;
    addComments(ts.getLeadingCommentRanges(text, node.getFullStart()));
    addComments(ts.getTrailingCommentRanges(text, node.getEnd()));
    if (ts.isCallExpression(node) && /^(describe|it|test)\b/.test(node.expression.getText())) {
      const title = node.arguments[0];
      if (title && (ts.isStringLiteral(title) || ts.isNoSubstitutionTemplateLiteral(title))) {
        const start = title.getStart();
        regions.set(start, { start: start + 1, end: title.getEnd() - 1, quote: text[start] ?? "" });
      }
    }
    for (const child of node.getChildren(source)) visit(child);
  };
  visit(source);
  return [...regions.values()].sort((a, b) => a.start - b.start);
}

/** The replacement, wrapped where the cited text was wrapped and quoted to fit a string. */
function shape(matched: string, to: string, quote: string | null): string {
  // Where a line break may go: a space outside double quotes, so a cited heading stays whole.
  const spaces: number[] = [];
  let quotes = 0;
  for (let i = 0; i < to.length; i++) {
    if (to[i] === '"') quotes++;
    else if (to[i] === " " && quotes % 2 === 0) spaces.push(i);
  }
  const words = (end: number) => to.slice(0, end).split(" ").length;
  let result = to;
  let wordIndex = 0;
  const breaks: { at: number; gap: string }[] = [];
  for (const gap of matched.matchAll(new RegExp(GAP, "g"))) {
    wordIndex++;
    if (!gap[0].includes("\n") || spaces.length === 0) continue;
    const at = spaces.reduce((best, space) =>
      Math.abs(words(space) - wordIndex) < Math.abs(words(best) - wordIndex) ? space : best,
    );
    if (!breaks.some((b) => b.at === at)) breaks.push({ at, gap: gap[0] });
  }
  for (const { at, gap } of breaks.sort((a, b) => b.at - a.at)) {
    result = result.slice(0, at) + gap + result.slice(at + 1);
  }
  if (quote === '"') result = result.replaceAll('"', "'");
  else if (quote) result = result.replaceAll(quote, `\\${quote}`);
  return result;
}

const WIDTH = 100;
/** Words of a comment; a backtick span or a cited heading is never split over two lines. */
const TOKEN =
  /docs\/(?:product|quality)\.md "[^"\n]{0,60}"\S*|`[^`\n]*`\S*|"[^"\n]{0,40}"\S*|'[^'\n]{0,40}'\S*|\S+/g;
const LIST_MARKER = /^(?:[-*] |\d+\. )/;

function fill(words: string[], first: string, rest: string): string[] {
  const lines: string[] = [];
  let line = first;
  let empty = true;
  for (const word of words) {
    if (!empty && line.length + 1 + word.length > WIDTH) {
      lines.push(line);
      line = rest;
      empty = true;
    }
    line += empty ? word : ` ${word}`;
    empty = false;
  }
  lines.push(line);
  return lines;
}

/**
 * Rewraps the comment paragraphs whose lines a replacement pushed past 100 columns, from that
 * line to the end of its paragraph (a one-line block comment becomes a block). Lines the table
 * did not touch, code and trailing comments after code are left as they are.
 */
function reflow(text: string, touched: Set<number>): string {
  const lines = text.split("\n");
  // Bottom up: rewrapping a paragraph never moves the touched lines above it.
  for (let i = lines.length - 1; i >= 0; i--) {
    const trigger = lines[i] ?? "";
    if (trigger.length <= WIDTH || !touched.has(i)) continue;
    // Start at the paragraph's first touched line, so a wrapped citation does not leave a short
    // line above it.
    const prefix = /^(\s*(?:\*|\/\/) +)\S/.exec(trigger)?.[1];
    while (prefix && i > 0 && touched.has(i - 1)) {
      const previous = lines[i - 1] ?? "";
      const sameParagraph =
        previous.startsWith(prefix) &&
        /^\S/.test(previous.slice(prefix.length)) &&
        !previous.includes("*/");
      const opensIt = /^\s*\/\*\*? \S/.test(previous) && !previous.includes("*/");
      if (!sameParagraph && !opensIt) break;
      i--;
      if (opensIt) break;
    }
    const line = lines[i] ?? "";
    const single = /^(\s*)(\/\*\*?) (.*?) ?\*\/\s*$/.exec(line);
    if (single) {
      const [, indent = "", opener = "", body = ""] = single;
      const filled = fill(body.match(TOKEN) ?? [], `${indent} * `, `${indent} * `);
      lines.splice(i, 1, `${indent}${opener}`, ...filled, `${indent} */`);
      continue;
    }
    const opening = /^(\s*)(\/\*\*? )(.*)$/.exec(line);
    const inner = /^(\s*(?:\*|\/\/) +)(.*)$/.exec(line);
    const head = opening
      ? { prefix: `${opening[1]}${opening[2]}`, rest: `${opening[1]} * `, body: opening[3] ?? "" }
      : inner
        ? { prefix: inner[1] ?? "", rest: inner[1] ?? "", body: inner[2] ?? "" }
        : null;
    if (!head) continue;
    // A comment that closes on this line is its paragraph's end; code after a comment is not ours.
    const closes = /\*\/\s*$/.test(head.body);
    if (head.body.includes("*/") && !closes) continue;
    const marker = LIST_MARKER.exec(head.body);
    const rest = marker ? head.rest + " ".repeat(marker[0].length) : head.rest;
    const words: string[] = [...(head.body.match(TOKEN) ?? [])];
    let end = i + 1;
    for (; !closes && end < lines.length; end++) {
      const next = lines[end] ?? "";
      if (!next.startsWith(rest)) break;
      const body = next.slice(rest.length);
      if (body.trim() === "" || /^\s/.test(body) || LIST_MARKER.test(body) || body.includes("*/")) {
        break;
      }
      words.push(...(body.match(TOKEN) ?? []));
    }
    lines.splice(i, end - i, ...fill(words, head.prefix, rest));
  }
  return lines.join("\n");
}

function lineOf(text: string, offset: number): number {
  let line = 1;
  for (let i = 0; i < offset; i++) if (text.charCodeAt(i) === 10) line++;
  return line;
}

function flatten(text: string): string {
  return text.replace(new RegExp(GAP, "g"), " ");
}

function main() {
  const options = parseArgs(process.argv.slice(2));
  const forms = readTable(options.table);
  const pattern = formPattern(forms);
  const files = options.paths.flatMap(listFiles).filter((file) => path.resolve(file) !== SELF);

  const records = readdirSync("docs/decisions").filter((name) => /^\d{4}-/.test(name));

  const changedFiles: { file: string; comments: number; titles: number }[] = [];
  const unmapped: string[] = [];
  const dead: string[] = [];
  for (const file of files) {
    const text = readFileSync(file, "utf8");
    const edits: Edit[] = [];
    const kept: [number, number][] = [];
    let comments = 0;
    let titles = 0;
    for (const region of regionsOf(file, text)) {
      const body = text.slice(region.start, region.end);
      let touched = false;
      for (const match of body.matchAll(pattern)) {
        const form = forms[match.slice(1).findIndex((group) => group !== undefined)];
        if (!form || match.index === undefined) continue;
        const start = region.start + match.index;
        form.count++;
        if (form.keep) {
          kept.push([start, start + match[0].length]);
          continue;
        }
        edits.push({
          start,
          end: start + match[0].length,
          text: shape(match[0], form.to, region.quote),
          form,
        });
        touched = true;
      }
      if (touched && region.quote === null) comments++;
      if (touched && region.quote !== null) titles++;
      // Whatever still names an outside document and no table line covered.
      for (const found of body.matchAll(OUTSIDE_REFERENCE)) {
        const at = region.start + (found.index ?? 0);
        const covered = [...edits.map((edit) => [edit.start, edit.end]), ...kept].some(
          ([from = 0, to = 0]) => at >= from && at < to,
        );
        if (!covered) {
          const context = flatten(text.slice(at, Math.min(region.end, at + 160)));
          unmapped.push(`${file}:${lineOf(text, at)}: ${context}`);
        }
      }
    }
    if (edits.length === 0) {
      dead.push(...deadIn(file, text, records));
      continue;
    }
    let next = "";
    let from = 0;
    const touched = new Set<number>();
    for (const edit of [...edits].sort((a, b) => a.start - b.start)) {
      next += text.slice(from, edit.start);
      const firstLine = next.split("\n").length - 1;
      next += edit.text;
      for (let line = firstLine; line < next.split("\n").length; line++) touched.add(line);
      from = edit.end;
    }
    next = reflow(next + text.slice(from), touched);
    dead.push(...deadIn(file, next, records));
    changedFiles.push({ file, comments, titles });
    if (!options.dryRun) writeFileSync(file, next);
  }

  const verb = options.dryRun ? "would change" : "changed";
  const totalComments = changedFiles.reduce((sum, file) => sum + file.comments, 0);
  const totalTitles = changedFiles.reduce((sum, file) => sum + file.titles, 0);
  const totalCitations = forms.filter((form) => !form.keep).reduce((s, f) => s + f.count, 0);
  console.log(
    `${verb} ${totalCitations} citations in ${totalComments} comments and ${totalTitles} test titles, in ${changedFiles.length} of ${files.length} files`,
  );
  for (const { file, comments, titles } of changedFiles) {
    console.log(`  ${file}: ${comments} comments${titles ? `, ${titles} test titles` : ""}`);
  }
  console.log("\nPer form (table order: longest first):");
  for (const form of forms) {
    console.log(`  ${String(form.count).padStart(3)}  ${form.from}${form.keep ? "  (kept)" : ""}`);
  }
  const unused = forms.filter((form) => form.count === 0);
  if (unused.length > 0) console.log(`\n${unused.length} table lines matched nothing.`);
  console.log(`\nUnmapped references to outside documents: ${unmapped.length}`);
  for (const line of unmapped) console.log(`  ${line}`);
  console.log(`\nDead citations (no such heading or decision record): ${dead.length}`);
  for (const line of dead) console.log(`  ${line}`);
  const left = changedFiles.length > 0 || unmapped.length > 0 || dead.length > 0;
  if (options.check && left) process.exitCode = 1;
}

main();
