// `npm run bench:writes`: writes under contention, as clients see them: through the local API
// Gateway over HTTP on 127.0.0.1 (each request runs its operation's handler with the function's
// table grants and timeout), against an in-memory DynamoDB Local, BENCH_IN_FLIGHT requests in
// flight (default 50):
//
//   a. BENCH_WRITES (default 200) creates of events with distinct titles;
//   b. as many creates with one title (every writer wants one slug);
//   c. as many PATCHes of one event, each setting the title to its own value `T-<n>`;
//   d. as many PATCHes of one event, each changing one of eight fields (title, description,
//      featured, cost, dates, categories, sticky, website) to its own value: half of them change
//      what the event's index items, count buckets, term counts and links derive from.
//
// It prints, per scenario, the success rate, status counts, p50 / p99 latency, distinct ids and
// slugs, and what the store did (requests by command, transactions and the items whose condition
// or concurrency made them fail), then checks:
//   - no 5xx answer;
//   - every created event is stored once: its id and its slug read back, the window's list
//     total and ids are exactly the successes (a failed create stored nothing);
//   - the same-title creates' p50 is within 2x the distinct-title creates' p50;
//   - >= 90 % of the PATCHes of c succeed (d reports its rate: three of its eight fields are
//     indexed, and one event's writers of those must commit one after another); the record's version
//     moved once per success (a failed PATCH changed nothing); each field holds a value one of
//     its successful PATCHes sent (the last writer wins); the event's index items, links, term
//     counts and list totals agree with the record.
// The figures go to bench/results/writes.json. Exit code 1 when a check fails, 2 on an error.
//
// Its settings are environment variables (`npm run bench:writes -- --help` lists them).
import { mkdir, writeFile } from 'node:fs/promises';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { DeleteTableCommand } from '@aws-sdk/client-dynamodb';
import { config } from '#lib/runtime/config.js';
import { db } from '#lib/store/db.js';
import { benchCli } from './cli.js';
import { benchTable, runBench } from './main.js';
import { plain } from './trace.js';
import { mintToken } from '#lib/local/dev-auth.js';
import { localClient } from '#lib/local/dynamo.js';
import { startGateway, type Gateway } from '#lib/local/gateway.js';
import { indexAttributes } from '#lib/logic/event-writes.js';
import { getItem } from '#lib/store/reads.js';
import { keys, listKeys } from '#lib/store/keys.js';
import { ofKind, type LinkItem } from '#lib/store/items.js';
import { pool } from '#lib/runtime/pool.js';

const settings = benchCli(
  'bench:writes',
  `Writes under contention through the local API Gateway over HTTP (about a minute): (a) creates with
distinct titles, (b) creates with one title, (c) PATCHes of one event's title, (d) PATCHes of one
event over eight fields. Checks that nothing answers 5xx and that every write is stored exactly
once and consistently; writes bench/results/writes.json and exits 1 when a check fails.`,
  {
    BENCH_WRITES: { meaning: 'requests per scenario', default: 200 },
    BENCH_IN_FLIGHT: { meaning: 'requests in flight', default: 50 },
    BENCH_ONLY: { meaning: 'the scenarios to run, separated by commas', default: 'a,b,c,d' },
  },
);

process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED ??= 'true';

const HERE = dirname(fileURLToPath(import.meta.url));
const RESULTS = resolve(HERE, 'results', 'writes.json');

const WRITES = settings.count('BENCH_WRITES');
/** Run only these scenarios (a, b, c, d; default all). */
const ONLY = new Set(
  settings
    .text('BENCH_ONLY')!
    .split(',')
    .map((s) => s.trim()),
);
const IN_FLIGHT = settings.count('BENCH_IN_FLIGHT');
const MIN_PATCH_SUCCESS = 0.9;
const MAX_P50_RATIO = 2;

// --- the store, seen from inside ------------------------------------------------------------------

interface StoreTally {
  commands: Record<string, number>;
  transactions: number;
  cancelled: number;
  /** Why transactions were cancelled: `<reason> <item kind>` -> count. */
  reasons: Record<string, number>;
  /** Single-item writes that failed: `<error> <item kind>` -> count. */
  failedWrites: Record<string, number>;
}

const tally: StoreTally = { commands: {}, transactions: 0, cancelled: 0, reasons: {}, failedWrites: {} };
const resetTally = () => Object.assign(tally, { commands: {}, transactions: 0, cancelled: 0, reasons: {}, failedWrites: {} });

/** `POST`, `IDX#featured`, `SLUG#event`, `COUNT#LIST#event#en#publish`, `STATS`, `COUNTER#post`… */
function itemKind(key: { pk?: unknown; sk?: unknown } | undefined): string {
  const pk = plain(key?.pk ?? '?');
  const sk = plain(key?.sk ?? '');
  if (pk.startsWith('POST#')) return sk === 'POST' ? 'POST (record)' : sk.startsWith('EVENT#') ? 'link item' : sk;
  if (pk.startsWith('TERM#')) return sk === 'TERM' ? 'TERM (record)' : 'link item';
  if (pk.startsWith('COUNT#')) return `COUNT bucket ${pk.slice(6).replace(/^LIST#event#[a-z]+#/, '')}`;
  if (pk.startsWith('SLUG#') || pk.startsWith('SLUGSEQ#') || pk.startsWith('TERMNAME#')) return pk.split('#').slice(0, 2).join('#');
  return pk.startsWith('COUNTER#') ? pk : pk.replace(/#.*/, '');
}

function installTally(): void {
  db().middlewareStack.add(
    (next, context) => async (args) => {
      const command = String(context.commandName ?? 'Command').replace(/Command$/, '');
      tally.commands[command] = (tally.commands[command] ?? 0) + 1;
      const input = args.input as Record<string, any>;
      if (command === 'TransactWriteItems') tally.transactions++;
      try {
        return await next(args);
      } catch (err) {
        const e = err as { name?: string; CancellationReasons?: { Code?: string }[] };
        if (e.name === 'TransactionCanceledException') {
          tally.cancelled++;
          (e.CancellationReasons ?? []).forEach((r, i) => {
            if (!r.Code || r.Code === 'None') return;
            const item = input.TransactItems?.[i] ?? {};
            const op = item.Put ?? item.Update ?? item.Delete ?? item.ConditionCheck;
            const k = `${r.Code} ${itemKind(op?.Item ?? op?.Key)}`;
            tally.reasons[k] = (tally.reasons[k] ?? 0) + 1;
          });
        } else if (input.Key || input.Item) {
          const k = `${e.name ?? 'Error'} ${itemKind(input.Key ?? input.Item)}`;
          tally.failedWrites[k] = (tally.failedWrites[k] ?? 0) + 1;
        }
        throw err;
      }
    },
    { step: 'initialize', name: 'benchWritesTally' },
  );
}

// --- HTTP -----------------------------------------------------------------------------------------

interface Answer {
  status: number;
  body: any;
  ms: number;
}

let gateway: Gateway;
let token: string;

async function send(method: string, path: string, body?: unknown, auth = true): Promise<Answer> {
  const started = performance.now();
  const res = await fetch(`${gateway.url}/en/${config().namespace}/events/v1${path}`, {
    method,
    headers: {
      ...(auth ? { authorization: `Bearer ${token}` } : {}),
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  const ms = performance.now() - started;
  let parsed: unknown = text;
  try {
    parsed = text ? JSON.parse(text) : undefined;
  } catch {
    // not JSON (API Gateway's own 500 is, but keep whatever came)
  }
  return { status: res.status, body: parsed, ms };
}

async function expectOk(method: string, path: string, body?: unknown): Promise<any> {
  const res = await send(method, path, body);
  if (res.status >= 300) throw new Error(`${method} ${path} -> ${res.status}: ${JSON.stringify(res.body).slice(0, 400)}`);
  return res.body;
}

/** Runs `fn` for 0..n-1 with `width` calls in flight. */
const storm = <T>(n: number, width: number, fn: (i: number) => Promise<T>): Promise<T[]> =>
  pool(
    Array.from({ length: n }, (_, i) => i),
    width,
    fn,
  );

// --- scenarios ------------------------------------------------------------------------------------

interface Check {
  name: string;
  pass: boolean;
  detail: string;
  /** Reported, but the run does not fail on it. */
  info?: boolean;
}

interface Scenario {
  key: string;
  label: string;
  requests: number;
  succeeded: number;
  successRate: number;
  statuses: Record<string, number>;
  latencyMs: { p50: number; p99: number; max: number };
  wallSeconds: number;
  distinctIds?: number;
  distinctSlugs?: number;
  store: StoreTally;
  final?: Record<string, unknown>;
  notes: string[];
  checks: Check[];
}

const round = (x: number, d = 1) => Math.round(x * 10 ** d) / 10 ** d;
const pct = (xs: number[], p: number) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length ? s[Math.min(s.length - 1, Math.ceil((p / 100) * s.length) - 1)]! : 0;
};
const check = (name: string, pass: boolean, detail: string, info = false): Check => ({ name, pass, detail, ...(info ? { info } : {}) });

async function run(key: string, label: string, fn: (i: number) => Promise<Answer>): Promise<{ answers: Answer[]; scenario: Scenario }> {
  console.error(`${label}: ${WRITES} requests, ${IN_FLIGHT} in flight…`);
  resetTally();
  const started = performance.now();
  const answers = await storm(WRITES, IN_FLIGHT, fn);
  const wallSeconds = (performance.now() - started) / 1000;
  const store = JSON.parse(JSON.stringify(tally)) as StoreTally;
  const statuses: Record<string, number> = {};
  for (const a of answers) statuses[a.status] = (statuses[a.status] ?? 0) + 1;
  const succeeded = answers.filter((a) => a.status < 300).length;
  const ms = answers.map((a) => a.ms);
  const scenario: Scenario = {
    key,
    label,
    requests: WRITES,
    succeeded,
    successRate: round((100 * succeeded) / WRITES, 1),
    statuses,
    latencyMs: { p50: round(pct(ms, 50)), p99: round(pct(ms, 99)), max: round(Math.max(...ms)) },
    wallSeconds: round(wallSeconds, 2),
    store,
    notes: [],
    checks: [],
  };
  const fiveXX = answers.filter((a) => a.status >= 500);
  scenario.checks.push(check('no 5xx', fiveXX.length === 0, fiveXX.length ? `${fiveXX.length} answers ${[...new Set(fiveXX.map((a) => a.status))].join(', ')}` : 'none'));
  return { answers, scenario };
}

const MONTHS = { warm: '2030-12', distinct: '2031-01', same: '2031-02', title: '2031-03', fields: '2031-04' } as const;
const at = (month: string, day: number, hour: number) => `${month}-${String(day).padStart(2, '0')} ${String(hour).padStart(2, '0')}:00:00`;
const lastDay = (month: string) => new Date(Date.UTC(Number(month.slice(0, 4)), Number(month.slice(5, 7)), 0)).getUTCDate();
const windowOf = (month: string) => `start_date=${month}-01&end_date=${month}-${lastDay(month)}`;

/** Every event id of a month's published list (anonymous, as any client sees it), and its total. */
async function listed(month: string, extra = ''): Promise<{ total: number; ids: number[] }> {
  const ids: number[] = [];
  let total = -1;
  for (let page = 1; ; page++) {
    const res = await send('GET', `/events?${windowOf(month)}&per_page=50&page=${page}${extra}`, undefined, false);
    if (res.status === 404 && page > 1) break; // past the last page (TEC's archive-page-not-found)
    if (res.status !== 200) throw new Error(`GET /events page ${page} -> ${res.status}: ${JSON.stringify(res.body).slice(0, 300)}`);
    total = res.body.total;
    ids.push(...(res.body.events as { id: number }[]).map((e) => e.id));
    if (ids.length >= total || !res.body.events.length) break;
  }
  return { total: Math.max(total, 0), ids };
}

/** Checks a create storm: every success stored once and readable by id and slug, nothing else stored. */
async function verifyCreates(s: Scenario, answers: Answer[], month: string): Promise<void> {
  const made = answers.filter((a) => a.status === 201).map((a) => ({ id: a.body.id as number, slug: a.body.slug as string }));
  s.distinctIds = new Set(made.map((m) => m.id)).size;
  s.distinctSlugs = new Set(made.map((m) => m.slug)).size;
  s.checks.push(
    check('distinct ids and slugs', s.distinctIds === made.length && s.distinctSlugs === made.length, `${made.length} created, ${s.distinctIds} ids, ${s.distinctSlugs} slugs`),
  );
  const reads = await storm(made.length, IN_FLIGHT, async (i) => {
    const m = made[i]!;
    const [byId, bySlug] = await Promise.all([send('GET', `/events/${m.id}`, undefined, false), send('GET', `/events/by-slug/${m.slug}`, undefined, false)]);
    return byId.status === 200 && byId.body.slug === m.slug && bySlug.status === 200 && bySlug.body.id === m.id;
  });
  const unreadable = reads.filter((ok) => !ok).length;
  s.checks.push(check('every success reads back by id and slug', unreadable === 0, unreadable ? `${unreadable} do not` : `${made.length} do`));
  const list = await listed(month);
  const want = new Set(made.map((m) => m.id));
  const extra = list.ids.filter((id) => !want.has(id));
  const missing = [...want].filter((id) => !list.ids.includes(id));
  s.checks.push(
    check(
      'stored exactly the successes (list total and ids)',
      list.total === made.length && extra.length === 0 && missing.length === 0 && list.ids.length === made.length,
      `list total ${list.total}, ${list.ids.length} listed, ${made.length} successes, ${extra.length} extra, ${missing.length} missing`,
    ),
  );
}

interface FieldWrite {
  field: string;
  body: Record<string, unknown>;
  /** The value the record's field shows after this write (as the API presents it). */
  shown: unknown;
}

/** Checks that an event's derived items and list totals agree with its record. */
async function verifyDerived(s: Scenario, id: number, month: string, terms: number[]): Promise<void> {
  const record = ofKind(await getItem(keys.post(id)), 'event')!;
  const problems: string[] = [];
  const want = JSON.stringify(indexAttributes(record));
  const featured = await getItem<LinkItem>(keys.featured(id));
  if (!featured || JSON.stringify(indexAttributes(featured)) !== want) problems.push('featured item differs from the record');
  const keysWanted = listKeys.event(record.lang, record.status, record.utcStart, id, `featured#${record.featured ? 1 : 0}`);
  if (featured && (featured.gsi2pk !== keysWanted.gsi2pk || featured.gsi2sk !== keysWanted.gsi2sk)) problems.push('featured item is in the wrong list');
  for (const term of terms) {
    const link = await getItem<LinkItem>(keys.link(keys.term(term).pk, id));
    const linked = record.categories.includes(term);
    if (linked !== !!link) problems.push(`term ${term}: link item ${link ? 'present' : 'missing'}, record ${linked ? 'links' : 'does not link'} it`);
    if (link && JSON.stringify(indexAttributes(link)) !== want) problems.push(`term ${term}: link item differs from the record`);
    const count = (await expectOk('GET', `/categories/${term}`)).count as number;
    if (count !== (linked ? 1 : 0)) problems.push(`term ${term}: count ${count}, expected ${linked ? 1 : 0}`);
    const total = (await listed(month, `&categories=${term}`)).total;
    if (total !== (linked ? 1 : 0)) problems.push(`term ${term}: list total ${total}, expected ${linked ? 1 : 0}`);
  }
  const all = await listed(month);
  if (all.total !== 1 || all.ids[0] !== id) problems.push(`month list: total ${all.total}, ids ${all.ids.join(',')}`);
  for (const flag of [true, false]) {
    const total = (await listed(month, `&featured=${flag}`)).total;
    if (total !== (record.featured === flag ? 1 : 0)) problems.push(`featured=${flag}: list total ${total}, record featured ${record.featured}`);
  }
  const bySlug = await send('GET', `/events/by-slug/${record.slug}`, undefined, false);
  if (bySlug.status !== 200 || bySlug.body.id !== id) problems.push(`by-slug read: ${bySlug.status}`);
  s.checks.push(check('index items, links, term counts and list totals agree with the record', problems.length === 0, problems.join('; ') || 'they do'));
}

/** PATCH storm on one event: success rate, version moved once per success, last writer wins per field. */
async function patchStorm(
  key: string,
  label: string,
  month: string,
  writes: (i: number) => FieldWrite,
  terms: number[],
  initial: Record<string, unknown>,
  rateIsInfo = false,
): Promise<Scenario> {
  const created = await expectOk('POST', '/events', { title: `${label} target`, start_date: at(month, 10, 10), end_date: at(month, 10, 11), ...initial });
  const id = created.id as number;
  const before = ofKind(await getItem(keys.post(id)), 'event')!.version;
  const plan = Array.from({ length: WRITES }, (_, i) => writes(i));
  const { answers, scenario: s } = await run(key, label, (i) => send('PATCH', `/events/${id}`, plan[i]!.body));
  const after = ofKind(await getItem(keys.post(id)), 'event')!.version;
  s.checks.push(check(`>= ${MIN_PATCH_SUCCESS * 100} % succeed`, s.succeeded >= MIN_PATCH_SUCCESS * WRITES, `${s.successRate} %`, rateIsInfo));
  s.checks.push(check('version moved once per success (failures changed nothing)', after - before === s.succeeded, `version ${before} -> ${after}, ${s.succeeded} successes`));
  const final = await expectOk('GET', `/events/${id}`);
  const shown: Record<string, unknown> = {};
  const problems: string[] = [];
  for (const field of [...new Set(plan.map((p) => p.field))]) {
    const wins = plan.filter((p, i) => p.field === field && answers[i]!.status === 200).map((p) => JSON.stringify(p.shown));
    const value = JSON.stringify(presented(final, field));
    shown[field] = presented(final, field);
    // No successful write of the field: it keeps the value it had.
    if (wins.length === 0 ? value !== JSON.stringify(presented(created, field)) : !wins.includes(value)) problems.push(`${field} = ${value}`);
  }
  s.final = shown;
  s.checks.push(check('each field holds a value a successful PATCH sent (last writer wins)', problems.length === 0, problems.join('; ') || JSON.stringify(shown)));
  await verifyDerived(s, id, month, terms);
  return s;
}

/** A field of an event as the API presents it. */
function presented(e: any, field: string): unknown {
  switch (field) {
    case 'title':
      return e.title;
    case 'description':
      return String(e.description).replace(/<\/?p>|\n/g, '');
    case 'dates':
      return e.start_date;
    case 'categories':
      return (e.categories as { id: number }[]).map((c) => c.id);
    case 'cost':
      return e.cost;
    default:
      return e[field];
  }
}

// --- printing -------------------------------------------------------------------------------------

function table(head: string[], rows: (string | number)[][]): string {
  const cells = [head, ...rows.map((r) => r.map(String))];
  const widths = head.map((_, i) => Math.max(...cells.map((r) => r[i]!.length)));
  const line = (r: string[]) =>
    r
      .map((c, i) => (i === 0 || i === r.length - 1 ? c.padEnd(widths[i]!) : c.padStart(widths[i]!)))
      .join('  ')
      .trimEnd();
  return [line(head), widths.map((w) => '-'.repeat(w)).join('  '), ...cells.slice(1).map(line)].join('\n');
}

const counts = (c: Record<string, number>) =>
  Object.entries(c)
    .sort((a, b) => b[1] - a[1])
    .map(([k, n]) => `${k} ×${n}`)
    .join(', ') || '-';

// --- main -----------------------------------------------------------------------------------------

async function main(): Promise<number> {
  const runStart = performance.now();
  // No stream: nothing here consumes it, and DynamoDB Local would charge every request for it.
  const { keys: devKeys, dynamo, endpoint, tableName } = await benchTable('writes', { stream: false });
  installTally();
  gateway = await startGateway({ quiet: true, host: '127.0.0.1', port: 0 });
  token = await mintToken(devKeys, { role: 'editor', sub: 'bench-writes-editor', ttl: '2h' });
  console.error(
    `DynamoDB: ${endpoint}${dynamo ? ' (in-memory DynamoDB Local)' : ''}; table ${tableName}; gateway ${gateway.url}; ${WRITES} writes per scenario, ${IN_FLIGHT} in flight`,
  );

  const scenarios: Scenario[] = [];
  const checks: Check[] = [];
  try {
    // Warm-up: handler modules, token verification, connections (its events are in their own month).
    const warm = await expectOk('POST', '/events', { title: 'Warm-up', start_date: at(MONTHS.warm, 1, 10), end_date: at(MONTHS.warm, 1, 11) });
    await Promise.all([
      expectOk('PATCH', `/events/${warm.id}`, { title: 'Warm-up 2' }),
      expectOk('PATCH', `/events/${warm.id}`, { featured: true }),
      expectOk('GET', `/events/${warm.id}`),
      expectOk('GET', `/events/by-slug/${warm.slug}`),
      expectOk('GET', `/events?${windowOf(MONTHS.warm)}`),
    ]);
    // A burst like the measured ones, so that the first measured scenario does not pay for
    // DynamoDB Local's warm-up.
    await storm(IN_FLIGHT * 2, IN_FLIGHT, (i) =>
      expectOk('POST', '/events', { title: `Warm-up ${i}`, start_date: at(MONTHS.warm, 2 + (i % 27), 10), end_date: at(MONTHS.warm, 2 + (i % 27), 11) }),
    );
    const catA = (await expectOk('POST', '/categories', { name: 'Storm A' })).id as number;
    const catB = (await expectOk('POST', '/categories', { name: 'Storm B' })).id as number;
    await expectOk('GET', `/categories/${catA}`);

    // a. distinct titles
    const distinct = !ONLY.has('a')
      ? undefined
      : await run('distinct', 'a. create, distinct titles', (i) =>
          send('POST', '/events', { title: `Storm distinct ${i}`, start_date: at(MONTHS.distinct, 1 + (i % 28), 10), end_date: at(MONTHS.distinct, 1 + (i % 28), 11) }),
        );
    if (distinct) {
      await verifyCreates(distinct.scenario, distinct.answers, MONTHS.distinct);
      scenarios.push(distinct.scenario);
    }

    // b. one title
    const same = !ONLY.has('b')
      ? undefined
      : await run('same-title', 'b. create, one title', (i) =>
          send('POST', '/events', { title: 'Storm same title', start_date: at(MONTHS.same, 1 + (i % 28), 10), end_date: at(MONTHS.same, 1 + (i % 28), 11) }),
        );
    if (same) {
      await verifyCreates(same.scenario, same.answers, MONTHS.same);
      const suffixes = same.answers.filter((a) => a.status === 201).map((a) => (a.body.slug === 'storm-same-title' ? 1 : Number(/-(\d+)$/.exec(a.body.slug)?.[1] ?? NaN)));
      const top = Math.max(...suffixes);
      same.scenario.notes.push(`slugs storm-same-title … storm-same-title-${top}: ${top - suffixes.length} numbers skipped`);
      scenarios.push(same.scenario);
    }
    if (distinct && same) {
      const ratio = same.scenario.latencyMs.p50 / distinct.scenario.latencyMs.p50;
      checks.push(
        check(
          `same-title p50 <= ${MAX_P50_RATIO}x distinct-title p50`,
          ratio <= MAX_P50_RATIO,
          `${same.scenario.latencyMs.p50} ms / ${distinct.scenario.latencyMs.p50} ms = ${ratio.toFixed(2)}x`,
        ),
      );
    }

    // c. one field, 200 values
    if (ONLY.has('c'))
      scenarios.push(
        await patchStorm('patch-title', 'c. PATCH one event, title T-<n>', MONTHS.title, (i) => ({ field: 'title', body: { title: `T-${i}` }, shown: `T-${i}` }), [], {}),
      );

    // d. eight fields, half of them indexed
    const fieldWrite = (i: number): FieldWrite => {
      const day = 1 + (i % 28);
      switch (i % 8) {
        case 0:
          return { field: 'title', body: { title: `F-${i}` }, shown: `F-${i}` };
        case 1:
          return { field: 'description', body: { description: `Description ${i}` }, shown: `Description ${i}` };
        case 2:
          return { field: 'featured', body: { featured: i % 16 === 2 }, shown: i % 16 === 2 };
        case 3:
          return { field: 'cost', body: { cost: String(i) }, shown: `$${i}` };
        case 4:
          return { field: 'dates', body: { start_date: at(MONTHS.fields, day, 9), end_date: at(MONTHS.fields, day, 12) }, shown: at(MONTHS.fields, day, 9) };
        case 5:
          return { field: 'categories', body: { categories: [i % 16 === 5 ? catA : catB] }, shown: [i % 16 === 5 ? catA : catB] };
        case 6:
          return { field: 'sticky', body: { sticky: i % 16 === 6 }, shown: i % 16 === 6 };
        default:
          return { field: 'website', body: { website: `https://example.com/${i}` }, shown: `https://example.com/${i}` };
      }
    };
    // Updates of what the event's index items derive from (featured, dates, categories) are
    // serialised by the event's index state: their rate is bounded by how fast the store commits
    // one transaction after another, so it is reported, not required.
    if (ONLY.has('d')) scenarios.push(await patchStorm('patch-fields', 'd. PATCH one event, 8 fields', MONTHS.fields, fieldWrite, [catA, catB], { categories: [catA] }, true));
  } finally {
    await gateway.close();
    if (dynamo) await dynamo.stop();
    else {
      const client = localClient(endpoint);
      await client.send(new DeleteTableCommand({ TableName: tableName })).catch(() => undefined);
      client.destroy();
    }
  }

  for (const s of scenarios) checks.push(...s.checks.map((c) => ({ ...c, name: `${s.key}: ${c.name}` })));
  console.log(`\n== writes under contention: ${WRITES} requests per scenario, ${IN_FLIGHT} in flight, over HTTP through the local gateway ==`);
  console.log(
    table(
      ['scenario', 'ok %', 'statuses', 'p50 ms', 'p99 ms', 'wall s', 'ids', 'slugs', 'tx', 'tx cancelled', 'requests'],
      scenarios.map((s) => [
        s.label,
        s.successRate.toFixed(1),
        Object.entries(s.statuses)
          .map(([k, n]) => `${k}×${n}`)
          .join(' '),
        s.latencyMs.p50.toFixed(0),
        s.latencyMs.p99.toFixed(0),
        s.wallSeconds.toFixed(1),
        s.distinctIds ?? '-',
        s.distinctSlugs ?? '-',
        s.store.transactions,
        s.store.cancelled,
        Object.values(s.store.commands).reduce((a, b) => a + b, 0),
      ]),
    ),
  );
  console.log('\n== what failed in the store ==');
  for (const s of scenarios) {
    console.log(`${s.label}: requests ${counts(s.store.commands)}`);
    console.log(`   cancelled transactions by item: ${counts(s.store.reasons)}; failed single writes: ${counts(s.store.failedWrites)}`);
    for (const n of s.notes) console.log(`   ${n}`);
    if (s.final) console.log(`   final: ${JSON.stringify(s.final)}`);
  }
  console.log('\n== checks ==');
  for (const c of checks) console.log(`${c.pass ? 'PASS' : c.info ? 'INFO' : 'FAIL'}  ${c.name}: ${c.detail}`);
  const failed = checks.filter((c) => !c.pass && !c.info);
  const totalSeconds = (performance.now() - runStart) / 1000;
  console.log(`\nTotal time ${totalSeconds.toFixed(1)} s. ${failed.length ? `FAIL: ${failed.length} check(s).` : 'All checks PASS.'}`);

  await mkdir(dirname(RESULTS), { recursive: true });
  await writeFile(
    RESULTS,
    `${JSON.stringify(
      {
        generatedAt: new Date().toISOString(),
        endpoint: dynamo ? 'in-memory DynamoDB Local' : endpoint,
        transport: 'HTTP through the local API Gateway (function timeouts and table grants enforced)',
        writesPerScenario: WRITES,
        inFlight: IN_FLIGHT,
        totalSeconds: round(totalSeconds, 1),
        scenarios,
        checks,
        pass: failed.length === 0,
      },
      null,
      2,
    )}\n`,
  );
  console.error(`Wrote ${RESULTS}`);
  return failed.length ? 1 : 0;
}

runBench(main);
