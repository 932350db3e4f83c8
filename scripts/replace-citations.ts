/**
 * Points comments at the repository's own documents: rewrites each citation form listed in
 * `docs/citations.tsv` (exact text, a tab, its replacement) inside comments and test titles,
 * then reports what it changed and every reference to an outside document it could not map.
 *
 *   npx tsx scripts/replace-citations.ts [--dry-run] [--check] [--table <file>] [<path>...]
 *
 * Paths default to app/, db/, tests/, scripts/, server/ and the top-level .ts/.js files.
 * `--dry-run` writes nothing; `--check` exits 1 while any unmapped reference is left (for CI).
 *
 * Only comments and the titles of `describe`/`it`/`test` are touched: a user-visible string
 * never changes. A citation may be wrapped over two comment lines ("\n * "); the line break is
 * kept in the replacement. A table line whose replacement equals its text marks a phrase that
 * merely looks like a citation (a Playwright spec file, say) and is left alone.
 * Running it twice changes nothing the second time.
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
    else if (arg === "--check") options.check = true;
    else if (arg === "--table") options.table = argv[++i] ?? options.table;
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
  const words = to.split(" ");
  const breaks = new Map<number, string>();
  let wordIndex = 0;
  for (const gap of matched.matchAll(new RegExp(GAP, "g"))) {
    wordIndex++;
    if (gap[0].includes("\n")) breaks.set(Math.min(wordIndex, words.length - 1), gap[0]);
  }
  let result = words
    .map((word, index) => (index === 0 ? word : `${breaks.get(index) ?? " "}${word}`))
    .join("");
  if (quote === '"') result = result.replaceAll('"', "'");
  else if (quote) result = result.replaceAll(quote, `\\${quote}`);
  return result;
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

  const changedFiles: { file: string; comments: number; titles: number }[] = [];
  const unmapped: string[] = [];
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
      // What no form covered, in the text as it will be.
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
    if (edits.length === 0) continue;
    let next = text;
    for (const edit of [...edits].sort((a, b) => b.start - a.start)) {
      next = next.slice(0, edit.start) + edit.text + next.slice(edit.end);
    }
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
  if (options.check && unmapped.length > 0) process.exitCode = 1;
}

main();
