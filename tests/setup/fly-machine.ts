import { randomUUID } from "node:crypto";
import { existsSync, mkdirSync, readFileSync, rmdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { parse } from "smol-toml";

/**
 * A Linux cgroup shaped like the Fly machine fly.toml asks for: its CPUs as a CFS quota and its
 * memory as a hard limit with no swap, so a server started inside (`inCgroups`) runs as it would
 * in production. cgroup v1, as these machines mount it (root only). Used by the reliability
 * load test (tests/reliability/load.test.ts) and by `npm run bench` (scripts/bench/processes.ts).
 */
const CPU_ROOT = "/sys/fs/cgroup/cpu";
const MEMORY_ROOT = "/sys/fs/cgroup/memory";
const PERIOD_US = 100_000;

export type FlyShape = { cpus: number; memoryMb: number };

/** The [[vm]] of fly.toml: "512mb" / "1gb" and a CPU count. */
export function flyMachineShape(path = "fly.toml"): FlyShape {
  const config = parse(readFileSync(path, "utf8")) as { vm: { memory: string; cpus: number }[] };
  const vm = config.vm[0];
  if (!vm) throw new Error("fly.toml has no [[vm]]");
  const match = /^(\d+)\s*(mb|gb)$/i.exec(vm.memory);
  if (!match?.[1] || !match[2]) throw new Error(`Unreadable [[vm]] memory: ${vm.memory}`);
  const memoryMb = Number(match[1]) * (match[2].toLowerCase() === "gb" ? 1024 : 1);
  return { cpus: vm.cpus, memoryMb };
}

export type FlyCgroup = {
  shape: FlyShape;
  /** The cgroup.procs files a process writes its pid to, to join. */
  procs: string[];
  /** Processes the kernel killed for running out of the cgroup's memory. */
  oomKills(): number;
  /** The cgroup's highest memory use in MB, page cache included. */
  peakMemoryMb(): number;
  /** Kills whatever is still inside (a test that failed half-way), then removes the cgroups. */
  remove(): Promise<void>;
};

/**
 * The command that starts `executable args` inside the cgroups whose cgroup.procs files are
 * `procs`: a shell joins them, then becomes the executable, so the process is inside from its
 * first allocation and its pid is the spawned child's. No procs: the executable itself.
 */
export function inCgroups(
  procs: string[] | undefined,
  executable: string,
  args: string[],
): [string, string[]] {
  const joinThenExec = (procs ?? []).map((file) => `echo $$ > ${file} && `).join("");
  if (!joinThenExec) return [executable, args];
  return ["sh", ["-c", `${joinThenExec}exec "$0" "$@"`, executable, ...args]];
}

export function createFlyCgroup(label: string, shape = flyMachineShape()): FlyCgroup {
  if (!existsSync(join(MEMORY_ROOT, "memory.limit_in_bytes")) || !existsSync(CPU_ROOT)) {
    throw new Error(
      `The Fly-sized check needs cgroup v1 memory and cpu controllers at ${MEMORY_ROOT} and ${CPU_ROOT} (run as root)`,
    );
  }
  const name = `studio-${label}-${randomUUID().slice(0, 8)}`;
  const memory = join(MEMORY_ROOT, name);
  const cpu = join(CPU_ROOT, name);
  mkdirSync(memory);
  mkdirSync(cpu);
  const bytes = String(shape.memoryMb * 1024 * 1024);
  writeFileSync(join(memory, "memory.limit_in_bytes"), bytes);
  // The VM has no swap: memory + swap gets the same limit, where the kernel offers it.
  const withSwap = join(memory, "memory.memsw.limit_in_bytes");
  if (existsSync(withSwap)) writeFileSync(withSwap, bytes);
  writeFileSync(join(cpu, "cpu.cfs_period_us"), String(PERIOD_US));
  writeFileSync(join(cpu, "cpu.cfs_quota_us"), String(Math.round(shape.cpus * PERIOD_US)));
  const read = (file: string) => readFileSync(join(memory, file), "utf8");
  return {
    shape,
    procs: [join(memory, "cgroup.procs"), join(cpu, "cgroup.procs")],
    oomKills() {
      const match = /^oom_kill (\d+)$/m.exec(read("memory.oom_control"));
      // Older kernels have no counter: a hit on the limit is the closest sign.
      return match?.[1] ? Number(match[1]) : Number(read("memory.failcnt").trim());
    },
    peakMemoryMb: () => Math.round(Number(read("memory.max_usage_in_bytes")) / 1024 / 1024),
    async remove() {
      for (const dir of [memory, cpu]) {
        if (!existsSync(dir)) continue;
        const pids = () =>
          readFileSync(join(dir, "cgroup.procs"), "utf8").split("\n").filter(Boolean);
        for (const pid of pids()) process.kill(Number(pid), "SIGKILL");
        for (let wait = 0; pids().length > 0 && wait < 50; wait += 1) await sleep(100);
        rmdirSync(dir);
      }
    },
  };
}
