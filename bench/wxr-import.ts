// `npm run bench:wxr-import`: a large WordPress export imported end to end, as its owner runs it.
// Writes a synthetic export of BENCH_EVENTS events (WordPress's format, TEC's meta), then runs
// `npm run import -- --wxr FILE` as a child process, with the data on disk in a fresh folder as the
// command keeps it (`.local/dynamodb`), and times each phase from the lines the command prints:
// reading the file, starting DynamoDB Local, writing the records, building the search index.
// Writes bench/results/wxr-import.json.
import '../scripts/sdk-quiet.js';
import { spawn } from 'node:child_process';
import { createWriteStream } from 'node:fs';
import { mkdir, mkdtemp, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { pipeline } from 'node:stream/promises';
import { fileURLToPath } from 'node:url';
import { syntheticExport } from '../test/support/wxr-export.js';
import { benchCli } from './cli.js';
import { runBench } from './main.js';
import { runContext } from './readme.js';

const settings = benchCli(
  'bench:wxr-import',
  `Imports a synthetic WordPress export of BENCH_EVENTS events with \`npm run import -- --wxr\`, into a fresh
data folder on disk, and times each phase the command reports. Writes bench/results/wxr-import.json.`,
  {
    BENCH_EVENTS: { meaning: 'events in the export', default: 10_000 },
    BENCH_ITEM_BYTES: { meaning: 'the size of one event item, in bytes (its description padded)', default: 1600 },
  },
);
const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const RESULTS = join(ROOT, 'bench', 'results', 'wxr-import.json');

/** The phases, by the first line of the command's output that starts each. */
const PHASES: [name: string, line: RegExp][] = [
  ['read', /^Reading /],
  ['start', /^Starting DynamoDB Local/],
  ['write', /^\[.*\] .*\/\d+ users/],
  ['index', /^Building the search index/],
  ['summary', /^users\s/],
];

runBench(async () => {
  const events = settings.count('BENCH_EVENTS');
  const itemBytes = settings.count('BENCH_ITEM_BYTES');
  const dir = await mkdtemp(join(tmpdir(), 'bench-wxr-import-'));
  try {
    const file = join(dir, 'export.xml');
    const synthetic = syntheticExport(Number.POSITIVE_INFINITY, 64 * 1024, itemBytes, events);
    await pipeline(synthetic.chunks, createWriteStream(file));
    const bytes = (await stat(file)).size;
    const started = performance.now();
    const seen = new Map<string, number>();
    const lines: string[] = [];
    const code = await new Promise<number>((done, fail) => {
      // Run in the fresh folder: the command's data (`.local/dynamodb`, its keys) is made there.
      const child = spawn(join(ROOT, 'node_modules', '.bin', 'tsx'), [join(ROOT, 'scripts', 'import.ts'), '--wxr', file, '--timezone', 'UTC+0'], {
        cwd: dir,
        env: { ...process.env, DYNAMODB_ENDPOINT: '', FORCE_COLOR: '0' },
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      const take = (chunk: Buffer) => {
        for (const line of chunk.toString().split(/[\r\n]+/)) {
          if (!line) continue;
          lines.push(line);
          for (const [name, re] of PHASES) if (!seen.has(name) && re.test(line)) seen.set(name, performance.now() - started);
        }
      };
      child.stdout.on('data', take);
      child.stderr.on('data', take);
      child.on('error', fail);
      child.on('close', (c) => done(c ?? 1));
    });
    const total = (performance.now() - started) / 1000;
    const at = (name: string) => (seen.get(name) ?? Number.NaN) / 1000;
    const round = (s: number) => Math.round(s * 10) / 10;
    const phases = {
      readSeconds: round(at('start') - at('read')),
      startSeconds: round(at('write') - at('start')),
      writeSeconds: round(at('index') - at('write')),
      indexSeconds: round(at('summary') - at('index')),
    };
    const imported = Number(/events\s+(\d+) created/.exec(lines.join('\n'))?.[1] ?? 0);
    const result = { ...runContext(), events, bytes, exitCode: code, imported, totalSeconds: round(total), ...phases, eventsPerSecond: round(imported / total) };
    console.log(JSON.stringify(result, null, 2));
    await mkdir(dirname(RESULTS), { recursive: true });
    await writeFile(RESULTS, `${JSON.stringify(result, null, 2)}\n`);
    console.log(`wrote ${RESULTS}`);
    return code === 0 && imported === synthetic.items() ? 0 : 1;
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
});
