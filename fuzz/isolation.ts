// "No request changed another": the built-in prototypes stay as they were (checked after every
// response; the gateway runs in this process), and a handful of plain requests behave after the
// run exactly as before it, on the same server: an editor's create without `status` publishes,
// a contributor's is a draft, a plain read, the default page of 9, a plain DELETE trashes (then
// 410), an anonymous write is 401, users/me knows the editor and not an anonymous caller, and /doc
// is unchanged.
import type { Api } from './seed.js';
import { day } from './seed.js';

type Json = Record<string, any>;

const PROTOTYPES: [string, object][] = [
  ['Object.prototype', Object.prototype],
  ['Array.prototype', Array.prototype],
  ['Function.prototype', Function.prototype],
  ['String.prototype', String.prototype],
  ['Number.prototype', Number.prototype],
  ['Boolean.prototype', Boolean.prototype],
];

/** Watches the built-in prototypes; `check` reports and undoes any change. */
export class PrototypeGuard {
  private readonly snapshot = new Map<object, Map<string | symbol, PropertyDescriptor>>();

  constructor() {
    for (const [, proto] of PROTOTYPES) {
      this.snapshot.set(proto, new Map(Reflect.ownKeys(proto).map((k) => [k, Object.getOwnPropertyDescriptor(proto, k)!])));
    }
  }

  /** The changes since the snapshot (each undone), e.g. `Object.prototype.status = "draft"`. */
  check(): string[] {
    const changes: string[] = [];
    for (const [name, proto] of PROTOTYPES) {
      const before = this.snapshot.get(proto)!;
      for (const key of Reflect.ownKeys(proto)) {
        const was = before.get(key);
        const now = Object.getOwnPropertyDescriptor(proto, key)!;
        if (!was) {
          changes.push(`${name}.${String(key)} = ${show(now.value)}`);
          delete (proto as Record<string | symbol, unknown>)[key];
        } else if (was.value !== now.value || was.get !== now.get || was.set !== now.set) {
          changes.push(`${name}.${String(key)} changed to ${show(now.value)}`);
          Object.defineProperty(proto, key, was);
        }
      }
      for (const [key, was] of before) {
        if (!Object.hasOwn(proto, key)) {
          changes.push(`${name}.${String(key)} deleted`);
          Object.defineProperty(proto, key, was);
        }
      }
    }
    return changes;
  }
}

function show(v: unknown): string {
  try {
    return JSON.stringify(v)?.slice(0, 60) ?? String(v);
  } catch {
    return String(v);
  }
}

/** The types and keys of a value, in order (arrays by their first item), without the values. */
export function shape(v: unknown): unknown {
  if (Array.isArray(v)) return v.length ? [shape(v[0])] : [];
  if (v && typeof v === 'object') return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, shape(x)]));
  return v === null ? 'null' : typeof v;
}

export interface ProbeResult {
  /** Rules broken (e.g. "an editor's create without status is draft"). */
  problems: string[];
  /** What must be the same before and after the run: statuses and shapes, by probe. */
  observed: Record<string, unknown>;
}

/** Runs the probes. `docText` is /doc as first served. */
export async function probe(api: Api, docText: string, tag: string): Promise<ProbeResult> {
  const problems: string[] = [];
  const observed: Record<string, unknown> = {};
  const expect = (ok: boolean, what: string) => {
    if (!ok) problems.push(what);
  };

  const created = await api('POST', '/events', { caller: 'editor', body: { title: `Probe ${tag}`, start_date: day(2), end_date: day(2, '12:00') } });
  observed.create = { status: created.status, shape: shape(created.body) };
  expect(created.status === 201, `an editor's plain create answers ${created.status}: ${created.text.slice(0, 200)}`);
  expect(created.body.status === 'publish', `an editor's create without status is "${created.body.status}", not publish`);
  const id = created.body.id as number;

  const draft = await api('POST', '/venues', { caller: 'contributor', body: { venue: `Probe Venue ${tag}` } });
  observed.contributorCreate = { status: draft.status, shape: shape(draft.body) };
  expect(draft.status === 201 && draft.body.status === 'draft', `a contributor's create without status answers ${draft.status} "${draft.body.status}", not 201 draft`);

  const read = await api('GET', `/events/${id}`);
  observed.get = { status: read.status, shape: shape(read.body) };
  expect(
    read.status === 200 && read.body.id === id && read.body.title === `Probe ${tag}` && read.body.status === 'publish',
    `GET /events/${id} answers ${read.status} ${read.text.slice(0, 200)}`,
  );

  let list = await api('GET', '/events');
  for (let i = 0; i < 12 && list.status === 200 && list.body.total <= 9; i++) {
    await api('POST', '/events', { caller: 'editor', body: { title: `Probe filler ${tag} ${i}`, start_date: day(3 + i), end_date: day(3 + i, '11:00') } });
    list = await api('GET', '/events');
  }
  const events = (list.body.events ?? []) as Json[];
  observed.list = {
    status: list.status,
    keys: Object.keys(list.body),
    count: events.length,
    headers: [typeof list.headers['x-tec-total'], typeof list.headers['x-tec-totalpages']],
  };
  expect(list.status === 200, `GET /events answers ${list.status}`);
  expect(list.body.total > 9 && events.length === 9, `GET /events shows ${events.length} of ${list.body.total}, not the default 9`);
  expect(
    events.every((e) => e.status === 'publish'),
    'an anonymous GET /events shows unpublished events',
  );
  expect(list.body.total_pages === Math.ceil(list.body.total / 9), `total_pages ${list.body.total_pages} for ${list.body.total} events`);
  expect(String(list.headers['x-tec-total']) === String(list.body.total), 'X-TEC-Total differs from total');

  const terms = await api('GET', '/categories');
  observed.categories = { status: terms.status, keys: Object.keys(terms.body) };
  expect(terms.status === 200, `GET /categories answers ${terms.status}`);

  const anonymous = await api('POST', '/events', { body: { title: 'x' } });
  observed.anonymousWrite = { status: anonymous.status, code: anonymous.body.code };
  expect(anonymous.status === 401, `an anonymous create answers ${anonymous.status}`);

  const trash = await api('DELETE', `/events/${id}`, { caller: 'editor' });
  observed.delete = { status: trash.status, shape: shape(trash.body) };
  expect(trash.status === 200 && trash.body.status === 'trash', `a plain DELETE answers ${trash.status} "${trash.body.status}", not 200 trash`);
  const again = await api('DELETE', `/events/${id}`, { caller: 'editor' });
  observed.deleteAgain = { status: again.status, code: again.body.code };
  expect(again.status === 410 && again.body.code === 'event-is-in-trash', `a second DELETE answers ${again.status} ${again.body.code}, not 410 event-is-in-trash`);
  const gone = await api('GET', `/events/${id}`);
  observed.getTrashed = { status: gone.status, code: gone.body.code };
  expect(gone.status === 403 && gone.body.code === 'event-no-longer-available', `reading a trashed event answers ${gone.status} ${gone.body.code}`);

  const me = await api('GET', '/users/me', { caller: 'editor', api: 'wp' });
  observed.me = { status: me.status, id: me.body.id, shape: shape(me.body) };
  expect(me.status === 200 && Number.isInteger(me.body.id), `GET /wp/v2/users/me as the editor answers ${me.status}: ${me.text.slice(0, 200)}`);
  const nobody = await api('GET', '/users/me', { api: 'wp' });
  observed.anonymousMe = { status: nobody.status, code: nobody.body.code };
  expect(nobody.status === 401 && nobody.body.code === 'rest_not_logged_in', `an anonymous GET /wp/v2/users/me answers ${nobody.status} ${nobody.body.code}`);

  const doc = await api('GET', '/doc');
  observed.doc = doc.status;
  expect(doc.text === docText, '/doc changed');
  return { problems, observed };
}

/** What differs between two probe observations. */
export function compareProbes(before: ProbeResult, after: ProbeResult): string[] {
  const out: string[] = [];
  for (const key of Object.keys(before.observed)) {
    const a = JSON.stringify(before.observed[key]);
    const b = JSON.stringify(after.observed[key]);
    if (a !== b) out.push(`${key}: before the run ${a.slice(0, 300)}, after it ${b.slice(0, 300)}`);
  }
  return out;
}
