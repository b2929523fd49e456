// PHP and PCRE behaviours the WordPress ports below depend on, spelled out for JavaScript.
//
// PHP strings are bytes and WordPress's regular expressions run without the /u flag, so `\s`,
// `\w`, `trim()` and `$` mean their ASCII, byte-oriented things. A JavaScript string holds UTF-16
// code units; every character these helpers look at is ASCII, so a non-ASCII character behaves
// as PHP's bytes >= 0x80 do (never a space, never a word character).

/** PCRE's `\s` without Unicode mode: space, \t, \n, \v, \f, \r. */
export function isPcreSpace(ch: string | undefined): boolean {
  return ch === ' ' || ch === '\t' || ch === '\n' || ch === '\v' || ch === '\f' || ch === '\r';
}

/** C's isspace() in the C locale (PHP's strip_tags). */
export const isCSpace = isPcreSpace;

/** PCRE's `\w` without Unicode mode. */
export function isWordChar(ch: string | undefined): boolean {
  if (ch === undefined) return false;
  const c = ch.charCodeAt(0);
  return (c >= 48 && c <= 57) || (c >= 65 && c <= 90) || (c >= 97 && c <= 122) || c === 95;
}

export function isDigit(ch: string | undefined): boolean {
  return ch !== undefined && ch >= '0' && ch <= '9';
}

export function isHexDigit(ch: string | undefined): boolean {
  return isDigit(ch) || (ch !== undefined && ((ch >= 'a' && ch <= 'f') || (ch >= 'A' && ch <= 'F')));
}

export function isAsciiLetter(ch: string | undefined): boolean {
  return ch !== undefined && ((ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z'));
}

const PHP_TRIM = ' \t\n\r\0\v';

/** PHP trim() with its default characters (no \f, but NUL and \v). */
export function phpTrim(text: string, chars: string = PHP_TRIM): string {
  let start = 0;
  let end = text.length;
  while (start < end && chars.includes(text[start]!)) start++;
  while (end > start && chars.includes(text[end - 1]!)) end--;
  return start === 0 && end === text.length ? text : text.slice(start, end);
}

export function phpLtrim(text: string, chars: string = PHP_TRIM): string {
  let start = 0;
  while (start < text.length && chars.includes(text[start]!)) start++;
  return start === 0 ? text : text.slice(start);
}

/** PHP 8's strtolower(): ASCII letters only. */
export function asciiLower(text: string): string {
  return /[A-Z]/.test(text) ? text.replace(/[A-Z]+/g, (run) => run.toLowerCase()) : text;
}

/** str_replace() with one search string; `$` in the replacement stays literal. */
export function replaceAll(subject: string, search: string, replacement: string): string {
  if (search === '' || !subject.includes(search)) return subject;
  return subject.split(search).join(replacement);
}

/** PHP stripslashes(): `\x` -> `x`, `\\` -> `\`, `\0` -> NUL, a final lone `\` goes. */
export function stripslashes(text: string): string {
  if (!text.includes('\\')) return text;
  let out = '';
  let copied = 0;
  let i = text.indexOf('\\');
  while (i !== -1) {
    out += text.slice(copied, i);
    const next = text[i + 1];
    if (next === undefined) {
      copied = text.length;
      break;
    }
    out += next === '0' ? '\0' : next;
    copied = i + 2;
    i = text.indexOf('\\', copied);
  }
  return out + text.slice(copied);
}

/** PHP addslashes(): a backslash before `'`, `"`, `\` and NUL (which becomes `\0`). */
export function addslashes(text: string): string {
  return /['"\\\0]/.test(text) ? text.replace(/['"\\\0]/g, (ch) => (ch === '\0' ? '\\0' : `\\${ch}`)) : text;
}

/** Whether the string holds a UTF-16 surrogate that is not part of a pair (no UTF-8 exists for it). */
export function hasLoneSurrogate(text: string): boolean {
  return /[\uD800-\uDFFF]/.test(text) && /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/.test(text);
}

/**
 * wp_check_invalid_utf8( $text ): '' when the text cannot be UTF-8. A JavaScript string can only
 * fail to be valid UTF-8 by holding a lone surrogate.
 */
export function checkInvalidUtf8(text: string): string {
  return hasLoneSurrogate(text) ? '' : text;
}

/** Collects output pieces without a long `+=` chain on large inputs. */
export class Builder {
  private parts: string[] = [];
  private text = '';

  add(piece: string): void {
    if (piece === '') return;
    if (this.parts.length === 0 && this.text.length < 256) {
      this.text += piece;
      return;
    }
    if (this.text !== '') {
      this.parts.push(this.text);
      this.text = '';
    }
    this.parts.push(piece);
  }

  toString(): string {
    if (this.parts.length === 0) return this.text;
    if (this.text !== '') this.parts.push(this.text);
    const joined = this.parts.join('');
    this.parts = [joined];
    this.text = '';
    return joined;
  }
}

/**
 * indexOf() for searches whose start only moves forward: the last answer is reused while it is
 * still ahead, so scanning many starts over the same stretch of text stays linear.
 */
export class ForwardFinder {
  private from = -1;
  private found = -1;

  constructor(
    private readonly text: string,
    private readonly needle: string,
  ) {}

  next(position: number): number {
    if (this.from !== -1 && position >= this.from && (this.found === -1 || this.found >= position)) return this.found;
    this.from = position;
    this.found = this.text.indexOf(this.needle, position);
    return this.found;
  }
}

/** PCRE whitespace run end from `from`. */
export function skipPcreSpace(text: string, from: number): number {
  let i = from;
  while (i < text.length && isPcreSpace(text[i])) i++;
  return i;
}
