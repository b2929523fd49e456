// Who may do what, end to end through the local gateway and a fresh DynamoDB table (docs/tec-behaviour.md
// §1.3, §1.4, §5.1, §7.2, §8; docs/design.md §5). The heart of the file is one table: every role × every post
// operation × own/other's record × published/draft, each cell with its own fresh records, and the
// expected status and error code of every cell computed by one function (`expected`) that encodes
// the rules. Around it: status scaling, `author`, `force`, trashed and unpublished reads, list
// visibility and totals, the order of the checks, role-less tokens, and terms per role.
import { beforeAll, describe, expect, it } from 'vitest';
import { ensureDevKeys, mintToken } from '#lib/local/dev-auth.js';
import { useGateway, type ApiOptions, type ApiResponse, type Lang } from '../support/gateway.js';
import { RUN } from '../support/run-id.js';
import { pool } from '#lib/runtime/pool.js';

// ---------------------------------------------------------------------------------------------
// Vocabulary
// ---------------------------------------------------------------------------------------------

type Role = 'contributor' | 'author' | 'editor';
type Caller = 'anonymous' | Role;
type Kind = 'events' | 'venues' | 'organizers';
type Op = 'get' | 'getBySlug' | 'update' | 'updateBySlug' | 'delete' | 'deleteBySlug' | 'create' | 'list';
type Owner = 'own' | 'other';
type State = 'publish' | 'draft';
type Json = Record<string, any>;

const CALLERS: Caller[] = ['anonymous', 'contributor', 'author', 'editor'];
const KINDS: Kind[] = ['events', 'venues', 'organizers'];
const OPS: Op[] = ['get', 'getBySlug', 'update', 'updateBySlug', 'delete', 'deleteBySlug', 'create', 'list'];
const OWNERS: Owner[] = ['own', 'other'];
const STATES: State[] = ['publish', 'draft'];

const SINGULAR = { events: 'event', venues: 'venue', organizers: 'organizer' } as const;
/** The field that holds a record's name. */
const NAME = { events: 'title', venues: 'venue', organizers: 'organizer' } as const;

const FORBIDDEN_401 = { code: 'rest_forbidden', message: 'Sorry, you are not allowed to do that.', data: { status: 401 } };
const FORBIDDEN_403 = { code: 'rest_forbidden', message: 'Sorry, you are not allowed to do that.', data: { status: 403 } };
// WordPress's one message for every role check.
const AS_USER_MESSAGE = 'Sorry, you are not allowed to do that.';

/** 'YYYY-MM-DD' of today (UTC, the site zone) plus `days`. */
function day(days: number): string {
  const now = new Date();
  return new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate() + days)).toISOString().slice(0, 10);
}

/** A create payload for a kind; events get their own day, so a list can be narrowed to them. */
function payload(kind: Kind, tag: string, dayOffset: number): Json {
  if (kind === 'events') return { title: `Event ${tag}`, start_date: `${day(dayOffset)} 10:00:00`, end_date: `${day(dayOffset)} 12:00:00` };
  return { [NAME[kind]]: `${SINGULAR[kind]} ${tag}` };
}

/** Expects a WordPress error envelope with this status and code (and message, when given). */
function expectError(res: ApiResponse, status: number, code: string, message?: string): void {
  expect(res.status, res.text).toBe(status);
  expect(res.body?.code, res.text).toBe(code);
  expect(res.body?.data?.status, res.text).toBe(status);
  if (message !== undefined) expect(res.body.message).toBe(message);
}

// ---------------------------------------------------------------------------------------------
// The rules, as one function
// ---------------------------------------------------------------------------------------------

interface Cell {
  caller: Caller;
  kind: Kind;
  op: Op;
  owner: Owner;
  state: State;
}

interface Expected {
  status: number;
  /** The error code of an error answer. */
  code?: string;
  /** For errors whose message is fixed. */
  message?: string;
  /** create / update / delete: the record's status in the answer. */
  recordStatus?: string;
  /** list: whether the record is in it. */
  visible?: boolean;
  /** create: whose id the answer's `author` is. */
  author?: 'caller' | 'other';
}

/**
 * The expected answer of one cell. The record of a cell belongs to the caller (`own`) or to
 * another user with the same role (`other`; anonymous callers own nothing, so for them both are
 * someone else's), and is published or a draft. For `create`, `own` is a plain create and `other`
 * names another user in `author`; the state is the requested status.
 */
function expected({ caller, kind, op, owner, state }: Cell): Expected {
  const mine = caller !== 'anonymous' && owner === 'own';
  // Anonymous callers read published records; users also read their own; editors everything.
  const canRead = state === 'publish' || caller === 'editor' || mine;
  // Editors edit anything; authors their own; contributors their own unpublished records.
  const canWrite = caller === 'editor' || (mine && (caller === 'author' || (caller === 'contributor' && state === 'draft')));

  switch (op) {
    case 'get':
    case 'getBySlug':
      return canRead ? { status: 200 } : { status: 403, code: `${SINGULAR[kind]}-not-accessible`, message: `The requested ${SINGULAR[kind]} is not accessible` };
    case 'list':
      return { status: 200, visible: canRead };
    case 'update':
    case 'updateBySlug':
    case 'delete':
    case 'deleteBySlug': {
      if (caller === 'anonymous') return { status: 401, ...FORBIDDEN_401 };
      if (!canWrite) return { status: 403, ...FORBIDDEN_403 };
      return { status: 200, recordStatus: op.startsWith('delete') ? 'trash' : state };
    }
    case 'create': {
      if (caller === 'anonymous') return { status: 401, ...FORBIDDEN_401 };
      if (owner === 'other' && caller !== 'editor') return { status: 403, code: 'rest_forbidden', message: AS_USER_MESSAGE };
      // Without the right to publish, `publish` is scaled back to `pending`.
      const recordStatus = caller === 'contributor' && state === 'publish' ? 'pending' : state;
      return { status: 201, recordStatus, author: owner === 'own' ? 'caller' : 'other' };
    }
  }
}

// ---------------------------------------------------------------------------------------------

describe('permissions', () => {
  const gw = useGateway({ tablePrefix: 'e2e-perms' });

  // Users: `me-<role>` is the caller of a cell, `peer-<role>` the other user with the same role.
  const tokens = new Map<string, Promise<string>>();
  const tokenOf = (role: Role, sub: string) => {
    let t = tokens.get(sub);
    if (!t) tokens.set(sub, (t = gw.token(role, sub)));
    return t;
  };
  /** A token with no role at all (no groups). */
  let noRoleToken: string;
  const userIds = new Map<string, string>();
  const meSub = (role: Role) => `me-${role}-${RUN}`;
  const peerSub = (role: Role) => `peer-${role}-${RUN}`;

  const api = (method: string, path: string, opts: ApiOptions = {}) => gw.api(method, path, opts);
  const as = async (role: Role, sub: string, method: string, path: string, opts: Omit<ApiOptions, 'token'> = {}) => api(method, path, { ...opts, token: await tokenOf(role, sub) });
  const editor = (method: string, path: string, opts: Omit<ApiOptions, 'token'> = {}) => as('editor', `boss-${RUN}`, method, path, opts);

  /** Throws (with the response) unless the status is `status`: for fixtures built in parallel. */
  function must(res: ApiResponse, status: number, what: string): Json {
    if (res.status !== status) throw new Error(`${what}: expected ${status}, got ${res.status} ${res.text}`);
    return res.body;
  }

  /**
   * A fresh record of `kind` owned by `sub` (with `role`) in `state`. Contributors cannot
   * publish, so a published contributor record is a draft an editor then publishes.
   */
  async function record(kind: Kind, role: Role, sub: string, state: State, tag: string, dayOffset: number, lang: Lang = 'en'): Promise<Json> {
    const body = payload(kind, tag, dayOffset);
    if (role !== 'contributor') body.status = state;
    let rec = must(await as(role, sub, 'POST', `/${kind}`, { body, lang }), 201, `create ${kind} as ${role}`);
    if (role === 'contributor' && state !== 'draft') {
      rec = must(await editor('PATCH', `/${kind}/${rec.id}`, { body: { status: state }, lang }), 200, `publish ${kind}`);
    }
    if (rec.status !== state) throw new Error(`fixture ${kind} has status ${rec.status}, not ${state}`);
    return rec;
  }

  beforeAll(async () => {
    noRoleToken = await mintToken(await ensureDevKeys('.local'), { sub: `nobody-${RUN}` });
    // Register every user (a user id is allocated the first time a subject writes).
    const users: [Role, string][] = (['contributor', 'author', 'editor'] as Role[]).flatMap(
      (r) =>
        [
          [r, meSub(r)],
          [r, peerSub(r)],
        ] as [Role, string][],
    );
    users.push(['editor', `boss-${RUN}`]);
    for (const [role, sub] of users) {
      const o = must(await as(role, sub, 'POST', '/organizers', { body: { organizer: `Registration ${sub}` } }), 201, 'register');
      userIds.set(sub, o.author);
    }
  });

  // -------------------------------------------------------------------------------------------
  // The table
  // -------------------------------------------------------------------------------------------

  describe('the matrix: role × operation × ownership × state', () => {
    const cells: Cell[] = [];
    for (const caller of CALLERS)
      for (const kind of KINDS) for (const op of OPS) for (const owner of OWNERS) for (const state of STATES) cells.push({ caller, kind, op, owner, state });

    interface Outcome {
      error?: string;
      rec?: Json;
      res?: ApiResponse;
      /** The record as an editor reads it after a refused write. */
      after?: ApiResponse;
      tag: string;
    }
    const outcomes: Outcome[] = [];

    /** Builds the cell's records, runs its request, and reads the record back after a refusal. */
    async function run(cell: Cell, i: number): Promise<Outcome> {
      const { caller, kind, op, owner, state } = cell;
      const tag = `m${i}x${RUN}`;
      const dayOffset = 60 + i; // one day per cell (inside the default 24-month window)
      const ownerRole: Role = caller === 'anonymous' ? 'author' : caller;
      const ownerSub = caller === 'anonymous' ? peerSub('author') : owner === 'own' ? meSub(caller) : peerSub(caller);
      const send = async (method: string, path: string, opts: Omit<ApiOptions, 'token'> = {}) =>
        caller === 'anonymous' ? api(method, path, opts) : as(caller, meSub(caller), method, path, opts);
      try {
        if (op === 'create') {
          const body: Json = { ...payload(kind, tag, dayOffset), status: state };
          if (owner === 'other') body.author = Number(userIds.get(caller === 'anonymous' ? peerSub('author') : peerSub(caller)));
          return { tag, res: await send('POST', `/${kind}`, { body }) };
        }
        const rec = await record(kind, ownerRole, ownerSub, state, tag, dayOffset);
        const byId = `/${kind}/${rec.id}`;
        const bySlug = `/${kind}/by-slug/${rec.slug}`;
        const rename = { [NAME[kind]]: `Renamed ${tag}` };
        let res: ApiResponse;
        switch (op) {
          case 'get':
            res = await send('GET', byId);
            break;
          case 'getBySlug':
            res = await send('GET', bySlug);
            break;
          case 'update':
            res = await send('POST', byId, { body: rename });
            break;
          case 'updateBySlug':
            res = await send('PUT', bySlug, { body: rename });
            break;
          case 'delete':
            res = await send('DELETE', byId);
            break;
          case 'deleteBySlug':
            res = await send('DELETE', bySlug);
            break;
          case 'list':
            res =
              kind === 'events'
                ? await send('GET', '/events', { query: { start_date: day(dayOffset), end_date: day(dayOffset), per_page: 50 } })
                : await send('GET', `/${kind}`, { query: { search: tag, per_page: 50 } });
            break;
        }
        let after: ApiResponse | undefined;
        if (res.status >= 400 && /update|delete/i.test(op)) after = await editor('GET', byId);
        return { tag, rec, res, after };
      } catch (err) {
        return { tag, error: String(err) };
      }
    }

    beforeAll(async () => {
      outcomes.push(...(await pool(cells, 16, run)));
    }, 120_000);

    const table = cells.map((c, i) => {
      const want = expected(c);
      return { ...c, i, want, label: `${c.caller} ${c.op} ${c.kind} (${c.owner}, ${c.state}) → ${want.status}${want.code ? ` ${want.code}` : ''}` };
    });
    for (const { label, i, kind, op, want } of table) {
      it(label, () => {
        const o = outcomes[i]!;
        expect(o.error).toBeUndefined();
        const res = o.res!;
        expect(res.status, res.text).toBe(want.status);
        if (want.code) {
          expect(res.body.code).toBe(want.code);
          expect(res.body.data.status).toBe(want.status);
          if (want.message) expect(res.body.message).toBe(want.message);
        }
        const name = NAME[kind];
        if (want.status >= 400 && o.after) {
          // A refused write changed nothing.
          expect(o.after.status, o.after.text).toBe(200);
          expect(o.after.body[name]).toBe(o.rec![name]);
          expect(o.after.body.status).toBe(o.rec!.status);
          expect(o.after.body.modified_utc).toBe(o.rec!.modified_utc);
        }
        if (want.status >= 400) return;
        switch (op) {
          case 'get':
          case 'getBySlug':
            expect(res.body.id).toBe(o.rec!.id);
            expect(res.body.status).toBe(o.rec!.status);
            expect(res.body.json_ld).toBeDefined();
            break;
          case 'update':
          case 'updateBySlug':
            expect(res.body.id).toBe(o.rec!.id);
            expect(res.body[name]).toBe(`Renamed ${o.tag}`);
            expect(res.body.status).toBe(want.recordStatus);
            expect(res.body.author).toBe(o.rec!.author); // an update keeps the author
            break;
          case 'delete':
          case 'deleteBySlug':
            expect(res.body.id).toBe(o.rec!.id);
            expect(res.body.status).toBe('trash');
            break;
          case 'create': {
            expect(res.body.status).toBe(want.recordStatus);
            const { caller } = cells[i]!;
            const sub = want.author === 'caller' ? meSub(caller as Role) : peerSub(caller as Role);
            expect(res.body.author).toBe(userIds.get(sub));
            break;
          }
          case 'list': {
            const items: Json[] = res.body[kind];
            expect(items.map((x) => x.id)).toEqual(want.visible ? [o.rec!.id] : []);
            expect(res.body.total).toBe(want.visible ? 1 : 0);
            expect(res.headers.get('x-tec-total')).toBe(want.visible ? '1' : '0');
            break;
          }
        }
      });
    }
  });

  // -------------------------------------------------------------------------------------------
  // Status scaling, own records, force
  // -------------------------------------------------------------------------------------------

  describe.concurrent('contributors', () => {
    for (const kind of KINDS) {
      it(`${kind}: publish, future and private become pending; no status becomes draft; draft and pending stay`, async () => {
        const cases: [string | undefined, string][] = [
          ['publish', 'pending'],
          ['future', 'pending'],
          ['private', 'pending'],
          [undefined, 'draft'],
          ['draft', 'draft'],
          ['pending', 'pending'],
        ];
        for (const [i, [requested, stored]] of cases.entries()) {
          const body = payload(kind, `sc${i}${kind}${RUN}`, 30);
          if (requested) body.status = requested;
          const res = await as('contributor', meSub('contributor'), 'POST', `/${kind}`, { body });
          expect(res.status, res.text).toBe(201);
          expect(res.body.status, `requested ${requested}`).toBe(stored);
          const back = await editor('GET', `/${kind}/${res.body.id}`);
          expect(back.body.status).toBe(stored);
        }
      });

      it(`${kind}: may update and trash their own pending record; an update asking to publish stays pending`, async () => {
        const rec = must(
          await as('contributor', meSub('contributor'), 'POST', `/${kind}`, { body: { ...payload(kind, `pend${kind}${RUN}`, 31), status: 'pending' } }),
          201,
          'create',
        );
        expect(rec.status).toBe('pending');
        const upd = await as('contributor', meSub('contributor'), 'PATCH', `/${kind}/${rec.id}`, { body: { status: 'publish' } });
        expect(upd.status, upd.text).toBe(200);
        expect(upd.body.status).toBe('pending');
        const plain = await as('contributor', meSub('contributor'), 'PATCH', `/${kind}/${rec.id}`, { body: { [NAME[kind]]: 'Still pending' } });
        expect(plain.status, plain.text).toBe(200);
        expect(plain.body.status).toBe('pending');
        const own = await as('contributor', meSub('contributor'), 'GET', `/${kind}/${rec.id}`);
        expect(own.status, own.text).toBe(200);
        const del = await as('contributor', meSub('contributor'), 'DELETE', `/${kind}/${rec.id}`);
        expect(del.status, del.text).toBe(200);
        expect(del.body.status).toBe('trash');
      });

      it(`${kind}: cannot read, update or delete another contributor's pending record`, async () => {
        const rec = await record(kind, 'contributor', peerSub('contributor'), 'draft', `peerp${kind}${RUN}`, 32);
        const pending = must(await editor('PATCH', `/${kind}/${rec.id}`, { body: { status: 'pending' } }), 200, 'pending');
        expect(pending.status).toBe('pending');
        const me = (method: string, path: string, opts?: Omit<ApiOptions, 'token'>) => as('contributor', meSub('contributor'), method, path, opts);
        expectError(await me('GET', `/${kind}/${rec.id}`), 403, `${SINGULAR[kind]}-not-accessible`);
        expectError(await me('PATCH', `/${kind}/${rec.id}`, { body: { [NAME[kind]]: 'Mine now' } }), 403, 'rest_forbidden');
        expectError(await me('DELETE', `/${kind}/${rec.id}`), 403, 'rest_forbidden');
      });

      it(`${kind}: force=true is 403 even on their own draft, and the draft is kept`, async () => {
        const rec = await record(kind, 'contributor', meSub('contributor'), 'draft', `cforce${kind}${RUN}`, 33);
        const res = await as('contributor', meSub('contributor'), 'DELETE', `/${kind}/${rec.id}`, { query: { force: 'true' } });
        expectError(res, 403, 'rest_forbidden');
        const back = await editor('GET', `/${kind}/${rec.id}`);
        expect(back.status).toBe(200);
        expect(back.body.status).toBe('draft');
      });

      it(`${kind}: a second DELETE of their own trashed draft is 410, as for every caller allowed to delete it`, async () => {
        // WordPress lets an author delete their own trashed post (delete_posts); TEC then answers 410.
        const rec = await record(kind, 'contributor', meSub('contributor'), 'draft', `c410${kind}${RUN}`, 34);
        const first = await as('contributor', meSub('contributor'), 'DELETE', `/${kind}/${rec.id}`);
        expect(first.status, first.text).toBe(200);
        const second = await as('contributor', meSub('contributor'), 'DELETE', `/${kind}/${rec.id}`);
        expectError(second, 410, `${SINGULAR[kind]}-is-in-trash`, `The ${SINGULAR[kind]} is already trashed`);
      });
    }
  });

  describe.concurrent('authors', () => {
    for (const kind of KINDS) {
      it(`${kind}: create published records by default, and update and trash their own in any status`, async () => {
        const me = (method: string, path: string, opts?: Omit<ApiOptions, 'token'>) => as('author', meSub('author'), method, path, opts);
        const pub = must(await me('POST', `/${kind}`, { body: payload(kind, `apub${kind}${RUN}`, 35) }), 201, 'create');
        expect(pub.status).toBe('publish');
        const draft = must(await me('POST', `/${kind}`, { body: { ...payload(kind, `adr${kind}${RUN}`, 35), status: 'draft' } }), 201, 'create');
        expect(draft.status).toBe('draft');
        // Publishing their own draft is allowed.
        const published = await me('PATCH', `/${kind}/${draft.id}`, { body: { status: 'publish' } });
        expect(published.status, published.text).toBe(200);
        expect(published.body.status).toBe('publish');
        const unpublished = await me('PATCH', `/${kind}/${pub.id}`, { body: { status: 'pending' } });
        expect(unpublished.status, unpublished.text).toBe(200);
        expect(unpublished.body.status).toBe('pending');
        expect((await me('DELETE', `/${kind}/${pub.id}`)).body.status).toBe('trash');
        // A second DELETE is 410 (not 403: they may delete it).
        expectError(await me('DELETE', `/${kind}/${pub.id}`), 410, `${SINGULAR[kind]}-is-in-trash`);
      });

      it(`${kind}: cannot read another author's draft, nor touch another author's pending record`, async () => {
        const me = (method: string, path: string, opts?: Omit<ApiOptions, 'token'>) => as('author', meSub('author'), method, path, opts);
        const draft = await record(kind, 'author', peerSub('author'), 'draft', `aodr${kind}${RUN}`, 36);
        expectError(await me('GET', `/${kind}/${draft.id}`), 403, `${SINGULAR[kind]}-not-accessible`);
        expectError(await me('GET', `/${kind}/by-slug/${draft.slug}`), 403, `${SINGULAR[kind]}-not-accessible`);
        const pending = must(await as('author', peerSub('author'), 'POST', `/${kind}`, { body: { ...payload(kind, `aopd${kind}${RUN}`, 36), status: 'pending' } }), 201, 'create');
        expectError(await me('PATCH', `/${kind}/${pending.id}`, { body: { status: 'publish' } }), 403, 'rest_forbidden');
        expectError(await me('DELETE', `/${kind}/by-slug/${pending.slug}`), 403, 'rest_forbidden');
        expect((await editor('GET', `/${kind}/${pending.id}`)).body.status).toBe('pending');
      });

      it(`${kind}: force=true is 403 on their own record`, async () => {
        const rec = await record(kind, 'author', meSub('author'), 'publish', `aforce${kind}${RUN}`, 37);
        expectError(
          await as('author', meSub('author'), 'DELETE', `/${kind}/${rec.id}`, { query: { force: true } }),
          403,
          'rest_forbidden',
          'Sorry, you are not allowed to do that.',
        );
        expectError(await as('author', meSub('author'), 'DELETE', `/${kind}/by-slug/${rec.slug}`, { query: { force: true } }), 403, 'rest_forbidden');
        expect((await editor('GET', `/${kind}/${rec.id}`)).body.status).toBe('publish');
      });
    }
  });

  describe.concurrent('editors', () => {
    for (const kind of KINDS) {
      it(`${kind}: update anyone's records in any status, and force-delete them (trashed or not)`, async () => {
        const a = await record(kind, 'contributor', peerSub('contributor'), 'draft', `ed1${kind}${RUN}`, 38);
        const b = await record(kind, 'author', peerSub('author'), 'publish', `ed2${kind}${RUN}`, 38);
        const upd = await editor('PATCH', `/${kind}/${a.id}`, { body: { status: 'publish' } });
        expect(upd.status, upd.text).toBe(200);
        expect(upd.body.status).toBe('publish');
        expect(upd.body.author).toBe(a.author);
        // Force-delete a live record, by id.
        const gone = await editor('DELETE', `/${kind}/${a.id}`, { query: { force: 'true' } });
        expect(gone.status, gone.text).toBe(200);
        const read = await editor('GET', `/${kind}/${a.id}`);
        if (kind === 'events') expectError(read, 404, 'rest-event-not-found', `Event with ID ${a.id} does not exist.`);
        else expectError(read, 400, 'rest_invalid_param');
        // Trash, then force-delete the trashed record by id.
        expect((await editor('DELETE', `/${kind}/by-slug/${b.slug}`)).body.status).toBe('trash');
        const forced = await editor('DELETE', `/${kind}/${b.id}`, { query: { force: 'true' } });
        expect(forced.status, forced.text).toBe(200);
        expect((await editor('GET', `/${kind}/${b.id}`)).status).toBe(kind === 'events' ? 404 : 400);
      });
    }
  });

  // -------------------------------------------------------------------------------------------
  // Reads of unpublished and trashed records
  // -------------------------------------------------------------------------------------------

  describe.concurrent('anonymous single reads', () => {
    for (const status of ['draft', 'pending', 'private', 'future']) {
      it(`a ${status} event is 403 event-not-accessible (by id and by slug); an editor reads it`, async () => {
        const e = must(await editor('POST', '/events', { body: { ...payload('events', `anon${status}${RUN}`, 40), status } }), 201, 'create');
        expect(e.status).toBe(status);
        const msg = 'The requested event is not accessible';
        expect((await api('GET', `/events/${e.id}`)).body).toEqual({ code: 'event-not-accessible', message: msg, data: { status: 403 } });
        expect((await api('GET', `/events/by-slug/${e.slug}`)).body).toEqual({ code: 'event-not-accessible', message: msg, data: { status: 403 } });
        expect((await editor('GET', `/events/${e.id}`)).status).toBe(200);
      });
    }

    it('a trashed event is 403 event-no-longer-available, for anonymous callers and editors alike', async () => {
      const e = must(await editor('POST', '/events', { body: payload('events', `anontrash${RUN}`, 41) }), 201, 'create');
      expect((await editor('DELETE', `/events/${e.id}`)).status).toBe(200);
      const body = { code: 'event-no-longer-available', message: 'This event is no longer available', data: { status: 403 } };
      expect((await api('GET', `/events/${e.id}`)).body).toEqual(body);
      expect((await editor('GET', `/events/${e.id}`)).body).toEqual(body);
    });

    for (const kind of ['venues', 'organizers'] as const) {
      for (const status of ['draft', 'pending', 'private', 'trash']) {
        it(`a ${status} ${SINGULAR[kind]} is 403 ${SINGULAR[kind]}-not-accessible`, async () => {
          const rec = must(
            await editor('POST', `/${kind}`, { body: { ...payload(kind, `anon${status}${kind}${RUN}`, 0), status: status === 'trash' ? 'publish' : status } }),
            201,
            'create',
          );
          if (status === 'trash') expect((await editor('DELETE', `/${kind}/${rec.id}`)).status).toBe(200);
          const body = { code: `${SINGULAR[kind]}-not-accessible`, message: `The requested ${SINGULAR[kind]} is not accessible`, data: { status: 403 } };
          expect((await api('GET', `/${kind}/${rec.id}`)).body).toEqual(body);
          if (status !== 'trash') {
            expect((await api('GET', `/${kind}/by-slug/${rec.slug}`)).body).toEqual(body);
            expect((await editor('GET', `/${kind}/${rec.id}`)).status).toBe(200);
          }
        });
      }
    }
  });

  // -------------------------------------------------------------------------------------------
  // Anonymous writes, role-less tokens, and the order of the checks
  // -------------------------------------------------------------------------------------------

  describe.concurrent('anonymous writes are 401 before anything else', () => {
    const cases: [string, string, ApiOptions][] = [
      ['POST', '/events', { body: {} }],
      ['POST', '/events', { body: { title: '', start_date: 'nonsense' } }],
      ['POST', '/events', { body: '{"title": broken json' }],
      ['POST', '/events', { body: { title: 'Valid', start_date: '2031-01-01 10:00:00', end_date: '2031-01-01 11:00:00' } }],
      ['PATCH', '/events/999999999', { body: { start_date: 'nonsense' } }],
      ['PUT', '/events/by-slug/no-such-slug', { body: { title: '' } }],
      ['DELETE', '/events/999999999', {}],
      ['DELETE', '/events/by-slug/no-such-slug', { query: { force: 'maybe' } }],
      ['POST', '/venues', { body: { venue: '' } }],
      ['DELETE', '/venues/999999999', {}],
      ['POST', '/organizers', { body: { email: 'not an email' } }],
      ['PATCH', '/organizers/by-slug/nope', {}],
      ['POST', '/categories', { body: { name: '' } }],
      ['DELETE', '/tags/999999999', {}],
      ['POST', '/tags/1', { body: { slug: '' } }],
    ];
    for (const [m, p, o] of cases) {
      it(`${m} ${p} ${typeof o.body === 'string' ? o.body : JSON.stringify(o.body ?? o.query ?? {})} → 401`, async () => {
        const res = await api(m, p, o);
        expect(res.status, res.text).toBe(401);
        expect(res.body).toEqual(FORBIDDEN_401);
      });
    }
  });

  describe.concurrent('a token without a role (no groups)', () => {
    it('cannot write anything: 403', async () => {
      const pub = await record('events', 'editor', `boss-${RUN}`, 'publish', `norole${RUN}`, 42);
      const venue = await record('venues', 'editor', `boss-${RUN}`, 'publish', `norolev${RUN}`, 0);
      const writes: [string, string, Json | undefined][] = [
        ['POST', '/events', payload('events', `noroleE${RUN}`, 42)],
        ['POST', '/venues', { venue: `No role ${RUN}` }],
        ['POST', '/organizers', { organizer: `No role ${RUN}` }],
        ['PATCH', `/events/${pub.id}`, { title: 'Hijacked' }],
        ['PATCH', `/events/by-slug/${pub.slug}`, { title: 'Hijacked' }],
        ['DELETE', `/events/${pub.id}`, undefined],
        ['DELETE', `/venues/by-slug/${venue.slug}`, undefined],
        ['POST', '/categories', { name: `No role ${RUN}` }],
        ['POST', '/tags', { name: `No role ${RUN}` }],
      ];
      for (const [m, p, body] of writes) {
        const res = await api(m, p, { body, token: noRoleToken });
        expect(res.status, `${m} ${p}: ${res.text}`).toBe(403);
        expect(res.body).toEqual(FORBIDDEN_403);
      }
      expect((await editor('GET', `/events/${pub.id}`)).body).toMatchObject({ title: pub.title, status: 'publish' });
      expect((await editor('GET', `/venues/${venue.id}`)).body.status).toBe('publish');
    });

    it('reads like an anonymous caller: published yes, drafts 403', async () => {
      const pub = await record('events', 'editor', `boss-${RUN}`, 'publish', `noroleR1${RUN}`, 43);
      const draft = await record('events', 'editor', `boss-${RUN}`, 'draft', `noroleR2${RUN}`, 43);
      expect((await api('GET', `/events/${pub.id}`, { token: noRoleToken })).status).toBe(200);
      expectError(await api('GET', `/events/${draft.id}`, { token: noRoleToken }), 403, 'event-not-accessible');
      const list = await api('GET', '/events', { token: noRoleToken, query: { start_date: day(43), end_date: day(43) } });
      expect(list.status, list.text).toBe(200);
      expect(list.body.events.map((e: Json) => e.id)).toEqual([pub.id]);
      expect(list.body.total).toBe(1);
    });

    it('validation still comes first: an invalid create is 400, not 403', async () => {
      const res = await api('POST', '/events', { body: { title: 'No dates' }, token: noRoleToken });
      expectError(res, 400, 'rest_missing_callback_param');
    });
  });

  describe.concurrent('the order of the checks', () => {
    it('a contributor updating or deleting an unknown event id gets 404, not 403', async () => {
      const me = (m: string, p: string, o?: Omit<ApiOptions, 'token'>) => as('contributor', meSub('contributor'), m, p, o);
      const msg = 'Event with ID 987654321 does not exist.';
      expect((await me('PATCH', '/events/987654321', { body: { title: 'x' } })).body).toEqual({ code: 'rest-event-not-found', message: msg, data: { status: 404 } });
      expect((await me('DELETE', '/events/987654321')).body).toEqual({ code: 'rest-event-not-found', message: msg, data: { status: 404 } });
      // Unknown venue, organizer and slug: 400 (docs/tec-behaviour.md §6.2, §5.2).
      expectError(await me('PATCH', '/venues/987654321', { body: { venue: 'x' } }), 400, 'rest_invalid_param');
      expectError(await me('DELETE', '/organizers/987654321'), 400, 'rest_invalid_param');
      expectError(await me('PUT', '/events/by-slug/no-such-event-slug', { body: { title: 'x' } }), 400, 'rest_invalid_param');
    });

    it('a non-editor asking for force on an unknown id is 403 (a role check precedes the lookup)', async () => {
      expectError(await as('author', meSub('author'), 'DELETE', '/events/987654321', { query: { force: 'true' } }), 403, 'rest_forbidden');
    });

    it("a contributor or author updating or deleting someone else's trashed event gets 403, not 410", async () => {
      for (const role of ['contributor', 'author'] as const) {
        const e = await record('events', role, peerSub(role), 'draft', `otrash${role}${RUN}`, 44);
        expect((await editor('DELETE', `/events/${e.id}`)).status).toBe(200);
        expectError(await as(role, meSub(role), 'DELETE', `/events/${e.id}`), 403, 'rest_forbidden');
        expectError(await as(role, meSub(role), 'PATCH', `/events/${e.id}`, { body: { title: 'Mine' } }), 403, 'rest_forbidden');
        // An editor gets the 410.
        expectError(await editor('DELETE', `/events/${e.id}`), 410, 'event-is-in-trash', 'The event is already trashed');
      }
    });

    it("invalid parameters are 400 before the ownership check (someone else's published event)", async () => {
      const e = await record('events', 'author', peerSub('author'), 'publish', `ord400${RUN}`, 45);
      const res = await as('contributor', meSub('contributor'), 'PATCH', `/events/${e.id}`, { body: { start_date: 'not a date' } });
      expectError(res, 400, 'rest_invalid_param');
      expect(Object.keys(res.body.data.params)).toEqual(['start_date']);
    });
  });

  // -------------------------------------------------------------------------------------------
  // `author`
  // -------------------------------------------------------------------------------------------

  describe.concurrent('the author parameter', () => {
    for (const kind of KINDS) {
      it(`${kind}: only editors may name another user; anyone may name themselves`, async () => {
        const peer = Number(userIds.get(peerSub('author')));
        for (const role of ['contributor', 'author'] as const) {
          const body = { ...payload(kind, `auth${role}${kind}${RUN}`, 46), author: Number(userIds.get(peerSub(role))) };
          expectError(await as(role, meSub(role), 'POST', `/${kind}`, { body }), 403, 'rest_forbidden', AS_USER_MESSAGE);
          const self = { ...payload(kind, `self${role}${kind}${RUN}`, 46), author: Number(userIds.get(meSub(role))) };
          const ok = await as(role, meSub(role), 'POST', `/${kind}`, { body: self });
          expect(ok.status, ok.text).toBe(201);
          expect(ok.body.author).toBe(userIds.get(meSub(role)));
        }
        const made = await editor('POST', `/${kind}`, { body: { ...payload(kind, `edauth${kind}${RUN}`, 46), author: peer, status: 'draft' } });
        expect(made.status, made.text).toBe(201);
        expect(made.body.author).toBe(String(peer));
        // The named user now owns it: they read and edit it.
        const theirs = await as('author', peerSub('author'), 'GET', `/${kind}/${made.body.id}`);
        expect(theirs.status, theirs.text).toBe(200);
      });

      it(`${kind}: an unknown author id is 400 for an editor (create and update)`, async () => {
        const create = await editor('POST', `/${kind}`, { body: { ...payload(kind, `unk${kind}${RUN}`, 47), author: 987654 } });
        expectError(create, 400, 'rest_invalid_param');
        expect(Object.keys(create.body.data.params)).toEqual(['author']);
        const rec = await record(kind, 'editor', `boss-${RUN}`, 'publish', `unku${kind}${RUN}`, 47);
        const upd = await editor('PATCH', `/${kind}/${rec.id}`, { body: { author: 987654 } });
        expectError(upd, 400, 'rest_invalid_param');
        expect(Object.keys(upd.body.data.params)).toEqual(['author']);
        expect((await editor('GET', `/${kind}/${rec.id}`)).body.author).toBe(rec.author);
      });

      it(`${kind}: an editor reassigning a record takes it away from its former author`, async () => {
        const rec = await record(kind, 'author', meSub('author'), 'publish', `reas${kind}${RUN}`, 48);
        // The author cannot give it away.
        const give = await as('author', meSub('author'), 'PATCH', `/${kind}/${rec.id}`, { body: { author: Number(userIds.get(peerSub('author'))) } });
        expectError(give, 403, 'rest_forbidden', AS_USER_MESSAGE);
        const moved = await editor('PATCH', `/${kind}/${rec.id}`, { body: { author: Number(userIds.get(peerSub('author'))) } });
        expect(moved.status, moved.text).toBe(200);
        expect(moved.body.author).toBe(userIds.get(peerSub('author')));
        expectError(await as('author', meSub('author'), 'PATCH', `/${kind}/${rec.id}`, { body: { [NAME[kind]]: 'Back' } }), 403, 'rest_forbidden');
        const theirs = await as('author', peerSub('author'), 'PATCH', `/${kind}/${rec.id}`, { body: { [NAME[kind]]: 'Now theirs' } });
        expect(theirs.status, theirs.text).toBe(200);
      });
    }
  });

  // -------------------------------------------------------------------------------------------
  // Lists (in `lt`, where only these records live, so totals are exact)
  // -------------------------------------------------------------------------------------------

  describe.concurrent('lists: who sees what, and totals', () => {
    const LANG: Lang = 'lt';
    const con1 = `list-con1-${RUN}`;
    const con2 = `list-con2-${RUN}`;
    const aut1 = `list-aut1-${RUN}`;
    const aut2 = `list-aut2-${RUN}`;
    const boss = `boss-${RUN}`;
    /** Per kind: record name → id. */
    const ids: Record<Kind, Record<string, number>> = { events: {}, venues: {}, organizers: {} };

    // name, owner role, owner sub, requested status, expected stored status
    const FIXTURES: [string, Role, string, string | undefined, string][] = [
      ['edPub1', 'editor', boss, 'publish', 'publish'],
      ['edPub2', 'editor', boss, 'publish', 'publish'],
      ['edDraft', 'editor', boss, 'draft', 'draft'],
      ['edPending', 'editor', boss, 'pending', 'pending'],
      ['edPrivate', 'editor', boss, 'private', 'private'],
      ['edTrashed', 'editor', boss, 'publish', 'publish'],
      ['c1Draft', 'contributor', con1, undefined, 'draft'],
      ['c1Pending', 'contributor', con1, 'publish', 'pending'],
      ['c2Draft', 'contributor', con2, 'draft', 'draft'],
      ['a1Pub', 'author', aut1, undefined, 'publish'],
      ['a1Draft', 'author', aut1, 'draft', 'draft'],
      ['a2Future', 'author', aut2, 'future', 'future'],
    ];
    const PUBLISHED = ['edPub1', 'edPub2', 'a1Pub'];
    const ALL_LIVE = FIXTURES.map(([n]) => n).filter((n) => n !== 'edTrashed');

    beforeAll(async () => {
      for (const kind of KINDS) {
        await pool(FIXTURES, 6, async ([name, role, sub, status, stored], i) => {
          // The run id is a word of its own: event search matches whole words.
          const body = payload(kind, `${name} ${RUN}`, 3 + i);
          if (status) body.status = status;
          const rec = must(await as(role, sub, 'POST', `/${kind}`, { body, lang: LANG }), 201, `${kind} ${name}`);
          if (rec.status !== stored) throw new Error(`${kind} ${name}: status ${rec.status}`);
          ids[kind][name] = rec.id;
        });
        must(await editor('DELETE', `/${kind}/${ids[kind].edTrashed}`), 200, 'trash');
      }
    });

    const views: [string, () => Promise<string | undefined>, string[]][] = [
      ['anonymous', async () => undefined, PUBLISHED],
      ['a role-less token', async () => noRoleToken, PUBLISHED],
      ['contributor 1', () => tokenOf('contributor', con1), [...PUBLISHED, 'c1Draft', 'c1Pending']],
      ['contributor 2', () => tokenOf('contributor', con2), [...PUBLISHED, 'c2Draft']],
      ['author 1', () => tokenOf('author', aut1), [...PUBLISHED, 'a1Draft']],
      ['author 2', () => tokenOf('author', aut2), [...PUBLISHED, 'a2Future']],
      ['an editor (all but trash)', () => tokenOf('editor', boss), ALL_LIVE],
    ];

    for (const kind of KINDS) {
      for (const [who, token, names] of views) {
        it(`${kind}: ${who} sees ${names.length} and total counts exactly that`, async () => {
          const res = await api('GET', `/${kind}`, { lang: LANG, token: await token(), query: { per_page: 50 } });
          expect(res.status, res.text).toBe(200);
          const got = (res.body[kind] as Json[]).map((x) => x.id).sort((a, b) => a - b);
          expect(got).toEqual(names.map((n) => ids[kind][n]!).sort((a, b) => a - b));
          expect(res.body.total).toBe(names.length);
          expect(res.body.total_pages).toBe(1);
          expect(res.headers.get('x-tec-total')).toBe(String(names.length));
        });
      }

      // Event search reads the stream consumer's index (its visibility is tested in event-filters).
      it(`${kind}: the in-memory paths (${kind === 'events' ? 'include' : 'search'}) show and count the same records`, async () => {
        const idsOf = (names: string[]) => names.map((n) => ids[kind][n]!).sort((a, b) => a - b);
        const queries: Json[] = kind === 'events' ? [{ include: FIXTURES.map(([n]) => ids[kind][n]!).join(','), per_page: 50 }] : [{ search: RUN, per_page: 50 }];
        for (const query of queries) {
          for (const [who, token, names] of [views[0]!, views[2]!, views[4]!, views[6]!]) {
            const res = await api('GET', `/${kind}`, { lang: LANG, token: await token(), query });
            expect(res.status, `${who} ${JSON.stringify(query)}: ${res.text}`).toBe(200);
            expect(
              (res.body[kind] as Json[]).map((x) => x.id).sort((a, b) => a - b),
              `${who} ${JSON.stringify(query)}`,
            ).toEqual(idsOf(names));
            expect(res.body.total, who).toBe(names.length);
          }
        }
      });

      it(`${kind}: paged two at a time, a contributor's total and pages count only what they may see`, async () => {
        const token = await tokenOf('contributor', con1);
        const seen: number[] = [];
        const first = await api('GET', `/${kind}`, { lang: LANG, token, query: { per_page: 2 } });
        expect(first.status, first.text).toBe(200);
        expect(first.body.total).toBe(5);
        expect(first.body.total_pages).toBe(3);
        expect(first.headers.get('x-tec-totalpages')).toBe('3');
        for (let page = 1; page <= 3; page++) {
          const res = await api('GET', `/${kind}`, { lang: LANG, token, query: { per_page: 2, page } });
          expect(res.status, res.text).toBe(200);
          seen.push(...(res.body[kind] as Json[]).map((x) => x.id));
        }
        expect(seen.sort((a, b) => a - b)).toEqual([...PUBLISHED, 'c1Draft', 'c1Pending'].map((n) => ids[kind][n]!).sort((a, b) => a - b));
        expectError(await api('GET', `/${kind}`, { lang: LANG, token, query: { per_page: 2, page: 4 } }), 404, `${SINGULAR[kind]}-archive-page-not-found`);
      });

      it(`${kind}: status=draft is 400 for anonymous callers; status=publish is fine`, async () => {
        const bad = await api('GET', `/${kind}`, { lang: LANG, query: { status: 'draft' } });
        expectError(bad, 400, 'rest_invalid_param');
        expect(Object.keys(bad.body.data.params)).toEqual(['status']);
        expectError(await api('GET', `/${kind}`, { lang: LANG, token: noRoleToken, query: { status: 'pending' } }), 400, 'rest_invalid_param');
        const ok = await api('GET', `/${kind}`, { lang: LANG, query: { status: 'publish', per_page: 50 } });
        expect(ok.status, ok.text).toBe(200);
        expect(ok.body.total).toBe(PUBLISHED.length);
      });

      it(`${kind}: status filters show contributors their own records only, editors everyone's`, async () => {
        const list = async (token: string, status: string) => {
          const res = await api('GET', `/${kind}`, { lang: LANG, token, query: { status, per_page: 50 } });
          expect(res.status, res.text).toBe(200);
          expect(res.body.total).toBe(res.body[kind].length);
          return (res.body[kind] as Json[]).map((x) => x.id).sort((a, b) => a - b);
        };
        const idsOf = (...names: string[]) => names.map((n) => ids[kind][n]!).sort((a, b) => a - b);
        const c1 = await tokenOf('contributor', con1);
        const ed = await tokenOf('editor', boss);
        expect(await list(c1, 'draft')).toEqual(idsOf('c1Draft'));
        expect(await list(c1, 'pending')).toEqual(idsOf('c1Pending'));
        expect(await list(c1, 'private')).toEqual([]);
        expect(await list(await tokenOf('author', aut1), 'draft,publish')).toEqual(idsOf(...PUBLISHED, 'a1Draft'));
        expect(await list(ed, 'draft')).toEqual(idsOf('edDraft', 'c1Draft', 'c2Draft', 'a1Draft'));
        expect(await list(ed, 'pending')).toEqual(idsOf('edPending', 'c1Pending'));
        expect(await list(ed, 'future,private')).toEqual(idsOf('a2Future', 'edPrivate'));
      });
    }
  });

  // -------------------------------------------------------------------------------------------
  // Terms per role
  // -------------------------------------------------------------------------------------------

  describe.concurrent('categories and tags per role', () => {
    type TermCaller = 'anonymous' | 'no role' | Role;
    const TERM_CALLERS: TermCaller[] = ['anonymous', 'no role', 'contributor', 'author', 'editor'];
    const rows: { kind: 'categories' | 'tags'; op: 'create' | 'update' | 'delete'; caller: TermCaller; label: string; status: number }[] = [];
    for (const kind of ['categories', 'tags'] as const)
      for (const op of ['create', 'update', 'delete'] as const)
        for (const caller of TERM_CALLERS)
          rows.push({ kind, op, caller, label: `${caller} ${op} ${kind}`, status: caller === 'anonymous' ? 401 : caller !== 'editor' ? 403 : op === 'create' ? 201 : 200 });

    let n = 0;
    for (const { kind, op, caller, label, status } of rows) {
      it(`${label} → ${status}`, async () => {
        const token = caller === 'anonymous' ? undefined : caller === 'no role' ? noRoleToken : await tokenOf(caller, caller === 'editor' ? `boss-${RUN}` : meSub(caller));
        const name = `Term ${kind} ${op} ${++n} ${RUN}`;
        let term: Json | undefined;
        let res: ApiResponse;
        if (op === 'create') {
          res = await api('POST', `/${kind}`, { token, body: { name } });
        } else {
          term = must(await editor('POST', `/${kind}`, { body: { name } }), 201, 'term');
          res =
            op === 'update'
              ? await api('PATCH', `/${kind}/${term.id}`, { token, body: { name: `${name} renamed`, description: 'Changed' } })
              : await api('DELETE', `/${kind}/${term.id}`, { token });
        }
        expect(res.status, res.text).toBe(status);
        if (status === 401) expect(res.body).toEqual(FORBIDDEN_401);
        if (status === 403) expect(res.body).toEqual(FORBIDDEN_403);
        if (status < 300) {
          if (op === 'create') expect(res.body).toMatchObject({ name, count: 0 });
          if (op === 'update') expect(res.body).toMatchObject({ id: term!.id, name: `${name} renamed` });
          if (op === 'delete') expect(res.body).toMatchObject({ id: term!.id, name });
          if (op === 'delete') expectError(await api('GET', `/${kind}/${term!.id}`), 400, 'rest_invalid_param');
        } else if (term) {
          // Refused: the term is as it was.
          const back = await api('GET', `/${kind}/${term.id}`);
          expect(back.status, back.text).toBe(200);
          expect(back.body).toMatchObject({ name, description: '' });
        } else {
          const search = await api('GET', `/${kind}`, { query: { search: name, hide_empty: false } });
          expect(search.body.total ?? search.body[kind]?.length).toBe(0);
        }
      });
    }
  });
});

describe('links to records the caller may not read', () => {
  const gw = useGateway();

  it("a contributor cannot link another user's draft venue or organizer; its own draft it can", async () => {
    const editor = await gw.token('editor', `link-editor-${RUN}`);
    const contributor = await gw.token('contributor', `link-contributor-${RUN}`);
    const draftVenue = (await gw.api('POST', '/venues', { token: editor, body: { venue: `Hidden hall ${RUN}`, status: 'draft' } })).body;
    const draftOrganizer = (await gw.api('POST', '/organizers', { token: editor, body: { organizer: `Hidden org ${RUN}`, status: 'draft' } })).body;
    const event = { title: `Linking ${RUN}`, start_date: day(3), end_date: day(3) };
    const viaVenue = await gw.api('POST', '/events', { token: contributor, body: { ...event, venue: draftVenue.id } });
    expectError(viaVenue, 400, 'rest_invalid_param');
    expect(viaVenue.text).not.toContain('Hidden hall');
    expectError(await gw.api('POST', '/events', { token: contributor, body: { ...event, organizer: [draftOrganizer.id] } }), 400, 'rest_invalid_param');
    const ownVenue = (await gw.api('POST', '/venues', { token: contributor, body: { venue: `Own hall ${RUN}` } })).body;
    expect(ownVenue.status).toBe('draft');
    const linked = await gw.api('POST', '/events', { token: contributor, body: { ...event, venue: ownVenue.id } });
    expect(linked.status, linked.text).toBe(201);
    expect(linked.body.venue.id).toBe(ownVenue.id);
  });
});
