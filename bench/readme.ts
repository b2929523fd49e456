// The benchmark tables of bench/README.md are generated from the committed results files, between
// marker comments (`<!-- bench:<name> -->` … `<!-- /bench:<name> -->`), so that a table always
// matches a run that can be traced (its date, machine and commit are in the file). A unit test
// checks that bench/README.md holds exactly what these functions render from bench/results/.
import { execFileSync } from 'node:child_process';
import { readFile, writeFile } from 'node:fs/promises';
import { cpus, totalmem } from 'node:os';
import { fileURLToPath } from 'node:url';

/** Where the tables are. */
export const TABLES = fileURLToPath(new URL('./README.md', import.meta.url));

/** Where and on what a benchmark ran. */
export function runContext() {
  let commit = 'unknown';
  let dirty = false;
  try {
    commit = execFileSync('git', ['rev-parse', 'HEAD'], { encoding: 'utf8' }).trim();
    dirty = execFileSync('git', ['status', '--porcelain', '--untracked-files=no'], { encoding: 'utf8' }).trim() !== '';
  } catch {
    // Not a git checkout: the commit stays unknown.
  }
  const cpu = cpus();
  return {
    machine: {
      cpu: cpu[0]?.model ?? 'unknown',
      cores: cpu.length,
      memoryGiB: Math.round(totalmem() / 2 ** 30),
      node: process.version,
      platform: `${process.platform}-${process.arch}`,
    },
    commit,
    dirty,
  };
}

const marker = (name: string) => ({ open: `<!-- bench:${name} -->`, close: `<!-- /bench:${name} -->` });

/** The text with the block `name` replaced by `body`. */
export function replaceBlock(readme: string, name: string, body: string): string {
  const { open, close } = marker(name);
  const a = readme.indexOf(open);
  const b = readme.indexOf(close);
  if (a < 0 || b < a) throw new Error(`bench/README.md has no ${open} … ${close} block`);
  return `${readme.slice(0, a + open.length)}\n${body.trimEnd()}\n${readme.slice(b)}`;
}

/** The block `name` as the text holds it. */
export function readBlock(readme: string, name: string): string {
  const { open, close } = marker(name);
  const a = readme.indexOf(open);
  const b = readme.indexOf(close);
  if (a < 0 || b < a) throw new Error(`bench/README.md has no ${open} … ${close} block`);
  return readme.slice(a + open.length, b).trim();
}

/** Rewrites the table `name` of bench/README.md. */
export async function writeTable(name: string, body: string): Promise<void> {
  await writeFile(TABLES, replaceBlock(await readFile(TABLES, 'utf8'), name, body));
}

const fmt = (x: number) => (Number.isInteger(x) ? String(x) : String(Math.round(x * 100) / 100));
const k = (n: number) => (n >= 1000 && n % 1000 === 0 ? `${n / 1000}k` : String(n));

/** When, at which commit and on what a run was made. */
const runOf = (r: { generatedAt: string; commit?: string; dirty?: boolean; machine?: { cpu: string; cores: number } }) =>
  `${r.generatedAt.slice(0, 10)}, commit ${(r.commit ?? 'unknown').slice(0, 7)}${r.dirty ? ' (with uncommitted changes)' : ''}, ${r.machine ? `${r.machine.cores} × ${r.machine.cpu}` : 'machine unknown'}`;

interface QueriesResults {
  generatedAt: string;
  commit?: string;
  dirty?: boolean;
  machine?: { cpu: string; cores: number };
  sizes: { size: number; stream?: { drainSeconds: number; lagMs: { median: number; p95: number; max: number } } }[];
  comparison: { label: string; small: { requests: number; read: number }; large: { requests: number; read: number }; ratio: number; verdict: string }[];
}

/** The table of `npm run bench:queries` (bench/results/queries.json). */
export function renderQueries(r: QueriesResults): string {
  const sizes = r.sizes.map((s) => s.size).sort((a, b) => a - b);
  const [s, l] = [k(sizes[0]!), k(sizes[sizes.length - 1]!)];
  const rows = r.comparison.map((c) => `| ${c.label} | ${c.small.requests} → ${c.large.requests} | ${fmt(c.small.read)} | ${fmt(c.large.read)} | ${c.ratio.toFixed(2)} |`);
  const lag = r.sizes
    .filter((x) => x.stream)
    .map((x) => `${k(x.size)} events: median ${Math.round(x.stream!.lagMs.median)} ms, p95 ${Math.round(x.stream!.lagMs.p95)} ms, max ${Math.round(x.stream!.lagMs.max)} ms`);
  const where = runOf(r);
  return [
    `Run of ${where}; RCU = consumed read capacity units.`,
    '',
    `| variant | requests ${s} → ${l} | RCU ${s} | RCU ${l} | ratio |`,
    '| --- | --- | --- | --- | --- |',
    ...rows,
    ...(lag.length ? ['', `Search index lag (a new event until a search finds it, through the local stream consumer): ${lag.join('; ')}.`] : []),
  ].join('\n');
}

interface CardsResults {
  generatedAt: string;
  commit?: string;
  dirty?: boolean;
  machine?: { cpu: string; cores: number };
  linkedEvents: number;
  requestMs: number;
  convergedMs: number;
  requestReads: number;
  requestWrites: number;
}

/** The figures of `npm run bench:cards` (bench/results/cards.json). */
export function renderCards(r: CardsResults): string {
  const where = runOf(r);
  return [
    `Run of ${where}:`,
    '',
    '| venue linked to | edit request | every card new | request RCU / WCU |',
    '| --- | --- | --- | --- |',
    `| ${r.linkedEvents.toLocaleString('en-US')} events | ${Math.round(r.requestMs)} ms | ${(r.convergedMs / 1000).toFixed(1)} s | ${fmt(r.requestReads)} / ${fmt(r.requestWrites)} |`,
  ].join('\n');
}

/** One server's measurement: medians of its rounds; CPU per request where /proc told it (Linux). */
export interface Served {
  rps: number;
  p50: number;
  serverCpuMs?: number;
  dynamoCpuMs?: number;
}

export interface HandlersResults {
  generatedAt: string;
  commit: string;
  dirty: boolean;
  machine: { cpu: string; cores: number; memoryGiB: number; node: string; platform: string };
  events: number;
  calls: number;
  roundTripMs: number;
  seconds: number;
  /** The median call's figures; `worst`, the largest of any call (one that read what a function holds for a few seconds). */
  operations: {
    operation: string;
    request: string;
    requests: number;
    stages: number;
    readUnits: number;
    worst?: { requests: number; stages: number; readUnits: number };
    cpuMs: { p50: number; p99: number };
  }[];
  servers: {
    baselineCommit: string;
    connections: number;
    seconds: number;
    rounds: number;
    requests: {
      name: string;
      path: string;
      baseline: Served;
      current: Served;
      /** The same DynamoDB requests and answer with nothing else (bench/floor-serve.ts); runs before it was measured lack it. */
      floor?: Served & { requests: number; stages: number };
      ratio: number;
      floorRatio?: number;
    }[];
  };
}

/** The tables of `npm run bench:handlers` (bench/results/handlers.json). */
export function renderHandlers(r: HandlersResults): string {
  const where = `${r.generatedAt.slice(0, 10)}, commit ${r.commit.slice(0, 7)}${r.dirty ? ' (with uncommitted changes)' : ''}, ${r.machine.cores} × ${r.machine.cpu}`;
  const s = r.servers;
  const base = s.baselineCommit.slice(0, 7);
  const floor = s.requests.every((q) => q.floor);
  const cpu = floor && s.requests.every((q) => [q.baseline, q.current, q.floor].every((x) => x?.serverCpuMs !== undefined && x.dynamoCpuMs !== undefined));
  return [
    `Run of ${where}; ${r.events.toLocaleString('en-US')} events, ${r.calls} calls per operation:`,
    '',
    'Per call: the median call, and in parentheses the largest of any call where it differs.',
    '',
    '| operation | request | DynamoDB requests | stages | RCU | CPU p50 | CPU p99 |',
    '| --- | --- | --- | --- | --- | --- | --- |',
    ...r.operations.map((o) => {
      const worst = (k: 'requests' | 'stages' | 'readUnits') => (o.worst && o.worst[k] !== o[k] ? ` (${fmt(o.worst[k])})` : '');
      return `| ${o.operation} | \`${o.request}\` | ${o.requests}${worst('requests')} | ${o.stages}${worst('stages')} | ${fmt(o.readUnits)}${worst('readUnits')} | ${fmt(o.cpuMs.p50)} ms | ${fmt(o.cpuMs.p99)} ms |`;
    }),
    '',
    `The local server against commit ${base}, ${s.connections} connections, ${s.seconds} s per measurement, medians of ${s.rounds} alternating rounds${floor ? ', and the floor: the same DynamoDB requests and answer with nothing else' : ''}:`,
    '',
    `| request | ${base} req/s | req/s | ratio |${floor ? ` floor req/s | floor ÷ ${base} |` : ''} ${base} p50 | p50 |`,
    `| --- | --- | --- | --- |${floor ? ' --- | --- |' : ''} --- | --- |`,
    ...s.requests.map(
      (q) =>
        `| ${q.name} | ${fmt(q.baseline.rps)} | ${fmt(q.current.rps)} | ${fmt(q.ratio)}× |${floor ? ` ${fmt(q.floor?.rps ?? 0)} | ${fmt(q.floorRatio ?? 0)}× |` : ''} ${fmt(q.baseline.p50)} ms | ${fmt(q.current.p50)} ms |`,
    ),
    ...(cpu
      ? [
          '',
          `CPU time per request, server and DynamoDB Local (from /proc), medians of the same rounds:`,
          '',
          `| request | ${base} server | its DynamoDB Local | server | its DynamoDB Local | floor server | its DynamoDB Local | floor requests (stages) |`,
          '| --- | --- | --- | --- | --- | --- | --- | --- |',
          ...s.requests.map((q) => {
            const pair = (x: Served | undefined) => `${fmt(x?.serverCpuMs ?? 0)} ms | ${fmt(x?.dynamoCpuMs ?? 0)} ms`;
            return `| ${q.name} | ${pair(q.baseline)} | ${pair(q.current)} | ${pair(q.floor)} | ${q.floor?.requests ?? ''} (${q.floor?.stages ?? ''}) |`;
          }),
        ]
      : []),
  ].join('\n');
}

interface Ratios {
  import: number;
  firstCall: number;
  firstCallCpu?: number;
}

export interface ColdResults {
  generatedAt: string;
  commit: string;
  dirty: boolean;
  machine: { cpu: string; cores: number; node: string };
  rounds: number;
  seconds: number;
  baseline: { importMs: number; firstCallMs: number; firstCallCpuMs?: number; bytes: number };
  /** What the SDK alone costs the request patterns the functions need, against the same baseline. */
  floors?: { name: string; requests: string; bytes: number; importMs: number; firstCallMs: number; firstCallCpuMs?: number; ratios: Ratios }[];
  functions: {
    operation: string;
    access: 'read' | 'write';
    bytes: number;
    /** The first call's DynamoDB requests (median), from its request log line. */
    requests?: number;
    importMs: number;
    firstCallMs: number;
    /** The process's CPU time during the first call (runs before this was measured lack it). */
    firstCallCpuMs?: number;
    ratios: Ratios;
    target: number;
    met: boolean;
  }[];
}

const kb = (bytes: number) => `${Math.round(bytes / 1024)} KB`;

/** The table of `npm run bench:cold` (bench/results/cold.json). */
export function renderCold(r: ColdResults): string {
  const where = `${r.generatedAt.slice(0, 10)}, commit ${r.commit.slice(0, 7)}${r.dirty ? ' (with uncommitted changes)' : ''}, ${r.machine.cores} × ${r.machine.cpu}, Node ${r.machine.node}`;
  const met = r.functions.filter((f) => f.met).length;
  const cpu = r.baseline.firstCallCpuMs !== undefined;
  const cpuOf = (x: { firstCallCpuMs?: number; ratios: Ratios }) => `${fmt(x.firstCallCpuMs ?? 0)} ms | ${fmt(x.ratios.firstCallCpu ?? 0)}× |`;
  const floors = (r.floors ?? []).map(
    (f) =>
      `- ${f.name} floor (${f.requests}; ${kb(f.bytes)}): import ${fmt(f.importMs)} ms (${fmt(f.ratios.import)}×), first call ${fmt(f.firstCallMs)} ms (${fmt(f.ratios.firstCall)}×)` +
      (cpu ? `, its CPU ${fmt(f.firstCallCpuMs ?? 0)} ms (${fmt(f.ratios.firstCallCpu ?? 0)}×)` : ''),
  );
  const requests = r.functions.some((f) => f.requests !== undefined);
  return [
    `Run of ${where}; medians of ${r.rounds} rounds. The baseline bundle (${kb(r.baseline.bytes)}) loads in ${fmt(r.baseline.importMs)} ms and answers its first call in ${fmt(r.baseline.firstCallMs)} ms${cpu ? ` (${fmt(r.baseline.firstCallCpuMs!)} ms of CPU)` : ''}. ${met} of ${r.functions.length} functions meet their target (reads 1.15×, writes 1.3×):`,
    ...(floors.length ? ['', 'What the SDK alone costs, in the same run, with the same client as the baseline:', '', ...floors] : []),
    '',
    `| function | access | bundle |${requests ? ' requests |' : ''} import | × | first call | × |${cpu ? ' its CPU | × |' : ''} target |`,
    `| --- | --- | --- |${requests ? ' --- |' : ''} --- | --- | --- | --- |${cpu ? ' --- | --- |' : ''} --- |`,
    ...r.functions.map(
      (f) =>
        `| ${f.operation} | ${f.access} | ${kb(f.bytes)} |${requests ? ` ${f.requests ?? ''} |` : ''} ${fmt(f.importMs)} ms | ${fmt(f.ratios.import)}× | ${fmt(f.firstCallMs)} ms | ${fmt(f.ratios.firstCall)}× |${cpu ? ` ${cpuOf(f)}` : ''} ${f.met ? 'met' : `**not met** (${fmt(f.target)}×)`} |`,
    ),
  ].join('\n');
}

/** How the store meets transactions that name one item: DynamoDB Local queues them; DynamoDB refuses all but one. */
export type Mode = 'http' | 'dynamodb';

/** One variant of `npm run bench:storms`: a burst of creates sent at once. */
export interface StormVariant {
  key: string;
  label: string;
  mode: Mode;
  creates: number;
  succeeded: number;
  /** Answers other than 201, by status. */
  errors: Record<string, number>;
  latencyMs: { p50: number; p99: number; max: number };
  wallSeconds: number;
  /** Figures read after the burst, each checked against the records read one by one (`records`). */
  totals: Record<string, number>;
  /** CPU time per create of the process running the gateway and handlers, and of DynamoDB Local. */
  cpuMsPerCreate: { server: number; dynamoLocal?: number };
}

interface StormsResults {
  generatedAt: string;
  commit?: string;
  dirty?: boolean;
  machine?: { cpu: string; cores: number };
  creates: number;
  variants: StormVariant[];
}

/** The table of `npm run bench:storms` (bench/results/storms.json). */
export function renderStorms(r: StormsResults): string {
  const where = runOf(r);
  const errors = (v: StormVariant) =>
    Object.entries(v.errors)
      .map(([status, n]) => `${n} × ${status}`)
      .join(', ') || 'none';
  const totals = (v: StormVariant) => {
    const { records, ...rest } = v.totals;
    const figures = Object.entries(rest).map(([name, n]) => `${name} ${n}`);
    return `${records} records${figures.length ? `; ${figures.join(', ')}` : ''}`;
  };
  return [
    `Run of ${where}; ${r.creates} creates sent at once per variant:`,
    '',
    '| variant | path | succeeded | errors | p50 | p99 | CPU per create (server, DynamoDB Local) | totals (each equal to the records read one by one) |',
    '| --- | --- | --- | --- | --- | --- | --- | --- |',
    ...r.variants.map(
      (v) =>
        `| ${v.label} | ${v.mode === 'http' ? 'HTTP, fresh `npm start`' : 'in-process, meeting transactions refused as DynamoDB does'} | ${v.succeeded} (${fmt((100 * v.succeeded) / v.creates)} %) | ${errors(v)} | ${(v.latencyMs.p50 / 1000).toFixed(1)} s | ${(v.latencyMs.p99 / 1000).toFixed(1)} s | ${v.cpuMsPerCreate.server} ms, ${v.cpuMsPerCreate.dynamoLocal ?? '?'} ms | ${totals(v)} |`,
    ),
  ].join('\n');
}

/** One kind of read in `npm run bench:reads`: CPU ms per request, medians over the rounds. */
export interface ReadKind {
  key: string;
  label: string;
  base: ReadFigures;
  now: ReadFigures;
}
interface ReadFigures {
  serverMs: number;
  dynamoMs: number;
  /** The server's CPU ms per request of each round (net of what it uses idle). */
  rounds: number[];
  /** The server's CPU ms per request counting what it uses idle (its stream poller), and that idle use in ms per second. */
  serverRawMs?: number;
  idleServerMsPerS?: number;
  contentType: string;
  /** DynamoDB requests and read units per request, from the handlers' request lines. */
  dynamodbRequests: number;
  readUnits: number;
}
interface ReadsResults {
  generatedAt: string;
  commit?: string;
  dirty?: boolean;
  machine?: { cpu: string; cores: number };
  base: string;
  events: number;
  requests: number;
  rounds: number;
  kinds: ReadKind[];
}

/** The table of `npm run bench:reads` (bench/results/reads.json). */
export function renderReads(r: ReadsResults): string {
  const where = runOf(r);
  const type = (f: ReadFigures) => f.contentType.split(';')[0]!.trim();
  // Each round measures both servers one after the other: the median of the rounds' ratios leaves out
  // what a busy moment did to one round of both (results with unpaired rounds: the medians' ratio).
  const ratio = (k: ReadKind): number | undefined => {
    const [b, n] = [k.base.rounds, k.now.rounds];
    if (b.length && b.length === n.length && b.every((v) => v > 0)) return median(n.map((v, i) => v / b[i]!));
    return k.base.serverMs > 0 ? k.now.serverMs / k.base.serverMs : undefined;
  };
  const change = (k: ReadKind) => {
    const q = ratio(k);
    return q === undefined ? '–' : `${q >= 1 ? '+' : ''}${Math.round(100 * (q - 1))} %`;
  };
  return [
    `Run of ${where}, against ${r.base.slice(0, 7)}; ${r.events} events; medians of ${r.rounds} rounds of ${r.requests} requests per kind and server:`,
    '',
    `| read | server CPU ${r.base.slice(0, 7)} | server CPU now | change (median of the rounds' ratios) | DynamoDB Local CPU ${r.base.slice(0, 7)} → now | DynamoDB requests (RCU) ${r.base.slice(0, 7)} → now |`,
    '| --- | --- | --- | --- | --- | --- |',
    ...r.kinds.map(
      (k) =>
        `| ${k.label}${type(k.base) === type(k.now) ? '' : ` (${r.base.slice(0, 7)} answers ${type(k.base)})`} | ${fmt(k.base.serverMs)} ms | ${fmt(k.now.serverMs)} ms | ${change(k)} | ${fmt(k.base.dynamoMs)} → ${fmt(k.now.dynamoMs)} ms | ${fmt(k.base.dynamodbRequests)} (${fmt(k.base.readUnits)}) → ${fmt(k.now.dynamodbRequests)} (${fmt(k.now.readUnits)}) |`,
    ),
    ...idleLine(r),
  ].join('\n');
}

/** The middle value (the upper of the two middle ones for an even count). */
const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[xs.length >> 1]!;

/** What each server used idle, which the CPU figures leave out (results written before it was measured have none). */
function idleLine(r: ReadsResults): string[] {
  const idle = (side: 'base' | 'now') => r.kinds.map((k) => k[side].idleServerMsPerS).filter((v): v is number => v !== undefined);
  const [base, now] = [idle('base'), idle('now')];
  if (!base.length || !now.length) return [];
  return [
    '',
    `Server CPU is net of what each server used idle (its stream poller and webhook queue, which no Lambda function runs): ${fmt(median(base))} ms a second at ${r.base.slice(0, 7)}, ${fmt(median(now))} now.`,
  ];
}

/** What `npm run bench:changes` measured (bench/results/changes.json). */
export interface ChangesResults {
  generatedAt: string;
  commit?: string;
  dirty?: boolean;
  machine?: { cpu: string; cores: number };
  perPage: number;
  sizes: { size: number; variants: { label: string; changes: number; requests: number; read: number }[] }[];
}

/** The table of `npm run bench:changes`: each page's requests and read units at each size. */
export function renderChanges(r: ChangesResults): string {
  const where = runOf(r);
  const sizes = r.sizes.map((s) => k(s.size));
  const labels = r.sizes[0]?.variants.map((v) => v.label) ?? [];
  return [
    `Run of ${where}; pages of ${r.perPage} changes; RCU = consumed read capacity units.`,
    '',
    `| page | requests ${sizes.join(' → ')} | ${sizes.map((s) => `RCU ${s}`).join(' | ')} |`,
    `| --- | --- | ${sizes.map(() => '---').join(' | ')} |`,
    ...labels.map((label, i) => `| ${label} | ${r.sizes.map((s) => s.variants[i]!.requests).join(' → ')} | ${r.sizes.map((s) => fmt(s.variants[i]!.read)).join(' | ')} |`),
  ].join('\n');
}

/** What `npm run bench:webhooks` measured (bench/results/webhooks.json). */
export interface WebhooksResults {
  generatedAt: string;
  commit?: string;
  dirty?: boolean;
  machine?: { cpu: string; cores: number };
  changes: number;
  concurrency: number;
  burstSeconds: number;
  allDeliveredSeconds: number;
  resent: number;
  endpoints: { name: string; answers: string; reached: number; deliveries: number; unverified: number }[];
  latencyMs: { median: number; p95: number; max: number };
  trickle: { changes: number; delivered: number; medianMs: number; maxMs: number };
}

/** The table of `npm run bench:webhooks`: what each endpoint got of the burst, and how soon. */
export function renderWebhooks(r: WebhooksResults): string {
  const where = runOf(r);
  return [
    `Run of ${where}; ${r.changes} creates, ${r.concurrency} at once, in ${r.burstSeconds} s (${r.resent} sent again after a 503); every change at every endpoint ${r.allDeliveredSeconds} s after the burst began.`,
    '',
    '| endpoint answers | changes reached | deliveries | signatures not verified |',
    '| --- | --- | --- | --- |',
    ...r.endpoints.map((e) => `| ${e.answers} | ${e.reached} of ${r.changes} | ${e.deliveries} | ${e.unverified} |`),
    '',
    `From a create's 201 to its delivery at the healthy endpoint, in the burst: median ${r.latencyMs.median} ms, p95 ${r.latencyMs.p95} ms, max ${r.latencyMs.max} ms; one change at a time after it (${r.trickle.delivered} of ${r.trickle.changes}): median ${r.trickle.medianMs} ms, max ${r.trickle.maxMs} ms.`,
  ].join('\n');
}

/** What `npm run bench:series` measured (bench/results/series.json). */
export interface SeriesResults {
  generatedAt: string;
  commit?: string;
  dirty?: boolean;
  machine?: { cpu: string; cores: number };
  table: string;
  days: number;
  perPage: number;
  targetSeconds: number;
  sizes: {
    size: number;
    create: { status: number; requests: number; write: number; ms: number };
    completeSeconds: number | null;
    consumerPerOccurrence: { requests: number; write: number };
    occurrences: { requests: number; read: number; medianMs: number };
    singles: { requests: number; read: number; medianMs: number };
  }[];
}

/** The table of `npm run bench:series`: the create of a long series, and a page of it against a page of single events. */
export function renderSeries(r: SeriesResults): string {
  const row = (s: SeriesResults['sizes'][number]) =>
    [
      k(s.size),
      `${s.create.status}, ${s.create.requests}, ${fmt(s.create.write)}, ${s.create.ms} ms`,
      `${s.completeSeconds === null ? 'not within the wait' : `${s.completeSeconds} s`} (${r.targetSeconds} s)`,
      `${s.consumerPerOccurrence.requests}, ${fmt(s.consumerPerOccurrence.write)}`,
      `${s.occurrences.requests}, ${fmt(s.occurrences.read)}, ${s.occurrences.medianMs} ms`,
      `${s.singles.requests}, ${fmt(s.singles.read)}, ${s.singles.medianMs} ms`,
    ].join(' | ');
  return [
    `Run of ${runOf(r)}; a daily series of ${r.days} occurrences created in one request at each size; pages of ${r.perPage} events, anonymous. WCU/RCU = consumed write/read capacity units.`,
    '',
    '| events in the table | create: status, requests, WCU, time | every occurrence listed after (target) | the consumer per occurrence: requests, WCU | page of occurrences: requests, RCU, median | page of single events: requests, RCU, median |',
    '| --- | --- | --- | --- | --- | --- |',
    ...r.sizes.map((s) => `| ${row(s)} |`),
  ].join('\n');
}

export interface VersusTecResults {
  generatedAt: string;
  commit?: string;
  dirty?: boolean;
  machine?: { cpu: string; cores: number };
  tec: { upcomingEvents: number; version?: string };
  events: number;
  requests: number;
  rounds: number;
  kinds: { label: string; serverMs: number; dynamoMs: number; tecMs: number; ratio: number }[];
}

/** The table of `npm run bench:versus-tec` (bench/results/versus-tec.json). */
export function renderVersusTec(r: VersusTecResults): string {
  return [
    `Run: ${runOf(r)}; TEC ${r.tec.version ?? '(version unknown)'} with ${r.tec.upcomingEvents} upcoming events, ${r.events} here; ${r.requests} requests × ${r.rounds} rounds per read and side.`,
    '',
    '| read | this server (ms CPU) | DynamoDB Local (ms CPU) | TEC: Apache and MariaDB (ms CPU) | TEC ÷ this server |',
    '| --- | --- | --- | --- | --- |',
    ...r.kinds.map((k) => `| ${k.label} | ${fmt(k.serverMs)} | ${fmt(k.dynamoMs)} | ${fmt(k.tecMs)} | ${fmt(k.ratio)}× |`),
  ].join('\n');
}
