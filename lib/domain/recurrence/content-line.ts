// One iCalendar content line (RFC 5545 §3.1): NAME *(;PARAM=value[,value]) : value, unfolded.
// Names and parameter names are case-insensitive; parameter values may be quoted.

export interface ContentLine {
  name: string;
  /** Upper-cased parameter names -> their values (quotes removed). */
  params: Map<string, string[]>;
  value: string;
}

const NAME_RE = /^[A-Za-z0-9-]+/;

/** A parameter value: a quoted string, or text up to `;`, `:` or `,`. */
function paramValue(text: string, at: number): { value: string; next: number } | string {
  if (text[at] === '"') {
    const close = text.indexOf('"', at + 1);
    if (close < 0) return 'a quoted parameter value has no closing quote';
    return { value: text.slice(at + 1, close), next: close + 1 };
  }
  let end = at;
  while (end < text.length && !';:,"'.includes(text[end]!)) end++;
  return { value: text.slice(at, end), next: end };
}

/** Reads the parameters from `at` (just after the name) up to the ':' before the value. */
function readParams(text: string, at: number, params: Map<string, string[]>): number | string {
  while (text[at] === ';') {
    const name = NAME_RE.exec(text.slice(at + 1))?.[0];
    if (!name || text[at + 1 + name.length] !== '=') return 'a parameter must be written NAME=value';
    const key = name.toUpperCase();
    if (params.has(key)) return `${key} is given twice`;
    const values: string[] = [];
    at += name.length + 1;
    do {
      const read = paramValue(text, at + 1);
      if (typeof read === 'string') return read;
      values.push(read.value);
      at = read.next;
    } while (text[at] === ',');
    params.set(key, values);
  }
  return at;
}

/** A content line, or the message saying why it is not one. */
export function parseContentLine(text: string): ContentLine | string {
  const name = NAME_RE.exec(text)?.[0];
  if (!name) return 'a line must start with a property name such as RRULE';
  const params = new Map<string, string[]>();
  const at = readParams(text, name.length, params);
  if (typeof at === 'string') return at;
  if (text[at] !== ':') return `${name.toUpperCase()} must be followed by ":" and its value`;
  return { name: name.toUpperCase(), params, value: text.slice(at + 1) };
}
