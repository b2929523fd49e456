// `npm run bench:wxr`: how fast the WXR reader streams a large WordPress export, and how little of it
// it holds. Writes a synthetic export of BENCH_WXR_MB megabytes (events with TEC's meta, written as
// WordPress writes them) to a temporary file, reads it back with readWxr from a file stream, and
// records the time, the throughput and the heap: the peak seen during the read, and the peak of what
// is still referenced (sampled after a full collection). Writes bench/results/wxr.json.
import { createReadStream, createWriteStream } from 'node:fs';
import { mkdtemp, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { pipeline } from 'node:stream/promises';
import { fileURLToPath } from 'node:url';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { readWxr } from '#lib/import/wxr-reader.js';
import { syntheticExport } from '../test/support/wxr-export.js';
import { benchCli } from './cli.js';
import { runBench } from './main.js';
import { runContext } from './readme.js';

const settings = benchCli(
  'bench:wxr',
  `How fast the WXR reader streams a large export and how much memory it holds (no DynamoDB):
writes a synthetic export to a temporary file, reads it back, writes bench/results/wxr.json.`,
  {
    BENCH_WXR_MB: { meaning: 'the size of the export, in megabytes', default: 200 },
    BENCH_WXR_ITEM_BYTES: { meaning: 'the size of one event item, in bytes', default: 4000 },
  },
);
const RESULTS = resolve(dirname(fileURLToPath(import.meta.url)), 'results', 'wxr.json');
const MB = 1024 * 1024;

runBench(async () => {
  const sizeMb = settings.count('BENCH_WXR_MB');
  const itemBytes = settings.count('BENCH_WXR_ITEM_BYTES');
  const dir = await mkdtemp(join(tmpdir(), 'bench-wxr-'));
  const file = join(dir, 'export.xml');
  try {
    const synthetic = syntheticExport(sizeMb * MB, 64 * 1024, itemBytes);
    await pipeline(synthetic.chunks, createWriteStream(file));
    const bytes = (await stat(file)).size;
    setFlagsFromString('--expose-gc');
    const gc = runInNewContext('gc') as () => void;

    // One read for the time and the heap as it goes (no forced collections to slow it down)…
    gc();
    const base = process.memoryUsage();
    let peakHeap = base.heapUsed;
    let peakRss = base.rss;
    let entries = 0;
    const t0 = performance.now();
    for await (const _ of readWxr(createReadStream(file, { highWaterMark: 64 * 1024 }))) {
      if (++entries % 500 === 0) {
        const m = process.memoryUsage();
        peakHeap = Math.max(peakHeap, m.heapUsed);
        peakRss = Math.max(peakRss, m.rss);
      }
    }
    const seconds = (performance.now() - t0) / 1000;

    // …and one with a full collection at each sample: what the reader still references.
    gc();
    const before = process.memoryUsage().heapUsed;
    let peakLive = before;
    let n = 0;
    for await (const _ of readWxr(createReadStream(file, { highWaterMark: 64 * 1024 }))) {
      if (++n % 2000 === 0) {
        gc();
        peakLive = Math.max(peakLive, process.memoryUsage().heapUsed);
      }
    }

    const results = {
      date: new Date().toISOString(),
      ...runContext(),
      fileMB: +(bytes / MB).toFixed(1),
      entries,
      seconds: +seconds.toFixed(2),
      mbPerSecond: +(bytes / MB / seconds).toFixed(1),
      entriesPerSecond: Math.round(entries / seconds),
      heapAtStartMB: +(base.heapUsed / MB).toFixed(1),
      peakHeapGrowthMB: +((peakHeap - base.heapUsed) / MB).toFixed(1),
      peakRssGrowthMB: +((peakRss - base.rss) / MB).toFixed(1),
      peakLiveHeapGrowthMB: +((peakLive - before) / MB).toFixed(2),
    };
    await writeFile(RESULTS, `${JSON.stringify(results, null, 2)}\n`);
    console.log(results);
    return 0;
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
});
