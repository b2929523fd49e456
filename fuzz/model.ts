// The fuzzer's request model: what a generated request is, and how its values are written on the
// wire. Values exist in two worlds:
// - JSON values (`JVal`), for JSON bodies: real types, plus `Raw` numeric literals that JavaScript
//   numbers cannot carry (`1e309`, `-0`, `9007199254740993`);
// - query values (`QVal`), for query strings and form bodies: strings, lists (`a[]=`) and maps
//   (`a[k]=`), as PHP-style form decoding reads them; `Opaque` strings go on the wire as they are
//   (malformed percent-encoding, raw bytes), so what the server decodes is not predicted.
// Object keys may be anything, `__proto__` included: objects are built with defineProperty.
import type { Api } from '#lib/contract/operations.js';

/** A numeric literal written into JSON verbatim. */
export class Raw {
  constructor(readonly text: string) {}
  toString(): string {
    return this.text;
  }
}

/** A query/form value written to the wire without encoding (already percent-encoded or raw bytes). */
export class Opaque {
  constructor(
    readonly wire: string,
    readonly label: string,
  ) {}
}

export type JVal = null | boolean | number | string | Raw | JVal[] | { [key: string]: JVal };
export type QVal = string | Opaque | QVal[] | { [key: string]: QVal };

/** A plain object whose keys are own data properties, whatever their names (`__proto__` too). */
export function obj<T>(entries: Iterable<readonly [string, T]>): { [key: string]: T } {
  const out: { [key: string]: T } = {};
  for (const [k, v] of entries) Object.defineProperty(out, k, { value: v, enumerable: true, writable: true, configurable: true });
  return out;
}

export const isPlainObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v) && !(v instanceof Raw) && !(v instanceof Opaque);

// --- JSON -----------------------------------------------------------------------------------------

/** JSON text of a value; strings via JSON.stringify (lone surrogates become \\udXXX escapes). */
export function jsonText(v: JVal): string {
  if (v instanceof Raw) return v.text;
  if (v === null || typeof v === 'boolean') return String(v);
  if (typeof v === 'number') return Number.isFinite(v) ? (Object.is(v, -0) ? '-0' : JSON.stringify(v)) : 'null';
  if (typeof v === 'string') return JSON.stringify(v);
  if (Array.isArray(v)) return `[${v.map(jsonText).join(',')}]`;
  return `{${Object.entries(v)
    .map(([k, x]) => `${JSON.stringify(k)}:${jsonText(x)}`)
    .join(',')}}`;
}

// --- query strings and forms ----------------------------------------------------------------------

const UNRESERVED = /[A-Za-z0-9\-._~]/;

/**
 * Percent-encodes every code unit but the unreserved ones, as UTF-8; a lone surrogate is written
 * as its 3-byte (invalid) UTF-8 form, which decoders turn into U+FFFD.
 */
export function pct(s: string): string {
  let out = '';
  for (let i = 0; i < s.length; i++) {
    const c = s[i]!;
    const code = s.charCodeAt(i);
    if (code < 0x80 && UNRESERVED.test(c)) {
      out += c;
      continue;
    }
    let bytes: number[];
    if (code >= 0xd800 && code <= 0xdbff && i + 1 < s.length && s.charCodeAt(i + 1) >= 0xdc00 && s.charCodeAt(i + 1) <= 0xdfff) {
      bytes = [...Buffer.from(s.slice(i, i + 2), 'utf8')];
      i++;
    } else if (code >= 0xd800 && code <= 0xdfff) {
      bytes = [0xe0 | (code >> 12), 0x80 | ((code >> 6) & 0x3f), 0x80 | (code & 0x3f)];
    } else {
      bytes = [...Buffer.from(c, 'utf8')];
    }
    out += bytes.map((b) => `%${b.toString(16).toUpperCase().padStart(2, '0')}`).join('');
  }
  return out;
}

/** The `name=value` pairs of a value, PHP style: lists as `name[]`, maps as `name[key]`. */
export function formPairs(name: string, v: QVal): string[] {
  if (v instanceof Opaque) return [`${pct(name)}=${v.wire}`];
  if (typeof v === 'string') return [`${pct(name)}=${pct(v)}`];
  if (Array.isArray(v)) return v.flatMap((x) => formPairs(`${name}[]`, x));
  return Object.entries(v).flatMap(([k, x]) => formPairs(`${name}[${k}]`, x));
}

/** A JSON value as the query/form value a client would send for it (numbers and booleans as text). */
export function toQuery(v: JVal): QVal {
  if (v === null) return '';
  if (v instanceof Raw) return v.text;
  if (typeof v === 'number') return Object.is(v, -0) ? '-0' : String(v);
  if (typeof v === 'boolean' || typeof v === 'string') return String(v);
  if (Array.isArray(v)) return v.map(toQuery);
  return obj(Object.entries(v).map(([k, x]) => [k, toQuery(x)] as const));
}

export const containsOpaque = (v: QVal): boolean =>
  v instanceof Opaque || (Array.isArray(v) ? v.some(containsOpaque) : typeof v === 'object' ? Object.values(v).some(containsOpaque) : false);

// --- requests -------------------------------------------------------------------------------------

export type Role = 'contributor' | 'author' | 'editor';
/**
 * Who calls: nobody, a role (valid token), a valid token without a role, an application password
 * (HTTP Basic, an editor's), HTTP Basic without a password (anonymous, as in WordPress), or a broken
 * credential (bad tokens; Basic with an unknown login, a wrong password or a login too long for any
 * key).
 */
export type Caller =
  | 'anonymous'
  | Role
  | 'roleless'
  | 'app-password'
  | 'basic-no-password'
  | 'expired'
  | 'wrong-audience'
  | 'wrong-issuer'
  | 'forged'
  | 'garbage'
  | 'basic'
  | 'basic-wrong-password'
  | 'basic-long-login'
  | 'empty-bearer';
export const BAD_CALLERS: readonly Caller[] = [
  'expired',
  'wrong-audience',
  'wrong-issuer',
  'forged',
  'garbage',
  'basic',
  'basic-wrong-password',
  'basic-long-login',
  'empty-bearer',
];
/** Callers the API takes as nobody. */
export const ANONYMOUS_CALLERS: readonly Caller[] = ['anonymous', 'basic-no-password'];

/** A piece of a query string or body that minimization may drop, unless `keep` (it carries an expectation). */
export interface Part {
  text: string;
  keep: boolean;
}

/** A body, lazily: huge bodies are described, not stored; planned bodies are parts (JSON members or form pairs). */
export type Body =
  | { kind: 'text'; text: string }
  | { kind: 'json'; parts: Part[] }
  | { kind: 'form'; parts: Part[] }
  | { kind: 'bytes'; base64: string }
  | { kind: 'repeat'; head: string; unit: string; times: number; tail: string };

/**
 * A reference to a record resolved when the request is sent (records come and go during a run):
 * an id or slug of a kind, a user id (kind `users`), an application password's uuid (`uuid`).
 */
export interface RecordRef {
  kind: string;
  field: 'id' | 'slug' | 'uuid';
  pick: number;
}

/** A path segment: literal text (already encoded as it goes on the wire) or a record reference. */
export type Segment = string | RecordRef;

export interface Expectation {
  /** Why the request must not succeed (status >= 400): invalid arguments, a broken token… */
  reject: string[];
  /** The request reaches no operation: 404 rest_no_route, exactly. */
  noRoute?: string;
  /** The only statuses the request may get. */
  status?: number[];
}

export interface FuzzRequest {
  /** Sequence number in the run. */
  n: number;
  /** The operation the request is meant for; undefined for requests that match no route. */
  op?: string;
  method: string;
  /** The language segment (may be a wrong one). */
  lang: string;
  /** The route root: TEC's `/{lang}/tribe/events/v1` or WordPress's `/{lang}/wp/v2`. */
  api: Api;
  /** Segments after the root. */
  segments: Segment[];
  /** Query pieces, already encoded (`name=value`, or several pairs); joined with `&`. */
  query: Part[];
  caller: Caller;
  headers: Record<string, string>;
  body?: Body;
  expect: Expectation;
  /** Prototype keys somewhere in the request: runs alone, and the prototypes are checked after it. */
  exclusive: boolean;
  /** What the generator did, for the report. */
  notes: string[];
}

export function bodyText(b: Body): string | undefined {
  if (b.kind === 'text') return b.text;
  if (b.kind === 'json') return `{${b.parts.map((p) => p.text).join(',')}}`;
  if (b.kind === 'form') return b.parts.map((p) => p.text).join('&');
  return undefined;
}

export function bodyBuffer(b: Body): Buffer {
  if (b.kind === 'bytes') return Buffer.from(b.base64, 'base64');
  if (b.kind !== 'repeat') return Buffer.from(bodyText(b)!, 'utf8');
  return Buffer.from(b.head + b.unit.repeat(b.times) + b.tail, 'utf8');
}

/** JSON text of a string with DEL, C1 controls and other invisible characters escaped too (JSON.stringify leaves them). */
export const visible = (s: string) =>
  JSON.stringify(s).replace(/[\u007f-\u009f\u00ad\u200b-\u200f\u2028\u2029\u202a-\u202e\u2060-\u2064\ufeff]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);

export function bodyPreview(b: Body | undefined, max = 400): string | undefined {
  if (!b) return undefined;
  if (b.kind === 'repeat') return `${JSON.stringify(b.head)} + ${JSON.stringify(b.unit)} x ${b.times} + ${JSON.stringify(b.tail)}`;
  if (b.kind === 'bytes') {
    const raw = Buffer.from(b.base64, 'base64');
    return `bytes ${visible(raw.toString('latin1').slice(0, max))} (raw bytes shown as latin1)`;
  }
  const text = bodyText(b)!;
  return text.length > max ? `${visible(text.slice(0, max))}… (${text.length} chars)` : visible(text);
}
