// TEC's MCP server (github.com/the-events-calendar/mcp-server, the program that lets an AI assistant
// manage a TEC calendar through `tec/v1`) run unchanged against this API and against the live TEC:
// the same tool calls on both, their answers compared once what legitimately differs between two
// sites is set aside. The MCP server is not a dependency of this project: MCP_SERVER_DIR names a
// checkout of it, built (`npm install && npm run build` there), and it runs as a child process
// speaking JSON-RPC over stdio, as an assistant's host runs it.
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { mkdir, writeFile } from 'node:fs/promises';
import { dirname, join, resolve } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { resetConfig } from '#lib/runtime/config.js';
import { mintToken } from '#lib/local/dev-auth.js';
import { startGateway } from '#lib/local/gateway.js';
import { benchCli } from './cli.js';
import { benchTable, runBench } from './main.js';
import { runContext } from './readme.js';

const settings = benchCli(
  'bench:mcp',
  `Runs TEC's MCP server (a Node program, not a dependency of this project) twice over stdio, against this
API (started here on an in-memory DynamoDB Local) and against the live TEC, drives its tools through a
create, read, list, update and delete of an organizer, a venue and an event, and prints, per tool call,
whether both answered the same. Exits 1 on a difference that is not among the documented ones.
To get the MCP server:
  git clone https://github.com/the-events-calendar/mcp-server /tmp/mcp-server
  (cd /tmp/mcp-server && npm install && npm run build)
  MCP_SERVER_DIR=/tmp/mcp-server npm run bench:mcp`,
  {
    MCP_SERVER_DIR: { meaning: "a built checkout of TEC's MCP server (its dist/index.js runs)" },
    TEC_URL: { meaning: 'the live TEC site', default: 'http://127.0.0.1:8080' },
    TEC_LOGIN_FILE: {
      meaning: "a file whose last line is the TEC admin's login:application-password",
      default: '/tmp/anchor-wp/etc/app-password.txt',
    },
    MCP_CALL_TIMEOUT_MS: { meaning: 'how long one JSON-RPC call may take', default: 60_000 },
  },
);

const HERE = dirname(fileURLToPath(import.meta.url));
const RESULTS = resolve(HERE, 'results/mcp.json');

/**
 * Keys whose values differ between any two sites, wherever they appear (with why). Values are
 * compared after the sites' addresses become `SITE` and each side's new ids `<event>`, `<venue>`, `<organizer>`.
 */
export const IGNORED_KEYS: Record<string, string> = {
  date: 'when the post was written: the two runs happen seconds apart',
  date_gmt: 'the same, in UTC',
  modified: 'when the post was last written',
  modified_gmt: 'the same, in UTC',
  author: "the signed-in user's id: each site numbers its users",
};

/** Differences that are known and explained, by step and path (a regular expression over `step path`). */
export const KNOWN_DIFFERENCES: Array<{ match: RegExp; reason: string }> = [
  {
    match: /^update event to end before it starts (isError|content\[\d\])$/,
    reason:
      'TEC answers 200 and keeps the dates it had (the tool says "Successfully updated"); this API checks a write as v1 does and answers 400 rest_invalid_param for end_date (docs/wordpress-clients.md, "Knowingly different")',
  },
];

type Json = unknown;
type Ids = Partial<Record<'event' | 'venue' | 'organizer', number>>;

interface Step {
  name: string;
  /** The tools/call arguments, from the ids made so far; undefined for tools/list. */
  call?: { tool: string; args: (ids: Ids) => Record<string, unknown> };
  /** What this step's answer names: the id of a post it made. */
  makes?: keyof Ids;
  /**
   * The tool answers with an error here (a read of what is gone), or `api`: only on this API (a known
   * difference); every other step must succeed on both sites.
   */
  fails?: true | 'api';
}

const TOOL = {
  write: 'tec-calendar-create-update-entities',
  read: 'tec-calendar-read-entities',
  remove: 'tec-calendar-delete-entities',
};

/** The journey both sites are driven through; titles carry a tag of this run. */
function journey(tag: string): Step[] {
  const write = (name: string, args: (ids: Ids) => Record<string, unknown>, makes?: keyof Ids, fails?: 'api'): Step => ({
    name,
    call: { tool: TOOL.write, args },
    makes,
    fails,
  });
  const read = (name: string, args: (ids: Ids) => Record<string, unknown>, fails?: true): Step => ({ name, call: { tool: TOOL.read, args }, fails });
  const remove = (name: string, args: (ids: Ids) => Record<string, unknown>): Step => ({ name, call: { tool: TOOL.remove, args } });
  return [
    { name: 'tools/list' },
    write(
      'create organizer',
      () => ({
        postType: 'organizer',
        data: { title: `Organizer ${tag}`, email: 'bench@example.org', phone: '+1 555 0100', website: 'https://example.org/organizer', content: 'Runs the room.' },
      }),
      'organizer',
    ),
    write(
      'create venue',
      () => ({
        postType: 'venue',
        data: {
          title: `Venue ${tag}`,
          address: '1 Main Street',
          city: 'Springfield',
          state_province: 'IL',
          zip: '62701',
          country: 'United States',
          phone: '+1 555 0101',
          website: 'https://example.org/venue',
        },
      }),
      'venue',
    ),
    write(
      'create event',
      (ids) => ({
        postType: 'event',
        data: {
          title: `Event ${tag}`,
          content: '<p>An evening of jazz.</p>',
          excerpt: 'Jazz in the park',
          start_date: '2031-05-01 20:00:00',
          end_date: '2031-05-01 23:00:00',
          cost: '10',
          featured: true,
          venues: [ids.venue],
          organizers: [ids.organizer],
        },
      }),
      'event',
    ),
    read('read event', (ids) => ({ postType: 'event', id: ids.event })),
    read('read venue', (ids) => ({ postType: 'venue', id: ids.venue })),
    read('read organizer', (ids) => ({ postType: 'organizer', id: ids.organizer })),
    read('list events at the venue', (ids) => ({ postType: 'event', per_page: 5, eventFilters: { venue: ids.venue } })),
    read('list events of the organizer', (ids) => ({ postType: 'event', per_page: 5, eventFilters: { organizer: ids.organizer } })),
    read('list events at the venue from a date', (ids) => ({ postType: 'event', eventFilters: { venue: ids.venue, start_date: '2031-01-01' } })),
    read('list events at the venue, a page past the last', (ids) => ({ postType: 'event', page: 2, per_page: 5, eventFilters: { venue: ids.venue } }), true),
    read('list events at the venue by title', (ids) => ({ postType: 'event', orderby: 'title', eventFilters: { venue: ids.venue } })),
    // The tool offers `order` in lower case, which TEC's list refuses (it takes ASC or DESC).
    read('list events at the venue, newest first', (ids) => ({ postType: 'event', orderby: 'date', order: 'desc', eventFilters: { venue: ids.venue } }), true),
    read('list draft events at the venue', (ids) => ({ postType: 'event', status: 'draft', eventFilters: { venue: ids.venue } })),
    read('search events', () => ({ postType: 'event', query: tag })),
    // TEC's venue and organizer lists take no `include` nor the MCP server's venue and organizer filters
    // (they are ignored), so a search is what finds this run's records among a live site's.
    read('search venues', () => ({ postType: 'venue', query: tag })),
    read('search organizers', () => ({ postType: 'organizer', query: tag })),
    write('update event', (ids) => ({
      postType: 'event',
      id: ids.event,
      data: { title: `Event ${tag} (moved)`, start_date: '2031-05-02 19:00:00', end_date: '2031-05-02 22:30:00' },
    })),
    write(
      'update event to end before it starts',
      (ids) => ({ postType: 'event', id: ids.event, data: { start_date: '2031-05-02 19:00:00', end_date: '2031-05-01 10:00:00' } }),
      undefined,
      'api',
    ),
    write('update venue', (ids) => ({ postType: 'venue', id: ids.venue, data: { city: 'Shelbyville', zip: '62565' } })),
    write('update organizer', (ids) => ({ postType: 'organizer', id: ids.organizer, data: { phone: '+1 555 0199' } })),
    read('read event after update', (ids) => ({ postType: 'event', id: ids.event })),
    remove('trash event', (ids) => ({ postType: 'event', id: ids.event })),
    read('read trashed event', (ids) => ({ postType: 'event', id: ids.event }), true),
    remove('delete event', (ids) => ({ postType: 'event', id: ids.event, force: true })),
    read('read deleted event', (ids) => ({ postType: 'event', id: ids.event }), true),
    remove('trash venue', (ids) => ({ postType: 'venue', id: ids.venue })),
    remove('delete venue', (ids) => ({ postType: 'venue', id: ids.venue, force: true })),
    remove('delete organizer', (ids) => ({ postType: 'organizer', id: ids.organizer, force: true })),
    read('read deleted organizer', (ids) => ({ postType: 'organizer', id: ids.organizer }), true),
  ];
}

/** A JSON-RPC client over a child's stdio: one JSON message a line, as MCP's stdio transport frames them. */
class McpProcess {
  private next = 1;
  private readonly pending = new Map<number, { resolve: (v: any) => void; reject: (e: Error) => void }>();
  private stderr = '';

  constructor(
    private readonly child: ChildProcess,
    private readonly timeoutMs: number,
  ) {
    createInterface({ input: child.stdout! }).on('line', (line) => {
      let msg: { id?: number; result?: unknown; error?: { message: string } };
      try {
        msg = JSON.parse(line);
      } catch {
        return; // Not a protocol message.
      }
      const waiting = msg.id === undefined ? undefined : this.pending.get(msg.id);
      if (!waiting) return;
      this.pending.delete(msg.id!);
      if (msg.error) waiting.reject(new Error(`JSON-RPC error: ${msg.error.message}`));
      else waiting.resolve(msg.result);
    });
    child.stderr!.on('data', (d: Buffer) => {
      this.stderr = (this.stderr + d.toString()).slice(-4000);
    });
    child.on('exit', (code) => {
      for (const w of this.pending.values()) w.reject(new Error(`the MCP server exited (${code}): ${this.stderr.trim()}`));
      this.pending.clear();
    });
  }

  request(method: string, params: Record<string, unknown>): Promise<any> {
    const id = this.next++;
    return new Promise((resolvePromise, reject) => {
      const timer = setTimeout(() => {
        this.pending.delete(id);
        reject(new Error(`${method} took more than ${this.timeoutMs} ms`));
      }, this.timeoutMs);
      this.pending.set(id, {
        resolve: (v) => (clearTimeout(timer), resolvePromise(v)),
        reject: (e) => (clearTimeout(timer), reject(e)),
      });
      this.child.stdin!.write(`${JSON.stringify({ jsonrpc: '2.0', id, method, params })}\n`);
    });
  }

  notify(method: string): void {
    this.child.stdin!.write(`${JSON.stringify({ jsonrpc: '2.0', method })}\n`);
  }

  async close(): Promise<void> {
    if (this.child.exitCode !== null) return;
    const gone = new Promise((r) => this.child.once('exit', r));
    this.child.stdin!.end();
    const timer = setTimeout(() => this.child.kill(), 2000);
    await gone;
    clearTimeout(timer);
  }
}

/** The MCP server configured as its README says (WP_URL, WP_USERNAME, WP_APP_PASSWORD), initialized. */
async function startMcp(dir: string, site: string, login: string, password: string, timeoutMs: number): Promise<McpProcess> {
  const child = spawn(process.execPath, [join(dir, 'dist/index.js')], {
    cwd: dir,
    stdio: ['pipe', 'pipe', 'pipe'],
    env: { PATH: process.env.PATH, HOME: process.env.HOME, WP_URL: site, WP_USERNAME: login, WP_APP_PASSWORD: password, LOG_LEVEL: 'error' },
  });
  const mcp = new McpProcess(child, timeoutMs);
  await mcp.request('initialize', { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'bench-mcp-compare', version: '1' } });
  mcp.notify('notifications/initialized');
  return mcp;
}

interface Answer {
  isError: boolean;
  /** Each text item of the tool's answer, parsed when it is JSON. */
  content: Json[];
}

/** Runs the journey on one site: each step's answer, by step name. */
async function drive(mcp: McpProcess, steps: Step[]): Promise<{ answers: Map<string, Answer>; ids: Ids }> {
  const ids: Ids = {};
  const answers = new Map<string, Answer>();
  for (const step of steps) {
    if (!step.call) {
      const r = await mcp.request('tools/list', {});
      answers.set(step.name, { isError: false, content: [r.tools] });
      continue;
    }
    const r = await mcp.request('tools/call', { name: step.call.tool, arguments: step.call.args(ids) });
    const content = (r.content as Array<{ text?: string }>).map((c) => {
      try {
        return JSON.parse(c.text ?? '') as Json;
      } catch {
        return c.text ?? c;
      }
    });
    answers.set(step.name, { isError: Boolean(r.isError), content });
    if (step.makes && !r.isError) {
      const made = content.find((c): c is { id: number } => typeof (c as { id?: unknown })?.id === 'number');
      if (made) ids[step.makes] = made.id;
    }
  }
  return { answers, ids };
}

/** An answer with the site's address and its new ids made alike, and the ignored keys left out. */
function normalize(value: Json, site: string, ids: Ids): Json {
  const host = new URL(site).host;
  const idNames = new Map(Object.entries(ids).map(([k, v]) => [v, `<${k}>`]));
  const text = (s: string) => {
    let out = s.split(site).join('SITE').split(encodeURIComponent(site)).join('SITE').split(host).join('SITE');
    // Where a post's id shows in text: `post-12`, `ID 12`, `/12/`, `?p=12`.
    for (const [id, name] of idNames) out = out.replace(new RegExp(`(?<=post-|ID:? |/|[?&]p=)${id}(?!\\d)`, 'g'), name);
    return out;
  };
  const walk = (v: Json, key?: string): Json => {
    if (typeof v === 'string') return text(v);
    if (typeof v === 'number' && key !== undefined && /^(id|venues?|organizers?|event)$/.test(key)) return idNames.get(v) ?? v;
    if (Array.isArray(v)) return v.map((x) => walk(x, key));
    if (v && typeof v === 'object') {
      return Object.fromEntries(
        Object.entries(v)
          .filter(([k]) => !(k in IGNORED_KEYS))
          .map(([k, x]) => [text(k), walk(x, k)]),
      );
    }
    return v;
  };
  return walk(value);
}

/** Every path where two normalized answers differ, in document order. */
function differences(a: Json, b: Json, path = ''): string[] {
  if (Array.isArray(a) && Array.isArray(b)) {
    const out: string[] = [];
    for (let i = 0; i < Math.max(a.length, b.length); i++) out.push(...differences(a[i], b[i], `${path}[${i}]`));
    return out;
  }
  if (a && b && typeof a === 'object' && typeof b === 'object' && !Array.isArray(a) && !Array.isArray(b)) {
    const keys = [...new Set([...Object.keys(a), ...Object.keys(b)])];
    return keys.flatMap((k) => differences((a as Record<string, Json>)[k], (b as Record<string, Json>)[k], path ? `${path}.${k}` : k));
  }
  return JSON.stringify(a) === JSON.stringify(b) ? [] : [path || '(whole answer)'];
}

/** The two values, around where they start to differ when both are long texts. */
const pair = (a: Json, b: Json): [string, string] => {
  const [sa, sb] = [JSON.stringify(a) ?? 'absent', JSON.stringify(b) ?? 'absent'];
  let i = 0;
  while (i < sa.length && sa[i] === sb[i]) i++;
  const from = Math.max(0, i - 20);
  const cut = (s: string) => `${from ? '…' : ''}${s.slice(from, from + 60)}${s.length > from + 60 ? '…' : ''}`;
  return [cut(sa), cut(sb)];
};
const at = (v: Json, path: string): Json =>
  path
    .replace(/\[(\d+)\]/g, '.$1')
    .split('.')
    .filter((p) => p && p !== '(whole answer)')
    .reduce<Json>((o, k) => (o && typeof o === 'object' ? (o as Record<string, Json>)[k] : undefined), v);

async function main(): Promise<number> {
  const dir = settings.text('MCP_SERVER_DIR');
  if (!dir || !existsSync(join(dir, 'dist/index.js'))) {
    console.error(`MCP_SERVER_DIR must name a built checkout of TEC's MCP server (no ${dir ? join(dir, 'dist/index.js') : 'MCP_SERVER_DIR'}); see --help.`);
    return 2;
  }
  const mcpVersion = (JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as { version?: string }).version ?? 'unknown';
  const tecUrl = settings.text('TEC_URL')!.replace(/\/+$/, '');
  const tecLogin = readFileSync(settings.text('TEC_LOGIN_FILE')!, 'utf8').trim().split('\n').pop()!.trim();
  const timeoutMs = settings.count('MCP_CALL_TIMEOUT_MS');
  const split = (login: string) => [login.slice(0, login.indexOf(':')), login.slice(login.indexOf(':') + 1)] as const;

  const { keys, dynamo, tableName } = await benchTable('mcp', { stream: false });
  const gateway = await startGateway({ quiet: true, host: '127.0.0.1', port: 0 });
  // Links name the address this run answers on, as a deployment's name its own.
  process.env.SITE_URL = gateway.url;
  resetConfig();
  const mcps: McpProcess[] = [];
  try {
    // The API's user, with an application password made as a WordPress user makes one.
    const token = await mintToken(keys, { role: 'editor', sub: 'bench-mcp-editor', user: 'bench-mcp' });
    const res = await fetch(`${gateway.url}/wp-json/wp/v2/users/me/application-passwords`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'TEC MCP server' }),
    });
    const made = (await res.json()) as { password?: string };
    if (res.status !== 201 || !made.password) throw new Error(`the API made no application password (${res.status})`);
    console.log(`This API: ${gateway.url} (table ${tableName}); TEC: ${tecUrl}; MCP server ${mcpVersion} from ${dir}`);

    const tag = `mcp-${Date.now().toString(36)}`;
    const steps = journey(tag);
    const [tecUser, tecPassword] = split(tecLogin);
    const tecMcp = await startMcp(dir, tecUrl, tecUser, tecPassword, timeoutMs);
    mcps.push(tecMcp);
    const tec = await drive(tecMcp, steps);
    const apiMcp = await startMcp(dir, gateway.url, 'bench-mcp', made.password, timeoutMs);
    mcps.push(apiMcp);
    const api = await drive(apiMcp, steps);

    const rows = steps.map((step) => {
      const a = tec.answers.get(step.name)!;
      const b = api.answers.get(step.name)!;
      const na = normalize(a, tecUrl, tec.ids);
      const nb = normalize(b, gateway.url, api.ids);
      const all = differences(na, nb).map((path) => {
        const known = KNOWN_DIFFERENCES.find((k) => k.match.test(`${step.name} ${path}`));
        const [tecValue, apiValue] = pair(at(na, path), at(nb, path));
        return { path, tec: tecValue, api: apiValue, known: known?.reason };
      });
      const call = step.call ? `${step.call.tool} ${JSON.stringify(normalize(step.call.args(api.ids), gateway.url, api.ids))}` : 'tools/list';
      return {
        step: step.name,
        call,
        tecError: a.isError,
        apiError: b.isError,
        errorExpected: { tec: step.fails === true, api: Boolean(step.fails) },
        same: all.length === 0,
        unexplained: all.filter((d) => !d.known),
        explained: all.filter((d) => d.known),
      };
    });

    console.log('\n| tool call | result | first differing key (TEC → this API) |\n| --- | --- | --- |');
    for (const r of rows) {
      const first = r.unexplained[0] ?? r.explained[0];
      const verdict = r.same ? 'same' : r.unexplained.length ? 'differs' : 'differs (documented)';
      const err = r.tecError || r.apiError ? ` (error: TEC ${r.tecError}, API ${r.apiError})` : '';
      console.log(`| ${r.step} | ${verdict}${err} | ${first ? `${first.path}: ${first.tec} → ${first.api}` : ''} |`);
    }
    for (const r of rows.filter((x) => x.unexplained.length > 1)) {
      console.log(`\n${r.step}: ${r.unexplained.length} differing keys: ${r.unexplained.map((d) => d.path).join(', ')}`);
    }
    // Two sites that refuse alike would also answer "same": a step that should succeed and did not on
    // either side means the journey did not run as written.
    const astray = rows.filter((r) => r.tecError !== r.errorExpected.tec || r.apiError !== r.errorExpected.api);
    for (const r of astray) console.log(`${r.step}: errors expected TEC ${r.errorExpected.tec}, this API ${r.errorExpected.api}; got ${r.tecError}, ${r.apiError}`);
    const failed = rows.filter((r) => r.unexplained.length > 0 || astray.includes(r));
    console.log(`\n${rows.length} calls: ${rows.filter((r) => r.same).length} same, ${failed.length} with an unexplained difference or error.`);

    await mkdir(dirname(RESULTS), { recursive: true });
    await writeFile(
      RESULTS,
      `${JSON.stringify(
        {
          generatedAt: new Date().toISOString(),
          ...runContext(),
          mcpServer: { package: '@the-events-calendar/mcp-server', version: mcpVersion, transport: 'stdio' },
          tec: tecUrl,
          api: 'the local API Gateway over an in-memory DynamoDB Local',
          ignoredKeys: IGNORED_KEYS,
          knownDifferences: KNOWN_DIFFERENCES.map((k) => ({ match: k.match.source, reason: k.reason })),
          calls: rows,
          pass: failed.length === 0,
        },
        null,
        2,
      )}\n`,
    );
    console.error(`Wrote ${RESULTS}`);
    return failed.length ? 1 : 0;
  } finally {
    for (const m of mcps) await m.close();
    await gateway.close();
    if (dynamo) await dynamo.stop();
  }
}

runBench(main);
