// PHP values and PHP's JSON, as json_decode( $json, true ) and wp_json_encode( $value,
// JSON_UNESCAPED_SLASHES | JSON_UNESCAPED_UNICODE ) see them: objects become ordered arrays,
// integer-like keys become integers, a 0..n-1 array is a JSON list again.
import { hasLoneSurrogate } from '../php.js';
import { Builder, isEmptyString } from './scan.js';

export type PhpKey = string | bigint;
export type PhpValue = null | boolean | bigint | number | string | PhpArray;

/** A PHP array: ordered, keyed by integers or strings. */
export class PhpArray {
  /** Created on first write: most blocks have no attributes. */
  private items: Map<string, [PhpKey, PhpValue | undefined]> | null = null;

  get size(): number {
    return this.items?.size ?? 0;
  }

  set(key: PhpKey, value: PhpValue | undefined): void {
    const normalized = normalizePhpKey(key);
    const id = phpKeyId(normalized);
    this.items ??= new Map();
    const existing = this.items.get(id);
    if (existing) existing[1] = value;
    else this.items.set(id, [normalized, value]);
  }

  delete(key: PhpKey): void {
    this.items?.delete(phpKeyId(normalizePhpKey(key)));
  }

  entries(): [PhpKey, PhpValue | undefined][] {
    return this.items === null ? [] : [...this.items.values()];
  }

  snapshot(): [PhpKey, PhpValue | undefined][] {
    return this.entries().map(([key, value]) => [key, value]);
  }

  isList(): boolean {
    let index = 0n;
    for (const [key] of this.entries()) {
      if (key !== index) return false;
      index++;
    }
    return true;
  }
}

const INT64_MIN = -(2n ** 63n);
const INT64_MAX = 2n ** 63n - 1n;

/** "12" -> 12n as PHP does for array keys; "012", "-0" and out-of-range numbers stay strings. */
function normalizePhpKey(key: PhpKey): PhpKey {
  if (typeof key !== 'string' || !/^(?:0|-?[1-9][0-9]{0,19})$/.test(key)) return key;
  const number = BigInt(key);
  return number >= INT64_MIN && number <= INT64_MAX ? number : key;
}

function phpKeyId(key: PhpKey): string {
  return typeof key === 'bigint' ? `i${key}` : `s${key}`;
}

export function isPhpEmpty(value: PhpValue | undefined): boolean {
  if (value === null || value === undefined || value === false) return true;
  if (typeof value === 'string') return isEmptyString(value);
  if (typeof value === 'bigint') return value === 0n;
  if (typeof value === 'number') return value === 0;
  if (value instanceof PhpArray) return value.size === 0;
  return false;
}

const JSON_MAX_DEPTH = 512;
/** A JSON number (sticky, so it only matches where the parser stands). */
const NUMBER = /-?(?:0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?/y;

/** json_decode( $json, true ); undefined where PHP returns null for an error. */
export function phpJsonDecode(json: string): PhpValue | undefined {
  if (hasLoneSurrogate(json)) return undefined;
  const parser = new PhpJsonParser(json);
  try {
    const value = parser.value(0);
    if (parser.end()) return value;
  } catch (error) {
    if (!(error instanceof SyntaxError)) throw error;
  }
  return undefined;
}

const JSON_ESCAPES: Record<string, string> = { '"': '"', '\\': '\\', '/': '/', b: '\b', f: '\f', n: '\n', r: '\r', t: '\t' };

class PhpJsonParser {
  private i = 0;

  constructor(private readonly text: string) {}

  end(): boolean {
    this.skipSpace();
    return this.i === this.text.length;
  }

  value(depth: number): PhpValue {
    this.skipSpace();
    const ch = this.text[this.i];
    if (ch === '{' || ch === '[') {
      if (depth >= JSON_MAX_DEPTH) throw new SyntaxError('depth');
      return ch === '{' ? this.object(depth + 1) : this.array(depth + 1);
    }
    if (ch === '"') return this.string();
    for (const [word, result] of [
      ['true', true],
      ['false', false],
      ['null', null],
    ] as const) {
      if (this.text.startsWith(word, this.i)) {
        this.i += word.length;
        return result;
      }
    }
    return this.number();
  }

  private object(depth: number): PhpArray {
    const result = new PhpArray();
    this.i++;
    this.skipSpace();
    if (this.text[this.i] === '}') {
      this.i++;
      return result;
    }
    for (;;) {
      this.skipSpace();
      if (this.text[this.i] !== '"') throw new SyntaxError('key');
      const key = this.string();
      this.skipSpace();
      if (this.text[this.i++] !== ':') throw new SyntaxError('colon');
      result.set(key, this.value(depth));
      this.skipSpace();
      const next = this.text[this.i++];
      if (next === '}') return result;
      if (next !== ',') throw new SyntaxError('object');
    }
  }

  private array(depth: number): PhpArray {
    const result = new PhpArray();
    this.i++;
    this.skipSpace();
    if (this.text[this.i] === ']') {
      this.i++;
      return result;
    }
    for (let index = 0n; ; index++) {
      result.set(index, this.value(depth));
      this.skipSpace();
      const next = this.text[this.i++];
      if (next === ']') return result;
      if (next !== ',') throw new SyntaxError('array');
    }
  }

  private string(): string {
    const out = new Builder();
    let i = this.i + 1;
    for (;;) {
      const ch = this.text[i];
      if (ch === undefined || ch < ' ') throw new SyntaxError('string');
      if (ch === '"') break;
      if (ch !== '\\') {
        let end = i + 1;
        while (end < this.text.length && this.text[end] !== '"' && this.text[end] !== '\\' && this.text[end]! >= ' ') end++;
        out.add(this.text.slice(i, end));
        i = end;
        continue;
      }
      const escaped = this.text[i + 1];
      const simple = escaped === undefined ? undefined : JSON_ESCAPES[escaped];
      if (simple !== undefined) {
        out.add(simple);
        i += 2;
        continue;
      }
      if (escaped !== 'u') throw new SyntaxError('escape');
      const unit = this.hex4(i + 2);
      if (unit >= 0xdc00 && unit <= 0xdfff) throw new SyntaxError('surrogate');
      if (unit >= 0xd800 && unit <= 0xdbff) {
        const low = this.text.startsWith('\\u', i + 6) ? this.hex4(i + 8) : -1;
        if (low < 0xdc00 || low > 0xdfff) throw new SyntaxError('surrogate');
        out.add(String.fromCharCode(unit, low));
        i += 12;
      } else {
        out.add(String.fromCharCode(unit));
        i += 6;
      }
    }
    this.i = i + 1;
    return out.toString();
  }

  private hex4(at: number): number {
    const digits = this.text.slice(at, at + 4);
    if (!/^[0-9a-fA-F]{4}$/.test(digits)) throw new SyntaxError('unicode escape');
    return Number.parseInt(digits, 16);
  }

  private number(): bigint | number {
    NUMBER.lastIndex = this.i;
    const match = NUMBER.exec(this.text);
    if (match === null) throw new SyntaxError('number');
    this.i += match[0].length;
    return toPhpNumber(match[0], match[1] !== undefined || match[2] !== undefined);
  }

  private skipSpace(): void {
    while (' \t\n\r'.includes(this.text[this.i] ?? 'x')) this.i++;
  }
}

/** An integer literal in int64 range stays an integer; anything else is a float. */
function toPhpNumber(literal: string, isFloat: boolean): bigint | number {
  if (!isFloat) {
    const integer = BigInt(literal);
    if (integer >= INT64_MIN && integer <= INT64_MAX) return integer;
  }
  return Number(literal);
}

/** json_encode with JSON_UNESCAPED_SLASHES | JSON_UNESCAPED_UNICODE; null where PHP fails. */
export function phpJsonEncode(value: PhpValue | undefined, depth: number): string | null {
  if (value === null || value === undefined) return 'null';
  if (value === true) return 'true';
  if (value === false) return 'false';
  if (typeof value === 'bigint') return value.toString();
  if (typeof value === 'number') return Number.isFinite(value) ? phpFloat(value) : null;
  if (typeof value === 'string') return phpJsonString(value);
  if (depth >= JSON_MAX_DEPTH) return null;
  const list = value.isList();
  const parts: string[] = [];
  for (const [key, inner] of value.entries()) {
    const encoded = phpJsonEncode(inner ?? null, depth + 1);
    if (encoded === null) return null;
    parts.push(list ? encoded : `${phpJsonString(String(key))}:${encoded}`);
  }
  return list ? `[${parts.join(',')}]` : `{${parts.join(',')}}`;
}

function phpJsonString(text: string): string {
  const escaped = text.replace(/["\\\u0000-\u001f\u2028\u2029]/g, (ch) => {
    const short = JSON_SHORT_ESCAPES[ch];
    return short ?? `\\u${ch.charCodeAt(0).toString(16).padStart(4, '0')}`;
  });
  return `"${escaped}"`;
}

const JSON_SHORT_ESCAPES: Record<string, string> = {
  '"': '\\"',
  '\\': '\\\\',
  '\b': '\\b',
  '\f': '\\f',
  '\n': '\\n',
  '\r': '\\r',
  '\t': '\\t',
};

/** A double as PHP prints it with serialize_precision -1 (shortest digits, `1.0e+25` style). */
function phpFloat(value: number): string {
  if (value === 0) return Object.is(value, -0) ? '-0' : '0';
  const sign = value < 0 ? '-' : '';
  const [mantissa, exponent] = Math.abs(value).toExponential().split('e') as [string, string];
  const digits = mantissa.replace('.', '');
  const point = Number(exponent) + 1;
  if (point < -3 || point > 17) {
    const power = point - 1;
    return `${sign}${digits[0]}.${digits.length > 1 ? digits.slice(1) : '0'}e${power < 0 ? '-' : '+'}${Math.abs(power)}`;
  }
  if (point <= 0) return `${sign}0.${'0'.repeat(-point)}${digits}`;
  if (digits.length <= point) return `${sign}${digits}${'0'.repeat(point - digits.length)}`;
  return `${sign}${digits.slice(0, point)}.${digits.slice(point)}`;
}
