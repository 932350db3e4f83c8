/**
 * Share of comment lines in the app: lines holding nothing but comment (JSX `{/* ... *\/}`
 * included) over non-blank lines, in app/**\/*.ts(x) without the tests (`*.test.ts(x)`).
 *
 *   npx tsx scripts/comment-ratio.ts [--by-folder] [--check] [--max <percent>]
 *
 * `--by-folder` lists each folder under app/ (top-level files each on their own line);
 * `--check` exits 1 above the bar (9 %, or `--max`): comments say why, the code says what.
 */
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import ts from "typescript";

type Count = { comment: number; lines: number };

function parseArgs(argv: string[]) {
  const options = { byFolder: false, check: false, max: 9 };
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    if (arg === "--by-folder") options.byFolder = true;
    else if (arg === "--check") options.check = true;
    else if (arg === "--max") options.max = Number(argv[++i]);
    else throw new Error(`Unknown option ${arg}`);
  }
  if (!Number.isFinite(options.max)) throw new Error("--max takes a number");
  return options;
}

function listFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true })
    .flatMap((entry) => {
      const full = path.join(dir, entry.name);
      if (entry.isDirectory()) return listFiles(full);
      return /\.tsx?$/.test(entry.name) && !/\.test\.tsx?$/.test(entry.name) ? [full] : [];
    })
    .sort();
}

/** Offsets covered by comments, found by the scanner so strings and JSX text never count. */
function commentMask(file: string, text: string): Uint8Array {
  const mask = new Uint8Array(text.length);
  const kind = file.endsWith(".tsx") ? ts.ScriptKind.TSX : ts.ScriptKind.TS;
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true, kind);
  const mark = (ranges: readonly ts.CommentRange[] | undefined) => {
    for (const range of ranges ?? []) mask.fill(1, range.pos, range.end);
  };
  const visit = (node: ts.Node) => {
    if (node.kind === ts.SyntaxKind.JsxText) return;
    mark(ts.getLeadingCommentRanges(text, node.getFullStart()));
    mark(ts.getTrailingCommentRanges(text, node.getEnd()));
    for (const child of node.getChildren(source)) visit(child);
  };
  visit(source);
  return mask;
}

function countFile(file: string): Count {
  const text = readFileSync(file, "utf8");
  const mask = commentMask(file, text);
  const count: Count = { comment: 0, lines: 0 };
  let start = 0;
  for (const line of text.split("\n")) {
    let code = false;
    let comment = false;
    for (let i = 0; i < line.length; i++) {
      const char = line[i] ?? "";
      if (/\s/.test(char)) continue;
      if (mask[start + i]) comment = true;
      // The braces around a JSX comment are its syntax, not code.
      else if (char !== "{" && char !== "}") code = true;
    }
    if (code || comment) count.lines++;
    if (comment && !code) count.comment++;
    start += line.length + 1;
  }
  return count;
}

function percent({ comment, lines }: Count): string {
  return `${((100 * comment) / Math.max(lines, 1)).toFixed(1)} %`;
}

function main() {
  const options = parseArgs(process.argv.slice(2));
  const folders = new Map<string, Count>();
  const total: Count = { comment: 0, lines: 0 };
  for (const file of listFiles("app")) {
    const count = countFile(file);
    const folder = file.split(path.sep).slice(0, 2).join("/");
    const entry = folders.get(folder) ?? { comment: 0, lines: 0 };
    entry.comment += count.comment;
    entry.lines += count.lines;
    folders.set(folder, entry);
    total.comment += count.comment;
    total.lines += count.lines;
  }
  if (options.byFolder) {
    for (const [folder, count] of [...folders].sort(([a], [b]) => a.localeCompare(b))) {
      const share = percent(count).padStart(7);
      console.log(`${share}  ${String(count.comment).padStart(5)} / ${count.lines}  ${folder}`);
    }
  }
  console.log(
    `Comments: ${percent(total)} of non-blank app lines (${total.comment} of ${total.lines}); at most ${options.max} %`,
  );
  if (options.check && (100 * total.comment) / Math.max(total.lines, 1) > options.max) {
    process.exitCode = 1;
  }
}

main();
