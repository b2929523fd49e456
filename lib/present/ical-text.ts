// iCalendar's content lines (RFC 5545 §3.1, §3.3): TEXT escaping, lines folded at 75 octets
// without splitting a UTF-8 character, CRLF after every line.

const CRLF = '\r\n';
const MAX_OCTETS = 75;

/** A TEXT value (§3.3.11): `\`, `;` and `,` escaped, line breaks as `\n`, other control characters dropped. */
export function escapeText(value: string): string {
  return value
    .replace(/\r\n?/g, '\n')
    .replace(/[\\;,]/g, (ch) => `\\${ch}`)
    .replace(/\n/g, '\\n')
    .replace(/[\x00-\x08\x0B-\x1F\x7F]/g, '');
}

/**
 * A parameter value (§3.2): quoted, since a DQUOTE cannot be in it at all (it becomes `'`, as TEC
 * writes it), and without control characters.
 */
export function quoteParam(value: string): string {
  return `"${value.replace(/"/g, "'").replace(/[\x00-\x08\x0A-\x1F\x7F]/g, '')}"`;
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

/** Lines joined as an iCalendar object: each folded and ended with CRLF. */
export function contentLines(lines: readonly string[]): string {
  let out = '';
  for (const line of lines) out += fold(line) + CRLF;
  return out;
}
