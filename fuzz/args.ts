// Values for the arguments of the operation table, derived from each argument's definition (its
// declared `type`, `items`, `enum` and its validator), never listed per operation:
// - `violation` says whether a value breaks the argument's declared type in a way every reading
//   of the documentation rejects (a fraction for an integer, a word for a boolean, a map for a
//   string, a fraction or a negative number among ids…): such a request must not succeed;
// - the arbitraries give plausible values (a shared pool filtered by the argument's own
//   validator, so that creates and filters often succeed), type-breaking values and hostile ones
//   (control characters, lone surrogates, odd Unicode, huge and tiny numbers, deep nesting,
//   prototype keys, very long strings, lists at and far beyond their `maxItems`).
import fc from 'fast-check';
import { listItems, type Arg } from '#lib/contract/params.js';
import { Opaque, Raw, isPlainObject, obj, pct, toQuery, type JVal, type QVal } from './model.js';

/** Ids and slugs of the seeded records (see seed.ts), for plausible values. */
export interface World {
  ids: Record<string, number[]>;
  slugs: Record<string, string[]>;
  /** Names of the seeded terms. */
  names: string[];
}

/** Builds an arbitrary once per key: arbitraries are built inside `chain`, once per request otherwise. */
const memo = new Map<string, fc.Arbitrary<unknown>>();
function once<T>(key: string, build: () => fc.Arbitrary<T>): fc.Arbitrary<T> {
  let a = memo.get(key) as fc.Arbitrary<T> | undefined;
  if (!a) memo.set(key, (a = build()));
  return a;
}

// --- what the documentation rules out ------------------------------------------------------------

const numberOf = (v: unknown): number | undefined => (typeof v === 'number' ? v : v instanceof Raw && typeof rawValue(v) === 'number' ? (rawValue(v) as number) : undefined);

/** What JSON.parse makes of a raw literal. */
export const rawValue = (v: Raw): unknown => JSON.parse(v.text);
const BOOL_WORDS = /^\s*(true|false|1|0|yes|no|on|off|)\s*$/i;

/** The service removes C0 control characters (but tab and line breaks) from all input first. */
const C0 = /[\u0000-\u0008\u000b\u000c\u000e-\u001f]/g;

/** Why a JSON value breaks the argument's declared type, or undefined when it may be fine. */
export function jsonViolation(arg: Arg, v: JVal): string | undefined {
  if (v === null) return undefined; // absent
  if (typeof v === 'string') v = v.replace(C0, '');
  if (v instanceof Raw && typeof rawValue(v) !== 'number') {
    // Deep structures: a list or a map.
    const parsed = rawValue(v);
    return jsonViolation(arg, Array.isArray(parsed) ? [[]] : obj([['a', 'x']]));
  }
  const n = numberOf(v);
  const isObj = isPlainObject(v);
  const isArr = Array.isArray(v);
  if (arg.enum) {
    if (typeof v !== 'string' || !arg.enum.includes(v)) return `not one of ${arg.enum.join('|')}`;
    return undefined;
  }
  switch (arg.type) {
    case 'integer':
      if (n !== undefined) {
        if (!Number.isSafeInteger(n)) return `${v instanceof Raw ? v.text : n} is not an integer`;
        if (n < 0 && !takesNegative(arg)) return `${n} is negative`;
        return undefined;
      }
      if (typeof v === 'string') return stringIntViolation(v, takesNegative(arg));
      return `a ${isArr ? 'list' : isObj ? 'map' : typeof v} is not an integer`;
    case 'number':
      if (n !== undefined) return Number.isFinite(n) ? undefined : `${(v as Raw).text ?? n} is not a finite number`;
      if (typeof v === 'string') return stringNumberViolation(v);
      return `a ${isArr ? 'list' : isObj ? 'map' : typeof v} is not a number`;
    case 'boolean':
      if (typeof v === 'boolean') return undefined;
      if (n !== undefined) return n === 0 || n === 1 ? undefined : `${n} is not a boolean`;
      if (typeof v === 'string') return BOOL_WORDS.test(v) ? undefined : `"${v.slice(0, 20)}" is not a boolean`;
      return `a ${isArr ? 'list' : 'map'} is not a boolean`;
    case 'string':
      // Numbers may be fine (dates take Unix timestamps).
      if (typeof v === 'boolean' || isArr || isObj) return `a ${isArr ? 'list' : isObj ? 'map' : 'boolean'} is not a string`;
      return undefined;
    case 'array':
      return tooLong(arg, v) ?? (arg.items === 'integer' ? idListViolation(v, true) : undefined);
    default:
      return undefined;
  }
}

/** A list (or a comma-separated one) of more items than the argument's `maxItems`. */
function tooLong(arg: Arg, v: JVal | QVal): string | undefined {
  if (arg.maxItems === undefined) return undefined;
  const n = Array.isArray(v) ? v.length : typeof v === 'string' ? (listItems(v)?.length ?? 0) : 0;
  return n > arg.maxItems ? `${n} items, more than ${arg.maxItems}` : undefined;
}

function idListViolation(v: JVal, top: boolean): string | undefined {
  const n = numberOf(v);
  if (n !== undefined) {
    // A lone 0 clears a link (README); inside a list it is no id.
    if (top && n === 0) return undefined;
    if (!Number.isSafeInteger(n) || n < 1) return `${v instanceof Raw ? v.text : Object.is(n, -0) ? '-0' : n} is not a positive integer id`;
    return undefined;
  }
  if (typeof v === 'boolean') return `${v} is not an id`;
  if (top && Array.isArray(v)) {
    for (const item of v) {
      if (item === null) return 'null is not an id';
      if (Array.isArray(item)) return 'a nested list is not an id';
      const why = idListViolation(item, false);
      if (why) return why;
    }
  }
  return undefined;
}

/** Integers that may be negative (WordPress's `offset`, which it reads as its absolute value), as the argument's validator says. */
const takesNegative = (arg: Arg) => arg.schema.safeParse(-1).success;

function stringIntViolation(s: string, negative: boolean): string | undefined {
  if (!/^\s*-?\d+\s*$/.test(s)) return `"${s.slice(0, 20)}" is not an integer`;
  const n = Number(s);
  if (!Number.isSafeInteger(n)) return `${s.trim()} is beyond the safe integers`;
  if (n < 0 && !negative) return `${n} is negative`;
  return undefined;
}

function stringNumberViolation(s: string): string | undefined {
  if (s.trim() === '' || !Number.isFinite(Number(s))) return `"${s.slice(0, 20)}" is not a finite number`;
  return undefined;
}

/** Why a query/form value breaks the argument's declared type, or undefined. */
export function queryViolation(arg: Arg, v: QVal): string | undefined {
  if (v instanceof Opaque) return undefined;
  if (typeof v === 'string') v = v.replace(C0, '');
  const isArr = Array.isArray(v);
  if (typeof v !== 'string') {
    // Lists and maps: only scalar types rule them out (id lists take `a[]=`, links take maps).
    if (arg.enum || ['integer', 'number', 'boolean', 'string'].includes(arg.type ?? '')) return `a ${isArr ? 'list' : 'map'} is not a ${arg.enum ? 'value of the enum' : arg.type}`;
    return tooLong(arg, v);
  }
  if (arg.enum) return arg.enum.includes(v) ? undefined : `not one of ${arg.enum.join('|')}`;
  switch (arg.type) {
    case 'array':
      return tooLong(arg, v);
    case 'integer':
      return stringIntViolation(v, takesNegative(arg));
    case 'number':
      return stringNumberViolation(v);
    case 'boolean':
      return BOOL_WORDS.test(v) ? undefined : `"${v.slice(0, 20)}" is not a boolean`;
    default:
      return undefined;
  }
}

// --- plausible values ------------------------------------------------------------------------------

const DAY = 86_400_000;
const ymd = (d: Date) => d.toISOString().slice(0, 10);

/** A pool of values of every kind; each argument keeps those its own validator accepts. */
export function pool(world: World): JVal[] {
  const soon = new Date(Date.now() + 20 * DAY);
  const later = new Date(Date.now() + 21 * DAY);
  const allIds = Object.values(world.ids).flat();
  const someIds = allIds.slice(0, 12);
  return [
    'Fuzz Event',
    'Fuzz Hall',
    'fuzz',
    'Concerts',
    'outdoor',
    ...world.names,
    ...Object.values(world.slugs).flat().slice(0, 12),
    `${ymd(soon)} 10:00`,
    `${ymd(soon)} 12:00:00`,
    ymd(soon),
    `${ymd(later)}T09:30:00Z`,
    `${ymd(later)}T09:30:00+02:00`,
    'tomorrow 9am',
    'next monday 16:30',
    '+3 days',
    'now',
    'today',
    'yesterday',
    '2027-02-30',
    '1999-12-31 23:59:59',
    'Europe/Vilnius',
    'America/New_York',
    'UTC+2',
    'UTC',
    'https://example.com/image.jpg',
    'http://example.org/',
    'org@example.com',
    'publish',
    'draft',
    'pending',
    'private',
    'future',
    'trash',
    'en',
    'lt',
    'ru',
    'asc',
    'desc',
    'name',
    'count',
    'slug',
    'id',
    '25$',
    '10 - 50',
    'Free',
    '€15',
    '',
    'true',
    'false',
    'yes',
    'no',
    '1',
    '0',
    '9',
    '50',
    someIds.slice(0, 3).join(','),
    'secret',
    1,
    2,
    3,
    9,
    10,
    50,
    0,
    -1,
    39.8,
    -89.6,
    0.5,
    1e-200,
    new Raw('-0'),
    2 ** 31,
    119_304_648,
    Math.floor(soon.getTime() / 1000),
    true,
    false,
    ...someIds,
    someIds.slice(0, 2),
    someIds.slice(0, 3).map(String),
    world.names.slice(0, 2),
    [],
    obj([['id', world.ids.venues?.[0] ?? 1]]),
    obj([
      ['venue', 'Inline Hall'],
      ['city', 'Springfield'],
    ]),
    obj([
      ['organizer', 'Inline Org'],
      ['email', 'inline@example.com'],
    ]),
    [obj([['id', world.ids.organizers?.[0] ?? 1]]), obj([['organizer', 'Inline Org 2']])],
  ];
}

/** The values of `values` the argument's validator accepts, as sent in JSON and in a query. */
export function acceptedValues(arg: Arg, values: JVal[]): { json: JVal[]; query: QVal[] } {
  const json = values.filter((v) => arg.schema.safeParse(rawToNumber(v)).success);
  const query = values.map(toQuery).filter((q) => arg.schema.safeParse(q).success);
  return { json, query };
}

const rawToNumber = (v: JVal): unknown => (v instanceof Raw ? rawValue(v) : v);

// --- type-breaking values --------------------------------------------------------------------------

/** Values that break the declared type: a mix for every type; `violation` sorts them out. */
export const BREAKING_JSON: readonly JVal[] = [
  0.5,
  -1.5,
  1e-200,
  new Raw('1e309'),
  new Raw('-1e309'),
  new Raw('9007199254740993'),
  2 ** 53 + 2,
  -3,
  new Raw('-0'),
  'abc',
  '1.5',
  '1e3',
  '0x10',
  '',
  ' ',
  'NaN',
  'Infinity',
  '１２',
  'maybe',
  '9007199254740993',
  true,
  false,
  2,
  [],
  [0.5],
  [1, 0.5],
  [-2],
  [0],
  [new Raw('1e309')],
  [new Raw('9007199254740993')],
  [true],
  [null],
  [[1]],
  obj([['a', 1]]),
  obj([]),
  [obj([['id', 0.5]])],
];

export const BREAKING_QUERY: readonly QVal[] = [
  '0.5',
  '1e-200',
  '1e309',
  '-1',
  '9007199254740993',
  '119304648',
  'abc',
  '',
  'maybe',
  '2',
  'NaN',
  ['1', '2'],
  ['x'],
  obj([['a', '1']]),
  [obj([['a', '1']])],
  '1,0.5',
  ',,,',
  '0',
  '-0',
];

export const breakingJson = (): fc.Arbitrary<JVal> => once('breakingJson', () => fc.constantFrom(...BREAKING_JSON));
export const breakingQuery = (): fc.Arbitrary<QVal> => once('breakingQuery', () => fc.constantFrom(...BREAKING_QUERY));

// --- hostile strings and shapes --------------------------------------------------------------------

const CONTROL = ['\u0000', '\u0001', '\u0007', '\u0008', '\u000b', '\u000c', '\u001b', '\u001f', '\u007f'];
const ODD = [
  '\u0085',
  '\u00a0',
  '\u2028',
  '\u2029',
  '\u200b',
  '\u200d',
  '\u202e',
  '\ufeff',
  '\ufffd',
  '\uffff',
  'é',
  'e\u0301',
  'ǅ',
  'ß',
  'İ',
  'ﬁ',
  '𝔘',
  '😀',
  '👩‍👩‍👧',
  '\u{10ffff}',
  '١٢',
  '１',
];
const SURROGATES = ['\ud800', '\udbff', '\udc00', '\udfff'];

/** A search of many short words, each one more index partition to read. */
const MANY_WORDS = 'a b c d e f g h i j k l m n o p q r s t u v w x y z 0 1 2 3 4 5 6 7 8 9';

/**
 * Strings with control characters, lone surrogates and odd Unicode, short or (`long`, for bodies)
 * very long; query strings stay well under the 16 KB a request head may take.
 */
export function hostileString(long = false): fc.Arbitrary<string> {
  return once(`hostileString ${long}`, () => buildHostileString(long));
}

function buildHostileString(long: boolean): fc.Arbitrary<string> {
  const unit = fc.oneof(
    { weight: 4, arbitrary: fc.constantFrom('a', 'b', ' ', '-', '1', '/', '%', '&', '=', '[', ']', '"', '\\', '<', '>', "'", '\n', '\t', '\r') },
    { weight: 2, arbitrary: fc.constantFrom(...CONTROL) },
    { weight: 2, arbitrary: fc.constantFrom(...SURROGATES) },
    { weight: 2, arbitrary: fc.constantFrom(...ODD) },
  );
  return fc.oneof(
    { weight: 6, arbitrary: fc.string({ unit, minLength: 1, maxLength: 24 }) },
    { weight: 1, arbitrary: fc.string({ unit: 'binary', minLength: 1, maxLength: 16 }) },
    { weight: 1, arbitrary: fc.string({ unit: 'grapheme', minLength: 1, maxLength: 16 }) },
    {
      weight: 1,
      arbitrary: long
        ? fc.constantFrom('a'.repeat(1001), 'x'.repeat(65_536), 'é'.repeat(40_000), '\u0000'.repeat(300), 'a,'.repeat(3000))
        : fc.constantFrom('a'.repeat(1001), 'é'.repeat(201), '\u0000'.repeat(50), 'a,'.repeat(500), MANY_WORDS),
    },
  );
}

/** Deeply nested lists and maps, and long lists. */
export function deepJson(): fc.Arbitrary<JVal> {
  return once('deepJson', () =>
    fc.oneof(
      // Written as text: building them as values would take the generator's stack.
      fc.integer({ min: 50, max: 5000 }).map((depth) => new Raw(`${'['.repeat(depth)}1${']'.repeat(depth)}`)),
      fc.integer({ min: 50, max: 5000 }).map((depth) => new Raw(`${'{"a":'.repeat(depth)}"x"${'}'.repeat(depth)}`)),
      fc.integer({ min: 11, max: 5000 }).map((n) => Array.from({ length: n }, (_, i) => i + 1)),
    ),
  );
}

/**
 * Lists of ids at an argument's `maxItems`, one beyond it and far beyond (what one request may
 * read is budgeted: lib/contract/budget.ts), the seeded ids over and over or ids counted from 1.
 * Undefined for arguments without a limit. A query stays under the 16 KB a request head may take.
 */
export function longLists(arg: Arg, world: World): fc.Arbitrary<JVal> | undefined {
  const max = arg.maxItems;
  if (max === undefined) return undefined;
  return once(`longLists ${max}`, () => {
    const seeded = Object.values(world.ids).flat();
    const lengths = fc.constantFrom(max, max + 1, 2 * max, 1000);
    return fc.oneof(
      lengths.map((n) => Array.from({ length: n }, (_, i) => i + 1)),
      lengths.map((n) => Array.from({ length: n }, (_, i) => seeded[i % seeded.length] ?? i + 1)),
    );
  });
}

/** Lists one beyond an argument's `maxItems` and far beyond it (none without a limit): they break its declared type. */
export function overLimit(arg: Arg): number[][] {
  const max = arg.maxItems;
  return max === undefined ? [] : [max + 1, 1000].map((n) => Array.from({ length: n }, (_, i) => i + 1));
}

/** A map with prototype keys, for JSON bodies. */
export function protoJson(): fc.Arbitrary<JVal> {
  return once('protoJson', buildProtoJson);
}

function buildProtoJson(): fc.Arbitrary<JVal> {
  const payload = fc.constantFrom<JVal>(obj([['status', 'draft']]), obj([['force', true]]), obj([['polluted', 'yes']]), obj([['title', 'polluted']]), 'x');
  return fc.oneof(
    payload.map((p) => obj([['__proto__', p]])),
    payload.map((p) => obj([['constructor', obj([['prototype', p]])]])),
    payload.map((p) => obj([['prototype', p]])),
    payload.map((p) => obj([['a', obj([['__proto__', p]])]])),
    payload.map((p) => [obj([['__proto__', p]])]),
  );
}

/** Query values that go on the wire as they are: malformed escapes, raw bytes, encoded controls. */
export function opaqueQuery(): fc.Arbitrary<QVal> {
  return once('opaqueQuery', () =>
    fc.oneof(
      fc.constantFrom(
        new Opaque('%', 'lone %'),
        new Opaque('%zz', 'bad escape'),
        new Opaque('%E0%A4', 'truncated UTF-8'),
        new Opaque('%ED%A0%80', 'surrogate as UTF-8'),
        new Opaque('%C0%AF', 'overlong UTF-8'),
        new Opaque('%FF%FE', 'invalid UTF-8'),
        new Opaque('%00', 'NUL'),
        new Opaque('a%00b%01c%1F', 'controls'),
        new Opaque('\u00ff\u00fe\u00e9', 'raw latin1 bytes'),
        new Opaque('\u00c3\u00a9', 'raw UTF-8 bytes'),
        new Opaque('%2e%2e%2f', 'dot dot slash'),
        new Opaque('1%2C2', 'encoded comma'),
        new Opaque('a+b', 'plus'),
      ),
      hostileString().map((s) => new Opaque(pct(s), 'hostile string')),
    ),
  );
}

/** Query pairs with prototype keys or broken key syntax; `proto` tells whether prototype keys are in. */
export function hostileQueryPairs(argNames: string[]): fc.Arbitrary<{ pairs: string[]; proto: boolean; label: string }> {
  return once(`hostileQueryPairs ${argNames.join(',')}`, () => buildHostileQueryPairs(argNames));
}

function buildHostileQueryPairs(argNames: string[]): fc.Arbitrary<{ pairs: string[]; proto: boolean; label: string }> {
  const name = argNames.length ? fc.constantFrom(...argNames, 'a', 'x') : fc.constantFrom('a', 'x');
  const target = fc.constantFrom('status', 'force', 'title', 'polluted', 'password', 'per_page', 'length', 'toString', 'hasOwnProperty');
  const value = fc.constantFrom('draft', 'true', '1', 'x', '');
  const proto = fc.oneof(
    fc.tuple(target, value).map(([t, v]) => `__proto__[${t}]=${v}`),
    fc.tuple(name, target, value).map(([n, t, v]) => `${n}[__proto__][${t}]=${v}`),
    fc.tuple(name, target, value).map(([n, t, v]) => `${n}[][__proto__][${t}]=${v}`),
    fc.tuple(target, value).map(([t, v]) => `constructor[prototype][${t}]=${v}`),
    fc.tuple(name, target, value).map(([n, t, v]) => `${n}[constructor][prototype][${t}]=${v}`),
    fc.tuple(target, value).map(([t, v]) => `%5F%5Fproto%5F%5F[${t}]=${v}`),
    fc.tuple(target, value).map(([t, v]) => `__proto__%5B${t}%5D=${v}`),
    fc.constantFrom('__proto__=x', 'constructor=x', 'prototype=x', '__proto__[]=x', 'a[__proto__]=x', 'a[__proto__][]=x'),
  );
  const broken = fc.oneof(
    fc.constantFrom('=x', '&', '&&&', 'a=1=2', '[]=1', 'a[=1', 'a]=1', 'a[b=1', 'a[][]=1', 'a[][b]=1', '%=1', 'a%00=1', '%E0=1', 'a[]=1&a=2', 'a=1&a[]=2', 'a[x]=1&a=2'),
    fc.integer({ min: 20, max: 200 }).map((d) => `a${'[x]'.repeat(d)}=1`),
    fc.integer({ min: 20, max: 200 }).map((d) => `a${'[]'.repeat(d)}=1`),
    fc.integer({ min: 100, max: 400 }).map((n) => Array.from({ length: n }, (_, i) => `p${i}=${i}`).join('&')),
  );
  return fc.oneof(
    { weight: 3, arbitrary: fc.array(proto, { minLength: 1, maxLength: 3 }).map((pairs) => ({ pairs, proto: true, label: `proto ${pairs.join('&')}` })) },
    { weight: 2, arbitrary: broken.map((p) => ({ pairs: [p], proto: false, label: `broken ${p.slice(0, 40)}` })) },
  );
}

/** Huge and tiny numbers, in JSON. */
export const extremeNumbers = (): fc.Arbitrary<JVal> =>
  once('extremeNumbers', () =>
    fc.constantFrom<JVal>(
      new Raw('1e-200'),
      new Raw('1e309'),
      new Raw('-1e309'),
      new Raw('-0'),
      0.5,
      2 ** 31,
      2 ** 31 - 1,
      new Raw('9007199254740993'),
      2 ** 53 - 1,
      119_304_648,
      -(2 ** 31),
      1e21,
      new Raw('1E400'),
      new Raw('0.0000'),
      new Raw('5e-324'),
    ),
  );
