// iCalendar's content lines (RFC 5545 §3.1, §3.3): TEXT escaping, lines folded at 75 octets
// without splitting a UTF-8 character, CRLF after every line.

const CRLF = '\r\n';
const MAX_OCTETS = 75;

/**
 * A line's end in any of its forms: CRLF, CR, LF, vertical tab, form feed, NEL and the line and
 * paragraph separators. RFC 5545 ends lines with CRLF only, but readers split on others too
 * (Python's splitlines() on all of these).
 */
const LINE_BREAK = /\r\n|[\n\v\f\r\u0085\u2028\u2029]/g;
/** Control characters but tab (C0, DEL, C1), once line breaks are gone. */
const CONTROL = /[\x00-\x08\x0A-\x1F\x7F-\x9F]/g;

/**
 * A TEXT value (§3.3.11): `\`, `;` and `,` escaped, each line break (in any form) as `\n`, other
 * control characters dropped.
 */
export function escapeText(value: string): string {
  return value
    .replace(LINE_BREAK, '\n')
    .replace(/[\\;,]/g, (ch) => `\\${ch}`)
    .replace(/\n/g, '\\n')
    .replace(CONTROL, '');
}

/** Characters a URI value never holds as they are (RFC 3986 and §3.3.13). */
const NOT_IN_URI = /[\x00-\x20\x7F-\x9F"<>\\^`{}\u2028\u2029]/g;

/**
 * A URI value (§3.3.13), whatever is stored: controls, spaces, line separators and the characters
 * no URI holds percent-encoded (UTF-8), so that a value can neither end its line nor start another.
 */
export function uriValue(value: string): string {
  return value.replace(NOT_IN_URI, (ch) => encodeURIComponent(ch));
}

/**
 * A parameter value (§3.2): quoted, since a DQUOTE cannot be in it at all (it becomes `'`, as TEC
 * writes it), a line break becomes a space, and other control characters go.
 */
export function quoteParam(value: string): string {
  return `"${value.replace(LINE_BREAK, ' ').replace(/"/g, "'").replace(CONTROL, '')}"`;
}

/** A parameter value as it is when it needs no quotes (§3.2 paramtext), else quoted. */
export function paramValue(value: string): string {
  return value !== '' && !/[\x00-\x1F\x7F-\x9F";:,\u2028\u2029]/.test(value) ? value : quoteParam(value);
}

const octets = (codePoint: number) => (codePoint < 0x80 ? 1 : codePoint < 0x800 ? 2 : codePoint < 0x10000 ? 3 : 4);

/** One content line, folded (§3.1): no line longer than 75 octets, a continuation starts with a space. */
export function fold(line: string): string {
  if (line.length * 4 <= MAX_OCTETS) return line;
  let out = '';
  let width = 0;
  for (const ch of line) {
    const size = octets(ch.codePointAt(0)!);
    if (width + size > MAX_OCTETS) {
      out += `${CRLF} `;
      // The space that starts a continuation line counts toward its 75 octets.
      width = 1;
    }
    out += ch;
    width += size;
  }
  return out;
}

/** Line breaks and control characters but tab: none is ever left in a line (see contentLines). */
const UNSAFE_IN_LINE = /[\x00-\x08\x0A-\x1F\x7F-\x9F\u2028\u2029]/g;

/**
 * Lines joined as an iCalendar object: each folded and ended with CRLF. Every value is escaped
 * where its line is built; a control character still in a line is dropped here, so that no value
 * can end its line and start another whatever reaches it.
 */
export function contentLines(lines: readonly string[]): string {
  let out = '';
  for (const line of lines) out += fold(line.replace(UNSAFE_IN_LINE, '')) + CRLF;
  return out;
}
