// Requests generated from the operation table with fast-check: every operation and method, each
// argument left out or given a plausible, type-breaking or hostile value, in a query string, a
// form or a JSON body; path ids and slugs of records that exist (resolved when sent) and of ones
// that do not; every kind of caller; prototype keys, broken key syntax, wrong content types,
// invalid JSON, raw bytes and bodies over the limit. Each request carries what must come of it
// (`expect`), worked out from the same definitions (args.ts) and the README's rules: anonymous
// writes under TEC's namespace are 401, WordPress's routes (users/me, application passwords, under
// /{lang}/wp/v2) never serve an anonymous caller, broken credentials (tokens, HTTP Basic) never
// pass, path ids that are not digits, users that are neither "me" nor digits and unknown routes
// are 404 rest_no_route, raw bytes in the request line are 400, and a value that breaks its
// declared type (or a missing required argument) is never a success.
import fc from 'fast-check';
import { OPERATIONS, ROUTE_PREFIXES, type Api, type Operation } from '#lib/contract/operations.js';
import { matchRoute } from '#lib/contract/routes.js';
import { apiPath } from './client.js';
import type { Arg } from '#lib/contract/params.js';
import {
  acceptedValues,
  BREAKING_JSON,
  BREAKING_QUERY,
  breakingJson,
  breakingQuery,
  deepJson,
  extremeNumbers,
  hostileQueryPairs,
  hostileString,
  jsonViolation,
  longLists,
  overLimit,
  opaqueQuery,
  pool,
  protoJson,
  queryViolation,
  type World,
} from './args.js';
import {
  ANONYMOUS_CALLERS,
  BAD_CALLERS,
  bodyText,
  containsOpaque,
  formPairs,
  jsonText,
  obj,
  Opaque,
  pct,
  Raw,
  type Body,
  type Caller,
  type FuzzRequest,
  type JVal,
  type Part,
  type QVal,
  type Segment,
} from './model.js';

type Encoding = 'query' | 'form' | 'json';
type Origin = 'plausible' | 'breaking' | 'hostile' | 'proto';

interface Given {
  name: string;
  arg: Arg;
  json?: JVal;
  query?: QVal;
  origin: Origin;
}

const KINDS = ['events', 'venues', 'organizers', 'categories', 'tags'];
const FREE_TEXT = 'zq fuzz text';

const pathVars = (op: Operation) => [...op.path.matchAll(/\{(\w+)\}/g)].map((m) => m[1]!);
const kindOf = (op: Operation) => op.id.split('.')[0]!;

/** The arguments a request may carry, with the values each one's validator accepts. */
interface ArgPlan {
  /** `<operation> <name>` */
  id: string;
  name: string;
  arg: Arg;
  required: boolean;
  /** Only in a body (a by-slug update's renaming `slug`). */
  bodyOnly: boolean;
  json: JVal[];
  query: QVal[];
  /** Values that break the declared type, for certain (from the breaking pools, by the classifier). */
  breakingJson: JVal[];
  breakingQuery: QVal[];
  freeText: boolean;
  /** Lists at and beyond the argument's `maxItems`, for arguments that have one. */
  longLists?: fc.Arbitrary<JVal>;
}

function planArgs(op: Operation, values: JVal[], world: World): ArgPlan[] {
  const inPath = pathVars(op);
  const plans: ArgPlan[] = [];
  for (const [name, arg] of Object.entries(op.args)) {
    const a = inPath.includes(name) ? arg.inBody : arg;
    if (!a) continue;
    const accepted = acceptedValues(a, values);
    plans.push({
      id: `${op.id} ${name}`,
      name,
      arg: a,
      required: a.required === true,
      bodyOnly: inPath.includes(name),
      ...accepted,
      breakingJson: [...BREAKING_JSON, ...overLimit(a)].filter((v) => jsonViolation(a, v) !== undefined),
      breakingQuery: [...BREAKING_QUERY, ...overLimit(a).map((l) => l.join(','))].filter((v) => queryViolation(a, v) !== undefined),
      freeText: a.schema.safeParse(FREE_TEXT).success,
      longLists: longLists(a, world),
    });
  }
  return plans;
}

/** A value once in `n` times, else undefined. */
const sometimes = <T>(n: number, arb: fc.Arbitrary<T>): fc.Arbitrary<T | undefined> =>
  fc.oneof({ weight: n - 1, arbitrary: fc.constant(undefined) }, { weight: 1, arbitrary: arb });

const words = fc.stringMatching(/^[A-Za-z][A-Za-z0-9 ]{0,15}$/);

function plausible(p: ArgPlan, enc: Encoding): fc.Arbitrary<Given> {
  const options: fc.Arbitrary<JVal | QVal>[] = [];
  const accepted = enc === 'json' ? p.json : p.query;
  if (accepted.length) options.push(fc.constantFrom(...accepted));
  if (p.freeText || !options.length) options.push(words);
  return fc.oneof(...options).map((v) => given(p, enc, v, 'plausible'));
}

function breaking(p: ArgPlan, enc: Encoding): fc.Arbitrary<Given> {
  return (enc === 'json' ? breakingJson() : breakingQuery()).map((v) => given(p, enc, v, 'breaking'));
}

/** Values that break this argument's declared type for sure (the classifier's own picks), else any. */
function breakingTyped(p: ArgPlan, enc: Encoding): fc.Arbitrary<Given> {
  const values = enc === 'json' ? p.breakingJson : p.breakingQuery;
  return values.length ? fc.constantFrom(...values).map((v) => given(p, enc, v, 'breaking')) : breaking(p, enc);
}

function hostile(p: ArgPlan, enc: Encoding): fc.Arbitrary<Given> {
  // Lists at and beyond their limit: comma-separated in a query or form, as TEC documents them.
  const long = p.longLists ? [{ weight: 3, arbitrary: p.longLists.map((v) => given(p, enc, enc === 'json' ? v : (v as number[]).join(','), 'hostile')) }] : [];
  if (enc !== 'json') {
    return fc.oneof(
      { weight: 3, arbitrary: (hostileString() as fc.Arbitrary<QVal>).map((v) => given(p, enc, v, 'hostile')) },
      { weight: 2, arbitrary: opaqueQuery().map((v) => given(p, enc, v, 'hostile')) },
      { weight: 1, arbitrary: (fc.array(hostileString(), { minLength: 1, maxLength: 3 }) as fc.Arbitrary<QVal>).map((v) => given(p, enc, v, 'hostile')) },
      ...long,
    );
  }
  return fc.oneof(
    ...long,
    { weight: 4, arbitrary: hostileString(true).map((v) => given(p, enc, v, 'hostile')) },
    { weight: 2, arbitrary: extremeNumbers().map((v) => given(p, enc, v, 'hostile')) },
    { weight: 1, arbitrary: extremeNumbers().map((v) => given(p, enc, [v], 'hostile')) },
    { weight: 1, arbitrary: deepJson().map((v) => given(p, enc, v, 'hostile')) },
    { weight: 1, arbitrary: protoJson().map((v) => given(p, enc, v, 'proto')) },
  );
}

function given(p: ArgPlan, enc: Encoding, v: JVal | QVal, origin: Origin): Given {
  return enc === 'json' ? { name: p.name, arg: p.arg, json: v as JVal, origin } : { name: p.name, arg: p.arg, query: v as QVal, origin };
}

/**
 * How a request treats its arguments: `clean` gives plausible values only (successes, and what
 * they answer); `fault` plausible values but one, which breaks its type or is hostile (so that
 * nothing else masks it); `mixed` anything, with hostile keys, extra members and odd bodies.
 */
type Mood = 'clean' | 'fault' | 'mixed';

const argValues = new Map<string, fc.Arbitrary<Given | undefined>>();

/** A value for an argument in a request of this mood; `faulty` for the one faulty argument. Built once per key. */
function argValue(p: ArgPlan, enc: Encoding, mood: Mood, faulty = false): fc.Arbitrary<Given | undefined> {
  const key = `${p.id} ${enc} ${mood} ${faulty}`;
  let a = argValues.get(key);
  if (!a) argValues.set(key, (a = buildArgValue(p, enc, mood, faulty)));
  return a;
}

function buildArgValue(p: ArgPlan, enc: Encoding, mood: Mood, faulty: boolean): fc.Arbitrary<Given | undefined> {
  if (faulty) {
    return fc.oneof({ weight: 5, arbitrary: breakingTyped(p, enc) }, { weight: 4, arbitrary: hostile(p, enc) }, { weight: 1, arbitrary: breaking(p, enc) });
  }
  const value =
    mood === 'mixed'
      ? fc.oneof({ weight: 5, arbitrary: plausible(p, enc) }, { weight: 3, arbitrary: breaking(p, enc) }, { weight: 3, arbitrary: hostile(p, enc) })
      : plausible(p, enc);
  // Required arguments are nearly always there; each optional one now and then.
  const absent = p.required ? 1 : mood === 'mixed' ? 4 : 5;
  return fc.oneof({ weight: absent, arbitrary: fc.constant(undefined) }, { weight: p.required ? 14 : 1, arbitrary: value });
}

/** Why a given value breaks its argument's declared type (undefined: no promise either way). */
function violation(g: Given): string | undefined {
  if (g.json !== undefined) return jsonViolation(g.arg, g.json);
  if (g.query !== undefined) return containsOpaque(g.query) ? undefined : queryViolation(g.arg, g.query);
  return undefined;
}

const hasProto = (v: unknown): boolean =>
  Array.isArray(v)
    ? v.some(hasProto)
    : typeof v === 'object' && v !== null && !(v instanceof Raw) && !(v instanceof Opaque)
      ? Object.keys(v).some((k) => k === '__proto__' || k === 'constructor' || k === 'prototype') || Object.values(v).some(hasProto)
      : false;

// --- callers and paths -------------------------------------------------------------------------------

/** Callers of clean and single-fault requests: mostly ones the API lets through, so that the arguments count. */
const cleanCaller: fc.Arbitrary<Caller> = fc.oneof(
  { weight: 1, arbitrary: fc.constant<Caller>('anonymous') },
  { weight: 1, arbitrary: fc.constant<Caller>('contributor') },
  { weight: 2, arbitrary: fc.constant<Caller>('author') },
  { weight: 6, arbitrary: fc.constant<Caller>('editor') },
  { weight: 1, arbitrary: fc.constant<Caller>('app-password') },
);

/** The same for WordPress's routes, whose introspection answers application passwords only. */
const wpCleanCaller: fc.Arbitrary<Caller> = fc.oneof(
  { weight: 1, arbitrary: fc.constant<Caller>('anonymous') },
  { weight: 1, arbitrary: fc.constant<Caller>('contributor') },
  { weight: 2, arbitrary: fc.constant<Caller>('author') },
  { weight: 4, arbitrary: fc.constant<Caller>('editor') },
  { weight: 4, arbitrary: fc.constant<Caller>('app-password') },
);

const caller: fc.Arbitrary<Caller> = fc.oneof(
  { weight: 3, arbitrary: fc.constant<Caller>('anonymous') },
  { weight: 2, arbitrary: fc.constant<Caller>('contributor') },
  { weight: 2, arbitrary: fc.constant<Caller>('author') },
  { weight: 5, arbitrary: fc.constant<Caller>('editor') },
  { weight: 1, arbitrary: fc.constant<Caller>('roleless') },
  { weight: 1, arbitrary: fc.constant<Caller>('app-password') },
  { weight: 1, arbitrary: fc.constant<Caller>('basic-no-password') },
  { weight: 1, arbitrary: fc.constantFrom(...BAD_CALLERS) },
);

interface PathPart {
  segment: Segment;
  /** Set when the pipeline answers rest_no_route for this value. */
  noRoute?: string;
  /** Set when no success may come of this value. */
  reject?: string;
  label: string;
}

/**
 * What a path id, as the server decodes it, must get: the route takes digits only (TEC's
 * `(?P<id>\d+)`, as the namespace index shows), so anything else is no route; digits beyond the
 * integers a record can have are no success either way.
 */
function idExpectation(wire: string): { noRoute?: string; reject?: string } {
  let decoded = wire;
  try {
    decoded = decodeURIComponent(wire);
  } catch {
    /* kept as is, like the gateway */
  }
  if (!/^\d+$/.test(decoded)) return { noRoute: `path id ${JSON.stringify(decoded)} is not digits` };
  if (!Number.isSafeInteger(Number(decoded))) return { reject: `path id ${decoded} is beyond the safe integers` };
  if (Number(decoded) === 0) return { reject: `path id ${decoded} names no record` };
  return {};
}

function idPart(kind: string): fc.Arbitrary<PathPart> {
  const literal = (wire: string, label: string): PathPart => ({ segment: wire, label, ...idExpectation(wire) });
  return fc.oneof(
    { weight: 8, arbitrary: fc.nat().map((pick) => ({ segment: { kind, field: 'id' as const, pick }, label: `existing ${kind} id` })) },
    {
      weight: 2,
      arbitrary: fc
        .tuple(fc.constantFrom(...KINDS.filter((k) => k !== kind)), fc.nat())
        .map(([other, pick]) => ({ segment: { kind: other, field: 'id' as const, pick }, label: `id of a ${other} record` })),
    },
    { weight: 2, arbitrary: fc.constantFrom('999999', '2147483648', '9007199254740991', '007', '%31%32', '119304648').map((w) => literal(w, 'literal id')) },
    {
      weight: 2,
      arbitrary: fc
        .constantFrom('0', '00', '-1', 'abc', '1e3', '1.0', '9007199254740992', '99999999999999999999', '%201', '1%00', '%E0%A4', pct('１'), '0x10', '\u00b9')
        .map((w) => literal(w, 'id that is no positive integer')),
    },
  );
}

/** What a path slug must get: the route takes one non-empty segment, so a decoded "/" is no route. */
function slugExpectation(wire: string): { noRoute?: string } {
  let decoded = wire;
  try {
    decoded = decodeURIComponent(wire);
  } catch {
    /* kept as is, like the gateway */
  }
  return decoded.includes('/') ? { noRoute: 'the slug contains a "/"' } : {};
}

function slugPart(kind: string): fc.Arbitrary<PathPart> {
  const literal = (wire: string, label: string): PathPart => ({ segment: wire, label, ...slugExpectation(wire) });
  return fc.oneof(
    { weight: 8, arbitrary: fc.nat().map((pick) => ({ segment: { kind, field: 'slug' as const, pick }, label: `existing ${kind} slug` })) },
    { weight: 2, arbitrary: words.map((w) => literal(pct(w.toLowerCase().replace(/ /g, '-') || 'x'), 'unknown slug')) },
    { weight: 2, arbitrary: hostileString().map((s) => literal(pct(s.slice(0, 300)) || 'x', 'hostile slug')) },
    { weight: 1, arbitrary: fc.constantFrom('a%2Fb', '%2F', '..%2F..').map((w) => literal(w, 'slug with a slash')) },
    { weight: 1, arbitrary: fc.constantFrom('%zz', '%', '%00', '%ED%A0%80', '\u00ff\u00fe', 'x'.repeat(250), '.', '..').map((w) => literal(w, 'odd slug')) },
  );
}

const decodedSegment = (wire: string): string => {
  try {
    return decodeURIComponent(wire);
  } catch {
    return wire; // kept as is, like the gateway
  }
};

/** What a path user must get: WordPress's route takes "me" or digits (a user id), else no route. */
function userExpectation(wire: string): { noRoute?: string } {
  const decoded = decodedSegment(wire);
  if (decoded === 'me' || (/^\d+$/.test(decoded) && Number.isSafeInteger(Number(decoded)))) return {};
  return { noRoute: `user ${JSON.stringify(decoded)} is neither "me" nor a user id` };
}

function userPart(): fc.Arbitrary<PathPart> {
  const literal = (wire: string, label: string): PathPart => ({ segment: wire, label, ...userExpectation(wire) });
  return fc.oneof(
    { weight: 8, arbitrary: fc.constant(literal('me', 'me')) },
    { weight: 4, arbitrary: fc.nat().map((pick) => ({ segment: { kind: 'users', field: 'id' as const, pick }, label: 'existing user id' })) },
    { weight: 2, arbitrary: fc.constantFrom('999999', '0', '007', '9007199254740991', '%6De', '%31').map((w) => literal(w, 'literal user')) },
    {
      weight: 2,
      arbitrary: fc
        .constantFrom('ME', 'you', '-1', '1.5', '1e3', '9007199254740992', '99999999999999999999', 'me%2F', 'me%20', '%E0%A4', 'm%00e', '\u00b9', pct('１'))
        .map((w) => literal(w, 'user that is neither me nor digits')),
    },
  );
}

/** What a path uuid must get: any one segment is the route's (a decoded "/" is no route). */
function uuidExpectation(wire: string): { noRoute?: string } {
  return decodedSegment(wire).includes('/') ? { noRoute: 'the uuid contains a "/"' } : {};
}

function uuidPart(): fc.Arbitrary<PathPart> {
  const literal = (wire: string, label: string): PathPart => ({ segment: wire, label, ...uuidExpectation(wire) });
  return fc.oneof(
    { weight: 8, arbitrary: fc.nat().map((pick) => ({ segment: { kind: 'appPasswords', field: 'uuid' as const, pick }, label: 'existing uuid' })) },
    { weight: 2, arbitrary: fc.uuid().map((u) => literal(u, 'unknown uuid')) },
    { weight: 2, arbitrary: hostileString().map((s) => literal(pct(s.slice(0, 300)) || 'x', 'hostile uuid')) },
    { weight: 1, arbitrary: fc.constantFrom('a%2Fb', '%2F').map((w) => literal(w, 'uuid with a slash')) },
    // Not `introspect`: that is a route of its own.
    { weight: 1, arbitrary: fc.constantFrom('%zz', '%00', 'x'.repeat(1500), pct('é'.repeat(600)), '.', '..', 'INTROSPECT').map((w) => literal(w, 'odd uuid')) },
  );
}

function pathArb(op: Operation): fc.Arbitrary<PathPart[]> {
  const parts = op.path.split('/').filter((s) => s !== '');
  return fc.tuple(
    ...parts.map((s): fc.Arbitrary<PathPart> => {
      if (s === '{id}') return idPart(kindOf(op));
      if (s === '{slug}') return slugPart(kindOf(op));
      if (s === '{user}') return userPart();
      if (s === '{uuid}') return uuidPart();
      // The REST index's path is its route prefix: a language or `wp-json`.
      if (s === '{lang}') return fc.constantFrom(...ROUTE_PREFIXES).map((p) => ({ segment: p, label: p }));
      return fc.constant({ segment: s, label: s });
    }),
  );
}

// --- bodies ------------------------------------------------------------------------------------------

type Effect = 'intact' | 'drop' | 'reject';
interface BodyPlan {
  body?: Body;
  contentType?: string;
  effect: Effect;
  label: string;
}

const JSON_TYPES = [
  'application/json',
  'application/json; charset=utf-8',
  'application/JSON',
  'application/merge-patch+json',
  'application/vnd.api+json',
  'application/json;charset=ISO-8859-1',
];
const FORM_TYPES = ['application/x-www-form-urlencoded', 'application/x-www-form-urlencoded; charset=UTF-8'];
const UNSUPPORTED = [
  'text/plain',
  'text/html',
  'application/xml',
  'multipart/form-data; boundary=fuzz',
  'application/octet-stream',
  'image/png',
  'application/jsonp',
  'json',
  'application/x-www-form-urlencoded-x',
];

const plannedBody = (planned: Body): BodyPlan => ({
  body: planned,
  contentType: planned.kind === 'json' ? 'application/json' : 'application/x-www-form-urlencoded',
  effect: 'intact',
  label: planned.kind,
});

/** What becomes of a body: sent as planned, or mutated into something the API must refuse or ignore. */
function bodyMutation(planned: Body): fc.Arbitrary<BodyPlan> {
  const enc = planned.kind as 'json' | 'form';
  const text = bodyText(planned)!;
  const nonEmpty = text !== '';
  const asPlanned = plannedBody(planned);
  const mutations: fc.Arbitrary<BodyPlan>[] = [
    fc.constantFrom(...(enc === 'json' ? JSON_TYPES : FORM_TYPES)).map((contentType) => ({ ...asPlanned, contentType, label: `${enc} as ${contentType}` })),
    fc.constantFrom(...UNSUPPORTED).map((contentType) => ({
      body: { kind: 'text' as const, text: nonEmpty ? text : '{"a":1}' },
      contentType,
      effect: 'reject' as const,
      label: `unsupported content type ${contentType}`,
    })),
    fc
      .constantFrom(
        '{"title":',
        "{'title':'x'}",
        '{"a":1,}',
        'NaN',
        '{"a":NaN}',
        '{"a":undefined}',
        '\ufeff{"a":1}',
        '{"a":"\\x41"}',
        '{"a":"\\ud800',
        '{"a":1}{"b":2}',
        '<xml/>',
        'title=x&status=draft',
        '{"a":01}',
        '{"a":.5}',
        '{"a":+1}',
        '\u0000',
      )
      .map((t) => ({ body: { kind: 'text' as const, text: t }, contentType: 'application/json', effect: 'reject' as const, label: `invalid JSON ${JSON.stringify(t)}` })),
    fc
      .constantFrom('[]', '[{"title":"x"}]', '"x"', '1', 'null', 'true', '1e309')
      .map((t) => ({ body: { kind: 'text' as const, text: t }, contentType: 'application/json', effect: 'reject' as const, label: `JSON that is no object ${t}` })),
    fc
      .constantFrom('', '   ', '\n')
      .map((t) => ({ body: t ? { kind: 'text' as const, text: t } : undefined, contentType: 'application/json', effect: 'drop' as const, label: 'blank body' })),
    fc.constant<BodyPlan>({
      body: { kind: 'repeat', head: '{"zz_pad":"', unit: 'a', times: 300_000, tail: '"}' },
      contentType: 'application/json',
      effect: 'reject',
      label: 'body over 256 KiB',
    }),
    fc.constant<BodyPlan>({
      body: { kind: 'repeat', head: 'zz_pad=', unit: 'b', times: 270_000, tail: '' },
      contentType: 'application/x-www-form-urlencoded',
      effect: 'reject',
      label: 'form over 256 KiB',
    }),
  ];
  if (enc === 'json') {
    // The same arguments with raw invalid UTF-8 in an extra string, or padded to just under the limit.
    const spliced = text === '' || text === '{}' ? '{' : `${text.slice(0, -1)},`;
    mutations.push(
      fc.constantFrom([0xff, 0xfe], [0xc3], [0xed, 0xa0, 0x80], [0xc0, 0xaf], [0xf4, 0x90, 0x80, 0x80]).map((bytes) => ({
        body: { kind: 'bytes' as const, base64: Buffer.concat([Buffer.from(`${spliced}"zz_raw":"`), Buffer.from(bytes), Buffer.from('"}')]).toString('base64') },
        contentType: 'application/json',
        effect: 'intact' as const,
        label: `raw bytes ${bytes.map((b) => b.toString(16)).join(' ')} in a JSON string`,
      })),
      fc.constant<BodyPlan>({
        body: { kind: 'repeat', head: `${spliced}"zz_pad":"`, unit: 'c', times: 200_000, tail: '"}' },
        contentType: 'application/json',
        effect: 'intact',
        label: 'body just under 256 KiB',
      }),
      fc.constant<BodyPlan>({ body: { kind: 'text', text }, contentType: undefined, effect: 'intact', label: 'JSON without a content type' }),
    );
    if (nonEmpty)
      mutations.push(fc.constant<BodyPlan>({ body: { kind: 'text', text }, contentType: 'application/x-www-form-urlencoded', effect: 'drop', label: 'JSON sent as a form' }));
  } else if (nonEmpty) {
    mutations.push(fc.constant<BodyPlan>({ body: { kind: 'text', text }, contentType: 'application/json', effect: 'reject', label: 'form sent as JSON' }));
  }
  return fc.oneof({ weight: 16, arbitrary: fc.constant(asPlanned) }, ...mutations.map((arbitrary) => ({ weight: 1, arbitrary })));
}

// --- one operation ---------------------------------------------------------------------------------------

interface OpPlan {
  op: Operation;
  args: ArgPlan[];
}

/** Fixes some choices of a request (the sweep: one faulty argument at a time). */
interface Fixed {
  method: string;
  enc: Encoding;
  mood: Mood;
  /** Index of the faulty argument among those the request can carry. */
  fault: number;
}

function opRequest(plan: OpPlan, fixed?: Fixed): fc.Arbitrary<Omit<FuzzRequest, 'n'>> {
  const { op } = plan;
  const write = op.access === 'write';
  return fc
    .tuple(
      fixed ? fc.constant(fixed.method) : fc.constantFrom(...op.methods),
      fixed ? fc.constant(fixed.enc) : fc.constantFrom<Encoding>('json', 'json', 'json', 'json', 'form', 'form', 'query'),
      fixed
        ? fc.constant(fixed.mood)
        : fc.oneof(
            { weight: 3, arbitrary: fc.constant<Mood>('clean') },
            { weight: 5, arbitrary: fc.constant<Mood>('fault') },
            { weight: 3, arbitrary: fc.constant<Mood>('mixed') },
          ),
      fixed ? fc.constant(fixed.fault) : fc.nat(),
    )
    .chain(([method, bodyEnc, mood, pick]) => {
      const clean = mood !== 'mixed';
      const takesBody = method !== 'GET';
      // Reads and deletes carry their arguments in the query; edits mostly in the body.
      const enc: Encoding = method === 'GET' || method === 'DELETE' ? 'query' : bodyEnc;
      const usable = plan.args.filter((p) => enc !== 'query' || !p.bodyOnly);
      const fault = mood === 'fault' && usable.length ? pick % usable.length : -1;
      const argArbs = usable.map((p, i) => argValue(p, enc, mood, i === fault));
      return fc.record({
        clean: fc.constant(clean),
        method: fc.constant(method),
        enc: fc.constant(enc),
        takesBody: fc.constant(takesBody),
        caller: clean ? (op.api === 'wp' ? wpCleanCaller : cleanCaller) : caller,
        // WordPress's `/wp-json` prefix serves every route in the default language.
        lang: fc.constantFrom('en', 'en', 'en', 'wp-json', 'lt', 'ru'),
        path: pathArb(op),
        given: fc.tuple(...argArbs),
        // Some arguments of a body request travel in the query instead (the two are merged).
        queryShare: fc.array(fc.nat({ max: 9 }), { minLength: plan.args.length, maxLength: plan.args.length }),
        extraQuery: clean ? fc.constant(undefined) : sometimes(4, hostileQueryPairs(plan.args.map((p) => p.name))),
        extraJson:
          clean || enc !== 'json'
            ? fc.constant(undefined)
            : sometimes(
                6,
                fc.oneof(
                  protoJson(),
                  deepJson().map((d) => obj([['zz_deep', d]])),
                ),
              ),
        extraForm: clean || enc !== 'form' ? fc.constant(undefined) : sometimes(4, hostileQueryPairs(plan.args.map((p) => p.name))),
        getBody: sometimes(40, fc.constantFrom('{"title":"ignored"}', 'x=1', '\u0000')),
        // A request header named after the prototype chain is an ordinary header (API Gateway passes it on).
        protoHeader: clean ? fc.constant(undefined) : sometimes(10, fc.constantFrom('__proto__', 'constructor', 'prototype')),
      });
    })
    .chain((r) => {
      const givens = r.given.filter((g): g is Given => g !== undefined);
      const query: Part[] = [];
      const notes: string[] = [];
      const inBody: Given[] = [];
      const queryArgs: Given[] = [];
      let exclusive = false;
      // A part with an expectation (a type-breaking value, a required argument) is never dropped
      // when a failure is minimized: what is expected of the request stays true without the others.
      const keep = (g: Given) => violation(g) !== undefined || plan.args.some((p) => p.name === g.name && p.required);
      givens.forEach((g, i) => {
        // In a JSON request, a few plain string values go in the query string instead (the two are merged).
        const toQuery = r.enc === 'json' && r.queryShare[i] === 0 && typeof g.json === 'string' && !plan.args.find((p) => p.name === g.name)?.bodyOnly;
        if (r.enc === 'query' || toQuery) {
          const q: QVal = g.query ?? (g.json as string);
          const moved: Given = { name: g.name, arg: g.arg, query: q, origin: g.origin };
          query.push({ text: formPairs(g.name, q).join('&'), keep: keep(moved) });
          queryArgs.push(moved);
        } else inBody.push(g);
        notes.push(`${g.name}:${g.origin}`);
        if (g.origin === 'proto' || hasProto(g.json ?? g.query)) exclusive = true;
      });
      if (r.extraQuery) {
        query.push(...r.extraQuery.pairs.map((text) => ({ text, keep: false })));
        notes.push(r.extraQuery.label);
        if (r.extraQuery.proto) exclusive = true;
      }
      let planned: Body | undefined;
      if (r.enc === 'json') {
        const parts = inBody.map((g) => ({ text: `${JSON.stringify(g.name)}:${jsonText(g.json as JVal)}`, keep: keep(g) }));
        if (r.extraJson) {
          for (const [k, v] of Object.entries(r.extraJson as Record<string, JVal>)) parts.push({ text: `${JSON.stringify(k)}:${jsonText(v)}`, keep: false });
          notes.push('extra JSON keys');
          if (hasProto(r.extraJson)) exclusive = true;
        }
        planned = { kind: 'json', parts };
      } else if (r.enc === 'form') {
        const parts = inBody.map((g) => ({ text: formPairs(g.name, g.query as QVal).join('&'), keep: keep(g) }));
        if (r.extraForm) {
          // Prototype keys and broken key syntax in the form itself.
          parts.push(...r.extraForm.pairs.map((text) => ({ text, keep: false })));
          notes.push(`form ${r.extraForm.label}`);
          if (r.extraForm.proto) exclusive = true;
        }
        planned = { kind: 'form', parts };
      }
      const bodyPlan =
        !r.takesBody || !planned ? fc.constant<BodyPlan>({ effect: 'intact', label: 'no body' }) : r.clean ? fc.constant<BodyPlan>(plannedBody(planned)) : bodyMutation(planned);
      return bodyPlan.map((b) => {
        const reject: string[] = [];
        const more: string[] = [];
        // What the API sees as the arguments, and what follows for the response.
        const seen = b.effect === 'drop' ? queryArgs : [...queryArgs, ...inBody];
        for (const g of seen) {
          const why = violation(g);
          if (why) reject.push(`${g.name}: ${why}`);
        }
        const present = new Set(seen.filter((g) => g.json !== null).map((g) => g.name));
        for (const p of plan.args) if (p.required && !p.bodyOnly && !present.has(p.name)) reject.push(`${p.name}: missing`);
        if (b.effect === 'reject') reject.push(b.label);
        for (const p of r.path) if (p.reject) reject.push(p.reject);
        if (b.label !== 'no body' && b.label !== planned?.kind) more.push(b.label);
        const bad = BAD_CALLERS.includes(r.caller);
        const anonymous = ANONYMOUS_CALLERS.includes(r.caller);
        if (bad) reject.push(`broken credentials (${r.caller})`);
        if (write && anonymous) reject.push('anonymous write');
        else if (/^(?:users|appPasswords)\./.test(op.id) && anonymous) reject.push("anonymous caller of WordPress's user routes");
        const noRoute = r.path.find((p) => p.noRoute)?.noRoute;
        let body = b.body;
        let contentType = b.contentType;
        if (!r.takesBody && r.getBody) {
          body = { kind: 'text', text: r.getBody };
          contentType = 'application/json';
          more.push('GET with a body');
        }
        const headers: Record<string, string> = {};
        if (body && contentType) headers['content-type'] = contentType;
        if (r.protoHeader) {
          // Defined, not assigned: assigning `__proto__` would set the object's prototype instead.
          Object.defineProperty(headers, r.protoHeader, { value: 'fuzz', enumerable: true, writable: true, configurable: true });
          more.push(`a header named ${r.protoHeader}`);
        }
        // Writes check credentials before anything else but the route; reads validate first.
        // Under TEC's namespace an anonymous write is refused there too; WordPress's routes refuse
        // anonymous callers themselves, after the arguments. (A path id too large for a record may
        // be answered as no route, before anything else.)
        const huge = r.path.some((p) => p.reject) ? [404] : [];
        const refusedFirst = bad || (anonymous && op.api === 'tec');
        const status: number[] | undefined = noRoute ? [404] : write && refusedFirst ? [401, ...huge] : bad ? [400, 401, ...huge] : undefined;
        more.push(...r.path.filter((p) => typeof p.segment !== 'string' || p.label !== p.segment).map((p) => p.label));
        // Bytes that are not printable ASCII in the request line: Node's parser (as any proxy) refuses the request.
        if ([...r.path.map((p) => p.segment), ...query.map((p) => p.text)].some((t) => typeof t === 'string' && RAW_BYTES.test(t))) {
          return { ...base(r, op.api, query, headers, body, exclusive, [...notes, ...more]), expect: { reject: ['raw bytes in the request line'], status: [400] } };
        }
        return {
          op: op.id,
          method: r.method,
          lang: r.lang,
          api: op.api,
          segments: r.path.map((p) => p.segment),
          query,
          caller: r.caller,
          headers,
          ...(body ? { body } : {}),
          expect: { reject: noRoute ? [] : reject, ...(noRoute ? { noRoute } : {}), ...(status ? { status } : {}) },
          exclusive,
          notes: [...notes, ...more],
        };
      });
    });
}

const RAW_BYTES = /[^\x21-\x7e]/;

function base(
  r: { method: string; lang: string; caller: Caller; path: PathPart[] },
  api: Api,
  query: Part[],
  headers: Record<string, string>,
  body: Body | undefined,
  exclusive: boolean,
  notes: string[],
) {
  return { method: r.method, lang: r.lang, api, segments: r.path.map((p) => p.segment), query, caller: r.caller, headers, ...(body ? { body } : {}), exclusive, notes };
}

// --- requests no route takes ------------------------------------------------------------------------------

/** An operation's path with plausible values for its variables. */
const sampleSegments = (op: Operation) =>
  op.path
    .split('/')
    .filter(Boolean)
    .map((s) => (s === '{id}' ? '1' : s === '{slug}' ? 'x' : s === '{user}' ? 'me' : s === '{uuid}' ? 'x' : s === '{lang}' ? 'en' : s));

function noRouteRequest(): fc.Arbitrary<Omit<FuzzRequest, 'n'>> {
  const op = fc.constantFrom(...OPERATIONS);
  const badLang = fc
    .record({
      // The REST index carries its prefix in its own path.
      op: fc.constantFrom(...OPERATIONS.filter((o) => o.api !== 'rest')),
      lang: fc.constantFrom('xx', 'EN', 'en-US', 'de', '%00', 'en%2F', '..', '\u00ff'),
    })
    .map(({ op, lang }) => ({
      method: op.methods[0]!,
      lang,
      api: op.api,
      segments: sampleSegments(op),
      label: `language ${JSON.stringify(lang)} on ${op.id}`,
    }));
  // A method no route of that path takes (as the routing matches it: `introspect` is also a `{uuid}`).
  const wrongMethod = fc
    .record({ op, method: fc.constantFrom('GET', 'POST', 'PUT', 'PATCH', 'DELETE') })
    .filter(({ op, method }) => !matchRoute(method, [apiPath('en', op.api), ...sampleSegments(op)].join('/')).op)
    .map(({ op, method }) => ({
      method,
      lang: 'en',
      api: op.api,
      segments: sampleSegments(op),
      label: `${method} on ${op.path || '/'}`,
    }));
  const unknownPath = fc
    .constantFrom<[Api, string[]]>(
      ['tec', ['nope']],
      ['tec', ['events', '1', 'extra']],
      ['tec', ['events', 'by-slug']],
      ['tec', ['events', 'by-slug', 'a', 'b']],
      ['tec', ['venues', 'by-slug']],
      ['tec', ['categories', 'by-slug', 'x']],
      ['tec', ['doc', 'x']],
      ['tec', ['EVENTS']],
      ['tec', ['events%2F1']],
      ['tec', ['tags', '1', '2']],
      ['tec', ['users', 'me']],
      ['wp', ['users']],
      ['wp', ['users', 'me', 'x']],
      ['wp', ['users', 'me', 'application-passwords', 'x', 'y']],
      ['wp', ['users', 'me', 'APPLICATION-PASSWORDS']],
      ['wp', ['events']],
      ['wp', []],
    )
    .map(([api, segments]) => ({
      method: 'GET',
      lang: 'en',
      api,
      segments,
      label: `unknown path ${api === 'wp' ? '/wp/v2' : ''}/${segments.join('/')}`,
    }));
  return fc.record({ target: fc.oneof(badLang, wrongMethod, unknownPath), caller }).map(({ target, caller: c }) => ({
    method: target.method,
    lang: target.lang,
    api: target.api,
    segments: target.segments,
    query: [],
    caller: c,
    headers: {},
    expect: RAW_BYTES.test(target.lang) ? { reject: ['raw bytes in the request line'], status: [400] } : { reject: [], noRoute: target.label },
    exclusive: false,
    notes: [target.label],
  }));
}

// --- all of it ----------------------------------------------------------------------------------------------

export interface Generator {
  /**
   * The requests of a run: first sweeps (every argument of every operation faulty once per
   * sweep, the rest plausible: 3 sweeps for 20,000 requests, 1 for 2,000), then random ones.
   * Lazily, in batches; the same seed gives the same requests.
   */
  stream(seed: number, runs: number): Generator_;
  operations: string[];
  /** Requests in one sweep. */
  sweepSize: number;
}
type Generator_ = globalThis.Generator<FuzzRequest, void, unknown>;

/** A small deterministic shuffle (mulberry32). */
function shuffle<T>(items: T[], seed: number): T[] {
  let a = seed >>> 0;
  const rand = () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const out = [...items];
  for (let i = out.length - 1; i > 0; i--) {
    const j = Math.floor(rand() * (i + 1));
    [out[i], out[j]] = [out[j]!, out[i]!];
  }
  return out;
}

export function requestGenerator(world: World): Generator {
  const values = pool(world);
  const plans = OPERATIONS.map((op) => ({ op, args: planArgs(op, values, world) }));
  const perOp = plans.map((p) => opRequest(p));
  // A request head stays under Node's 16 KB (API Gateway's limits are of the same order).
  const fits = (r: Omit<FuzzRequest, 'n'>) => r.query.reduce((n, p) => n + p.text.length + 1, 0) < 12_000;
  const arb = fc.oneof({ weight: 30, arbitrary: fc.oneof(...perOp).filter(fits) }, { weight: 1, arbitrary: noRouteRequest() });

  /** One sweep: each operation (its method by turns) with each argument faulty, in JSON or a form by turns. */
  const sweep = (pass: number): Fixed[][] =>
    plans.map((plan) => {
      const method = plan.op.methods[pass % plan.op.methods.length]!;
      const enc: Encoding = method === 'GET' || method === 'DELETE' ? 'query' : pass % 3 === 1 ? 'form' : 'json';
      const usable = plan.args.filter((p) => enc !== 'query' || !p.bodyOnly);
      return usable.map((_, fault) => ({ method, enc, mood: 'fault' as const, fault }));
    });
  const sweepSize = sweep(0).flat().length;

  return {
    operations: plans.map((p) => p.op.id),
    sweepSize,
    *stream(seed, runs) {
      let n = 0;
      const passes = runs >= 10 * sweepSize ? 3 : runs >= 2 * sweepSize ? 1 : 0;
      for (let pass = 0; pass < passes; pass++) {
        const items = sweep(pass).flatMap((fixes, i) => fixes.map((f) => ({ plan: plans[i]!, f })));
        for (const { plan, f } of shuffle(items, seed + pass)) {
          const [r] = fc.sample(opRequest(plan, f).filter(fits), { numRuns: 1, seed: seed + pass * 100_003 + n });
          yield { n: n++, ...r! };
        }
      }
      const BATCH = 200;
      while (n < runs) {
        const count = Math.min(BATCH, runs - n);
        for (const r of fc.sample(arb, { numRuns: count, seed: seed + n })) yield { n: n++, ...r };
      }
    },
  };
}
