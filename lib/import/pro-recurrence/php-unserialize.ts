// PHP's unserialize() for what WordPress post meta holds: null, booleans, integers, floats, strings
// and arrays. Objects, custom-serialised objects, enums and references are refused, never built: an
// export file is untrusted text, and nothing here needs them. Strings count bytes in UTF-8, as PHP
// writes them; depth, element count and size are bounded, so hostile input fails fast and cheaply.

/** A PHP array: ordered, keyed by integers (as numbers) or strings, as PHP keys it. */
export type PhpArray = Map<number | string, PhpValue>;
export type PhpValue = null | boolean | number | string | PhpArray;

/** Why a text is not a value this reader accepts. */
export class PhpUnserializeError extends Error {
  override readonly name = 'PhpUnserializeError';
}

const MAX_BYTES = 1 << 20;
const MAX_DEPTH = 32;
const MAX_ELEMENTS = 100_000;
const REFUSED: Record<string, string> = {
  O: 'an object',
  C: 'a custom-serialised object',
  E: 'an enum case',
  r: 'a reference',
  R: 'a reference',
};
const INTEGER = /^[+-]?[0-9]+$/;
// A string key PHP stores as an integer: canonical decimal, no sign on zero, no leading zeros.
const INTEGER_KEY = /^(?:0|-?[1-9][0-9]*)$/;
const FLOAT = /^(?:[+-]?(?:[0-9]+(?:\.[0-9]*)?|\.[0-9]+)(?:[eE][+-]?[0-9]+)?|INF|-INF|NAN)$/;

/** The value a PHP-serialised text holds; throws PhpUnserializeError on anything else. */
export function phpUnserialize(text: string): PhpValue {
  const bytes = Buffer.from(text, 'utf8');
  if (bytes.length > MAX_BYTES) throw refusal(`the text is longer than ${MAX_BYTES} bytes`, 0);
  const reader = new Reader(bytes);
  const value = reader.value(0);
  if (reader.at !== bytes.length) throw refusal('unexpected data after the value', reader.at);
  return value;
}

const refusal = (message: string, at: number) => new PhpUnserializeError(`not a serialised PHP value this reader accepts: ${message} (byte ${at})`);

const decoder = new TextDecoder('utf-8', { fatal: true });

class Reader {
  at = 0;
  private elements = 0;

  constructor(private readonly bytes: Buffer) {}

  value(depth: number): PhpValue {
    const type = String.fromCharCode(this.bytes[this.at] ?? 0);
    if (type in REFUSED) throw this.fail(`${REFUSED[type]} is not accepted`);
    if (type === 'N') {
      this.expect('N;');
      return null;
    }
    this.expect(`${type}:`);
    switch (type) {
      case 'b': {
        const digit = this.until(';');
        if (digit !== '0' && digit !== '1') throw this.fail(`a boolean must be 0 or 1, not '${digit}'`);
        return digit === '1';
      }
      case 'i':
        return this.integer(this.until(';'));
      case 'd':
        return this.float(this.until(';'));
      case 's':
        return this.string();
      case 'a':
        return this.array(depth + 1);
      default:
        throw this.fail(`unknown type '${type}'`);
    }
  }

  private integer(text: string): number {
    if (!INTEGER.test(text)) throw this.fail(`'${text}' is not an integer`);
    const n = Number(text);
    if (!Number.isSafeInteger(n)) throw this.fail(`the integer ${text} is outside the range this reader keeps exactly`);
    return n === 0 ? 0 : n;
  }

  private float(text: string): number {
    if (!FLOAT.test(text)) throw this.fail(`'${text}' is not a float`);
    if (text === 'INF') return Number.POSITIVE_INFINITY;
    if (text === '-INF') return Number.NEGATIVE_INFINITY;
    return text === 'NAN' ? Number.NaN : Number(text);
  }

  private string(): string {
    const length = this.length();
    this.expect('"');
    const end = this.at + length;
    if (end > this.bytes.length) throw this.fail(`a string of ${length} bytes runs past the end`);
    let text: string;
    try {
      text = decoder.decode(this.bytes.subarray(this.at, end));
    } catch {
      throw this.fail(`a string of ${length} bytes is not whole UTF-8 (a wrong byte length?)`);
    }
    this.at = end;
    this.expect('";');
    return text;
  }

  private array(depth: number): PhpArray {
    if (depth > MAX_DEPTH) throw this.fail(`arrays nest deeper than ${MAX_DEPTH} levels`);
    const count = this.length();
    // Each element takes at least 4 bytes ('i:0;N;' is 6): a count the rest cannot hold is a lie.
    if (count * 4 > this.bytes.length - this.at) throw this.fail(`an array of ${count} elements cannot fit in what is left`);
    this.elements += count;
    if (this.elements > MAX_ELEMENTS) throw this.fail(`more than ${MAX_ELEMENTS} array elements`);
    this.expect('{');
    const out: PhpArray = new Map();
    for (let i = 0; i < count; i++) {
      const key = this.key();
      // A repeated key keeps its first place and takes the later value, as PHP's arrays do.
      out.set(key, this.value(depth));
    }
    this.expect('}');
    return out;
  }

  private key(): number | string {
    const type = String.fromCharCode(this.bytes[this.at] ?? 0);
    if (type !== 'i' && type !== 's') throw this.fail('an array key must be an integer or a string');
    this.expect(`${type}:`);
    if (type === 'i') return this.integer(this.until(';'));
    const key = this.string();
    return INTEGER_KEY.test(key) && Number.isSafeInteger(Number(key)) ? Number(key) : key;
  }

  private length(): number {
    const text = this.until(':');
    if (!/^[0-9]{1,9}$/.test(text)) throw this.fail(`'${text}' is not a length`);
    return Number(text);
  }

  /** The text up to `stop` (at most 64 bytes on), the stop consumed. */
  private until(stop: string): string {
    const found = this.bytes.subarray(this.at, this.at + 65).indexOf(stop.charCodeAt(0));
    if (found < 0) throw this.fail(`expected '${stop}'`);
    const end = this.at + found;
    const text = this.bytes.toString('latin1', this.at, end);
    this.at = end + 1;
    return text;
  }

  private expect(literal: string): void {
    if (this.bytes.toString('latin1', this.at, this.at + literal.length) !== literal) throw this.fail(`expected '${literal}'`);
    this.at += literal.length;
  }

  private fail(message: string): PhpUnserializeError {
    return refusal(message, this.at);
  }
}
