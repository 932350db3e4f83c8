/**
 * Run by compression.ts inside a Fly-shaped cgroup: the CPU each compression setting costs per
 * response, compressing each body as the compression middleware does (a new stream per
 * response, the whole body written, read to its end), and the bytes it makes. Reads the bodies
 * and settings from the JSON file named by its argument; prints one JSON result per line.
 */
import { readFileSync } from "node:fs";
import { constants, createBrotliCompress, createGzip } from "node:zlib";

export type CodecSetting =
  | { encoder: "gzip"; level: number }
  | { encoder: "br"; quality: number; window: number; sizeHint: boolean };
export type CodecInput = { bodies: { id: string; path: string }[]; settings: CodecSetting[] };
export type CodecResult = { id: string; setting: CodecSetting; cpuMs: number; bytes: number };

/** Each measurement runs at least this many responses and this long. */
const MIN_RUNS = 20;
const MIN_MS = 400;

function stream(setting: CodecSetting, size: number) {
  if (setting.encoder === "gzip") return createGzip({ level: setting.level });
  return createBrotliCompress({
    params: {
      [constants.BROTLI_PARAM_QUALITY]: setting.quality,
      [constants.BROTLI_PARAM_LGWIN]: setting.window,
      ...(setting.sizeHint ? { [constants.BROTLI_PARAM_SIZE_HINT]: size } : {}),
    },
  });
}

function compressOnce(body: Buffer, setting: CodecSetting): Promise<number> {
  return new Promise((resolve, reject) => {
    const encoder = stream(setting, body.byteLength);
    let bytes = 0;
    encoder.on("data", (chunk: Buffer) => {
      bytes += chunk.byteLength;
    });
    encoder.on("end", () => resolve(bytes));
    encoder.on("error", reject);
    encoder.end(body);
  });
}

const cpuNow = () => {
  const { user, system } = process.cpuUsage();
  return (user + system) / 1000;
};

const input = JSON.parse(readFileSync(process.argv[2] ?? "", "utf8")) as CodecInput;
for (const { id, path } of input.bodies) {
  const body = readFileSync(path);
  for (const setting of input.settings) {
    for (let warm = 0; warm < 3; warm += 1) await compressOnce(body, setting);
    const started = performance.now();
    const cpuStart = cpuNow();
    let runs = 0;
    let bytes = 0;
    while (runs < MIN_RUNS || performance.now() - started < MIN_MS) {
      bytes = await compressOnce(body, setting);
      runs += 1;
    }
    const result: CodecResult = { id, setting, cpuMs: (cpuNow() - cpuStart) / runs, bytes };
    console.log(JSON.stringify(result));
  }
}
