// The fuzz run, shared by `npm run fuzz` (scripts/fuzz.ts) and the end-to-end slice
// (test/e2e/fuzz.test.ts): against a gateway that runs in this process on a fresh table, it
// mints the callers, reads /doc, seeds a little data, probes, sends the generated requests (a few
// at a time; the ones with prototype keys alone), judges every response (oracle.ts), watches the
// built-in prototypes, probes again, and shrinks the first failure of every kind to the parts of
// the request it needs.
import { mintToken, type DevKeys } from '#lib/local/dev-auth.js';
import { OPERATIONS } from '#lib/contract/operations.js';
import { client, materialize, type LiveWorld, type Received, type Sent } from './client.js';
import { compareProbes, probe, PrototypeGuard } from './isolation.js';
import { bodyBuffer, bodyPreview, type Body, type Caller, type FuzzRequest, type Part } from './model.js';
import { Oracle, type Failure } from './oracle.js';
import { requestGenerator } from './requests.js';
import { basic, BASIC_USER, callerHeaders, jsonApi, seedData } from './seed.js';

export interface FuzzOptions {
  /** The gateway, e.g. http://127.0.0.1:3000 (no trailing slash). */
  origin: string;
  keys: DevKeys;
  runs: number;
  seed: number;
  /** Requests in flight at once (default 8). */
  concurrency?: number;
  /** Shrink the first failure of every kind (default true). */
  minimize?: boolean;
  /** At most this many requests for shrinking, over all failures (default 1500). */
  minimizeBudget?: number;
  /** Progress lines (default: none). */
  log?: (line: string) => void;
}

/** A request as sent, for the report. */
export interface Repro {
  method: string;
  target: string;
  caller: Caller;
  headers: Record<string, string>;
  body?: string;
  notes: string[];
}

export interface FailureCase extends Failure {
  n: number;
  op?: string;
  request: Repro;
  status: number;
  response: string;
}

export interface FailureGroup {
  key: string;
  check: string;
  count: number;
  /** How many failures of the group each operation and method had. */
  ops: Record<string, number>;
  first: FailureCase;
  /** The first case with every part it does not need dropped (when minimization ran). */
  minimized?: { request: Repro; status: number; response: string; sends: number };
}

export interface FuzzSummary {
  seed: number;
  runs: number;
  /** Generated requests sent. */
  sent: number;
  /** Requests besides those: seeding, probes, minimization. */
  extra: number;
  ms: number;
  perStatus: Record<string, number>;
  /** Successes (2xx) per operation: which ones the run got through. */
  successes: Record<string, number>;
  groups: FailureGroup[];
  /** Probes that failed before the run (the server was wrong from the start). */
  probeBefore: string[];
  /** Probes that failed after, or differ from before. */
  probeAfter: string[];
  /** Lines the server logged on stderr (first few distinct). */
  serverErrors: { count: number; samples: string[] };
  failures: number;
  /** Mean answer time per operation (ms), slowest first. */
  latency: [string, number, number][];
}

const MAX_GROUP_CASES = 5;

const normalize = (text: string) => text.replace(/\[\d+\]|\/\d+(?=\/|\s|$)/g, '[]').replace(/-?\d+(\.\d+)?(e[+-]?\d+)?/gi, 'N');

/**
 * The group of a failure: the rule and what it says in general. Failures that follow from the
 * data (a schema mismatch, an accepted value, a stored control character, a changed prototype)
 * are one group across operations; the others (5xx, statuses) are grouped per operation.
 */
function groupKey(c: FailureCase): string {
  const where = c.op ? `${c.op} ${c.request.method}` : `no route ${c.request.method}`;
  switch (c.check) {
    case 'accepted-invalid':
      return `${c.check} | ${normalize(c.detail.split(';')[0]!.trim())}`;
    case 'schema':
      return `${c.check} | ${normalize(c.detail)
        .replace(/^\/(events|venues|organizers|categories|tags)\[\]/, '$')
        .replace(/^\/(events|venues|organizers|categories|tags)\[\]/, '$')}`;
    case 'control-characters':
      return `${c.check} | ${c.detail
        .split(' = ')[0]!
        .split(' has the key ')[0]!
        .replace(/\[\d+\]/g, '[]')
        .replace(/^\$\.(events|venues|organizers|categories|tags)\[\]/, '$')}`;
    case 'prototype-pollution':
      return `${c.check} | ${c.detail.replace(/ = .*| changed.*| deleted.*/, '').split(',')[0]}`;
    default:
      return `${c.check} | ${where} | ${c.status}`;
  }
}

function repro(req: FuzzRequest, sent: Sent): Repro {
  const headers = { ...sent.headers };
  if (headers.authorization) headers.authorization = `<${req.caller} token>`;
  return { method: sent.method, target: sent.target, caller: req.caller, headers, ...(req.body ? { body: bodyPreview(req.body, 600) } : {}), notes: req.notes };
}

export async function runFuzz(opts: FuzzOptions): Promise<FuzzSummary> {
  const started = Date.now();
  const log = opts.log ?? (() => undefined);
  const concurrency = Math.max(1, opts.concurrency ?? 8);
  const http = client(opts.origin, concurrency + 1);
  const auth = await callerHeaders(opts.keys);
  const api = jsonApi(http, auth);
  let extra = 0;
  const counted: typeof api = async (...a) => {
    extra++;
    return api(...a);
  };

  // The server's error log, kept short.
  const serverErrors = { count: 0, samples: [] as string[] };
  const originalError = console.error;
  console.error = (...args: unknown[]) => {
    serverErrors.count++;
    const line = logSummary(args.map(String).join(' '));
    if (serverErrors.samples.length < 12 && !serverErrors.samples.includes(line)) serverErrors.samples.push(line);
  };

  const groups = new Map<string, FailureGroup & { cases: { req: FuzzRequest; sent: Sent }[] }>();
  const perStatus: Record<string, number> = {};
  const successes: Record<string, number> = Object.fromEntries(OPERATIONS.map((o) => [o.id, 0]));
  let failures = 0;
  let sentCount = 0;
  const latency = new Map<string, { n: number; ms: number }>();

  try {
    const docRes = await counted('GET', '/doc');
    if (docRes.status !== 200) throw new Error(`GET /doc answered ${docRes.status}: ${docRes.text.slice(0, 300)}`);
    const oracle = new Oracle(docRes.body);
    const owner = `Bearer ${await mintToken(opts.keys, { role: 'editor', sub: BASIC_USER, ttl: '2h' })}`;
    const world = await seedData(counted, owner);
    auth['app-password'] = world.appPassword;
    const live: LiveWorld = { ids: structuredClone(world.ids), slugs: structuredClone(world.slugs) };
    // The run may revoke the Basic caller's password (its own requests may): a new one keeps the
    // caller signed in, so that HTTP Basic stays covered to the end.
    let renewing: Promise<void> | undefined;
    let renewals = 0;
    const renewBasic = (failed: string | undefined) => {
      if (failed !== auth['app-password']) return renewing;
      return (renewing ??= (async () => {
        const made = await counted('POST', '/users/me/application-passwords', { api: 'wp', authorization: owner, body: { name: `Fuzz Basic ${++renewals}` } });
        if (made.status !== 201) return;
        auth['app-password'] = basic(BASIC_USER, made.body.password);
        for (const list of ['appPasswords', 'appPasswords.app-password']) (live.slugs[list] ??= []).push(made.body.uuid);
      })().finally(() => {
        renewing = undefined;
      }));
    };
    const guard = new PrototypeGuard();
    const tokenOf = (c: Caller) => auth[c];

    const before = await probe(counted, docRes.text, 'before');
    const generator = requestGenerator(world);
    log(
      `seeded ${Object.values(world.ids).flat().length} records; sending ${opts.runs} requests (sweeps of ${generator.sweepSize}: every argument of every operation faulty once each), ${concurrency} at a time`,
    );

    const record = (req: FuzzRequest, sent: Sent, res: Received | undefined, found: Failure[]) => {
      for (const f of found) {
        failures++;
        const c: FailureCase = {
          ...f,
          n: req.n,
          ...(req.op ? { op: req.op } : {}),
          request: repro(req, sent),
          status: res?.status ?? 0,
          response: res ? res.text.slice(0, 500) : '(no answer)',
        };
        const key = groupKey(c);
        let g = groups.get(key);
        if (!g) groups.set(key, (g = { key, check: f.check, count: 0, ops: {}, first: c, cases: [] }));
        g.count++;
        const where = req.op ? `${req.op} ${req.method}` : `no route ${req.method}`;
        g.ops[where] = (g.ops[where] ?? 0) + 1;
        if (g.cases.length < MAX_GROUP_CASES || (STATEFUL_CHECKS.has(f.check) && isCreate(req) && !g.cases.some((x) => isCreate(x.req)))) g.cases.push({ req, sent });
      }
    };

    /** Sends one request and judges its answer; returns the failures. */
    const judge = async (req: FuzzRequest, sent: Sent, inFlight: number[]): Promise<{ res?: Received; found: Failure[] }> => {
      let res: Received | undefined;
      const found: Failure[] = [];
      try {
        res = await http.send(sent);
      } catch (err) {
        found.push({ check: 'no-answer', detail: String((err as Error).message ?? err) });
      }
      // First undo any change to the prototypes: the oracle runs in this same process.
      const changes = guard.check();
      if (changes.length) {
        const others = inFlight.filter((n) => n !== req.n);
        found.push({ check: 'prototype-pollution', detail: `${changes.join(', ')}${others.length ? ` (or one of requests ${others.join(', ')} in flight)` : ''}` });
      }
      if (res) found.push(...oracle.check(req, res));
      return { res, found };
    };

    const inFlight = new Map<number, Promise<void>>();
    const runOne = async (req: FuzzRequest) => {
      const sent = materialize(req, live, tokenOf);
      const { res, found } = await judge(req, sent, [...inFlight.keys()]);
      sentCount++;
      if (res) {
        const l = latency.get(req.op ?? 'no route') ?? { n: 0, ms: 0 };
        l.n++;
        l.ms += res.ms;
        latency.set(req.op ?? 'no route', l);
        perStatus[res.status] = (perStatus[res.status] ?? 0) + 1;
        if (res.status < 300 && req.op) {
          successes[req.op] = (successes[req.op] ?? 0) + 1;
          // Records created by the run become targets too.
          if (req.method === 'POST' && req.op.endsWith('.create')) {
            try {
              const body = JSON.parse(res.text) as { id?: unknown; slug?: unknown; uuid?: unknown };
              const kind = req.op.split('.')[0]!;
              if (typeof body.id === 'number') live.ids[kind]?.push(body.id);
              if (typeof body.slug === 'string') live.slugs[kind]?.push(body.slug);
              // A password is only ever made for its caller.
              if (typeof body.uuid === 'string') for (const list of [kind, `${kind}.${req.caller}`]) (live.slugs[list] ??= []).push(body.uuid);
            } catch {
              /* judged already */
            }
          }
          // Revoked passwords are no targets any more (a caller's own list stays worth aiming at).
          if (req.op === 'appPasswords.delete' || req.op === 'appPasswords.deleteAll') forgetPasswords(live, req, res.text);
        }
      }
      record(req, sent, res, found);
      if (req.caller === 'app-password' && res?.status === 401 && res.text.includes('"incorrect_password"')) await renewBasic(sent.headers.authorization);
    };

    let lastLog = Date.now();
    for (const req of generator.stream(opts.seed, opts.runs)) {
      if (req.exclusive) {
        await Promise.all(inFlight.values());
        await runOne(req);
      } else {
        while (inFlight.size >= concurrency) await Promise.race(inFlight.values());
        const p = runOne(req).finally(() => inFlight.delete(req.n));
        inFlight.set(req.n, p);
      }
      if (Date.now() - lastLog > 10_000) {
        lastLog = Date.now();
        log(`  ${sentCount}/${opts.runs} requests, ${Math.round(sentCount / ((Date.now() - started) / 1000))}/s, ${failures} failures in ${groups.size} groups`);
      }
    }
    await Promise.all(inFlight.values());
    const pollutedAfter = guard.check();

    const after = await probe(counted, docRes.text, 'after');
    const probeAfter = [...after.problems, ...compareProbes(before, after), ...pollutedAfter.map((c) => `prototype changed: ${c}`)];

    if (opts.minimize !== false) {
      let budget = opts.minimizeBudget ?? 1500;
      for (const g of groups.values()) {
        if (budget <= 0) break;
        // What a response shows of stored records may come from an earlier request: such
        // failures shrink from a create only (whose answer shows what that request sent).
        const from = STATEFUL_CHECKS.has(g.check) ? g.cases.find((c) => isCreate(c.req)) : g.cases[0];
        if (!from) continue;
        const m = await minimize(from, g.key, (r, s) => judge(r, s, []), Math.min(60, budget));
        budget -= m.sends;
        extra += m.sends;
        g.minimized = m;
      }
    }

    return {
      seed: opts.seed,
      runs: opts.runs,
      sent: sentCount,
      extra,
      ms: Date.now() - started,
      perStatus,
      successes,
      groups: [...groups.values()].map(({ cases: _cases, ...g }) => g).sort((a, b) => a.key.localeCompare(b.key)),
      probeBefore: before.problems,
      probeAfter,
      serverErrors,
      failures,
      latency: [...latency].map(([op, l]): [string, number, number] => [op, l.n, Math.round(l.ms / l.n)]).sort((a, b) => b[2] - a[2]),
    };
  } finally {
    console.error = originalError;
    http.close();
  }
}

/**
 * Drops, one at a time, every query piece and body member the failure does not need (never one
 * that carries an expectation), keeping the request's resolved path; returns the smallest
 * request that still fails the same way.
 */
async function minimize(
  first: { req: FuzzRequest; sent: Sent },
  key: string,
  judge: (r: FuzzRequest, s: Sent) => Promise<{ res?: Received; found: Failure[] }>,
  maxSends: number,
): Promise<NonNullable<FailureGroup['minimized']> & { sends: number }> {
  const path = first.sent.target.split('?')[0]!;
  let req: FuzzRequest = { ...first.req, query: [...first.req.query], ...(first.req.body ? { body: cloneBody(first.req.body) } : {}) };
  let sends = 0;
  const build = (r: FuzzRequest): Sent => {
    const q = r.query.map((p) => p.text).join('&');
    const body = r.body ? bodyBufferOf(r.body) : undefined;
    return { method: first.sent.method, target: q ? `${path}?${q}` : path, headers: { ...first.sent.headers }, ...(body ? { body } : {}) };
  };
  const stillFails = async (r: FuzzRequest): Promise<{ res?: Received; sent: Sent } | undefined> => {
    const sent = build(r);
    sends++;
    const { res, found } = await judge(r, sent);
    const same = found.some((f) => groupKey({ ...f, n: r.n, ...(r.op ? { op: r.op } : {}), request: repro(r, sent), status: res?.status ?? 0, response: '' }) === key);
    return same ? { res, sent } : undefined;
  };
  let last = await stillFails(req);
  if (last) {
    const lists: ('query' | 'body')[] = ['query', 'body'];
    for (const where of lists) {
      let i = 0;
      for (;;) {
        const parts = where === 'query' ? req.query : partsOf(req.body);
        if (!parts || i >= parts.length || sends >= maxSends) break;
        // A part with an expectation stays, unless the rule at stake does not depend on expectations.
        if (parts[i]!.keep && EXPECTATION_CHECKS.has(key.split(' | ')[0]!)) {
          i++;
          continue;
        }
        const fewer = [...parts.slice(0, i), ...parts.slice(i + 1)];
        const candidate: FuzzRequest = where === 'query' ? { ...req, query: fewer } : { ...req, body: withParts(req.body!, fewer) };
        const hit = await stillFails(candidate);
        if (hit) {
          req = candidate;
          last = hit;
        } else i++;
      }
    }
  }
  const sent = last?.sent ?? build(req);
  return {
    request: repro(req, sent),
    status: last?.res?.status ?? 0,
    response: last?.res ? last.res.text.slice(0, 500) : '(did not fail the same way again)',
    sends,
  };
}

/** Drops what a successful revocation revoked from the targets: one uuid, or all of the caller's own. */
function forgetPasswords(live: LiveWorld, req: FuzzRequest, text: string): void {
  let body: { previous?: { uuid?: unknown } };
  try {
    body = JSON.parse(text) as typeof body;
  } catch {
    return;
  }
  const own = `appPasswords.${req.caller}`;
  if (req.op === 'appPasswords.delete' && typeof body.previous?.uuid === 'string') {
    const uuid = body.previous.uuid;
    for (const list of Object.keys(live.slugs).filter((k) => k.startsWith('appPasswords'))) live.slugs[list] = live.slugs[list]!.filter((u) => u !== uuid);
  } else if (req.op === 'appPasswords.deleteAll' && req.segments[1] === 'me' && live.slugs[own]) {
    const gone = new Set(live.slugs[own]);
    live.slugs[own] = [];
    live.slugs.appPasswords = (live.slugs.appPasswords ?? []).filter((u) => !gone.has(u));
  }
}

/** A server log line, short: for the handlers' JSON lines, the operation and the error. */
function logSummary(text: string): string {
  try {
    const line = JSON.parse(text) as { operation?: string; message?: string; error?: { name?: string; message?: string } };
    if (line.error) return `${line.operation ?? '?'}: ${line.message ?? ''}: ${line.error.name ?? 'Error'}: ${line.error.message ?? ''}`.slice(0, 300);
  } catch {
    /* not JSON */
  }
  return text.split('\n')[0]!.slice(0, 300);
}

/** Rules about what responses show of stored records, which an earlier request may have stored. */
const STATEFUL_CHECKS = new Set(['control-characters', 'schema']);
const isCreate = (r: FuzzRequest) => r.method === 'POST' && !!r.op?.endsWith('.create');

/** Rules judged from what the request expects (the rest hold for any request). */
const EXPECTATION_CHECKS = new Set(['accepted-invalid', 'status', 'no-route']);

const partsOf = (b: Body | undefined): Part[] | undefined => (b && (b.kind === 'json' || b.kind === 'form') ? b.parts : undefined);
const withParts = (b: Body, parts: Part[]): Body => (b.kind === 'json' || b.kind === 'form' ? { ...b, parts } : b);
const cloneBody = (b: Body): Body => (b.kind === 'json' || b.kind === 'form' ? { ...b, parts: [...b.parts] } : b);
function bodyBufferOf(b: Body): Buffer | undefined {
  const buf = bodyBuffer(b);
  return buf.length ? buf : undefined;
}
