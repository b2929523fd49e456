// Servers a benchmark starts as child processes, and the CPU time /proc gives a process: shared by
// the benchmarks that measure what a server costs per request (bench/handlers.ts, bench/reads.ts, bench/versus-tec.ts).
import { spawn, type ChildProcess } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { createInterface } from 'node:readline';

// Linux's USER_HZ, the unit of /proc/<pid>/stat's CPU times.
const CLOCK_TICKS = 100;

/** A server (a TypeScript script with its arguments, run from `cwd`), on its own port: it prints its URL. */
export async function serve(script: string, args: string[], cwd: string): Promise<{ url: string; proc: ChildProcess }> {
  // Node itself with tsx's loader (tsx's command would run the server in a child process, whose CPU time /proc would not show).
  const proc = spawn(process.execPath, ['--import', 'tsx', script, ...args], {
    cwd,
    env: { ...process.env, PORT: '0', LOG_LEVEL: 'SILENT', POWERTOOLS_METRICS_DISABLED: 'true', AWS_REGION: process.env.AWS_REGION || 'us-east-1' },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const url = await new Promise<string>((ok, fail) => {
    createInterface({ input: proc.stdout! }).once('line', ok);
    proc.once('exit', (code) => fail(new Error(`${script} ${args.join(' ')} exited (${code})`)));
  });
  return { url, proc };
}

/**
 * A process's CPU time so far, in ms; undefined where /proc does not say. From its threads'
 * scheduler statistics, which count nanoseconds (`/proc/<pid>/stat` counts ticks of 10 ms: over 40
 * requests of 2 ms, an eighth of the figure), else from those ticks. A thread that ends takes its
 * schedstat time with it: the servers' threads live as long as they do.
 */
export function cpuOf(pid: number | undefined): number | undefined {
  if (pid === undefined) return undefined;
  try {
    let ns = 0;
    for (const tid of readdirSync(`/proc/${pid}/task`)) {
      try {
        ns += Number(readFileSync(`/proc/${pid}/task/${tid}/schedstat`, 'utf8').split(' ')[0]);
      } catch {
        // A thread that ended meanwhile.
      }
    }
    if (ns > 0) return ns / 1e6;
    // After the command name (which may hold spaces): state, then fields 4…; utime and stime are fields 14 and 15.
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
    return ((Number(fields[11]) + Number(fields[12])) * 1000) / CLOCK_TICKS;
  } catch {
    return undefined;
  }
}

/** The ids of the processes whose command name (/proc/<pid>/comm) is one of `names`. */
export function pidsNamed(names: readonly string[]): number[] {
  const out: number[] = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      if (names.includes(readFileSync(`/proc/${entry}/comm`, 'utf8').trim())) out.push(Number(entry));
    } catch {
      // Gone since the listing.
    }
  }
  return out;
}
