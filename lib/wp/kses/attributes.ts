// wp_kses_attr, wp_kses_hair and wp_kses_attr_check: a tag's attributes parsed the way
// WordPress parses them and rebuilt with only the allowed ones, URLs and styles cleaned.
import { asciiLower, isAsciiLetter, isDigit, isPcreSpace, replaceAll, skipPcreSpace } from '../php.js';
import { type AttrRule, type Ctx, URI_ATTRIBUTES } from './allowed.js';
import { safecssFilterAttr } from './css.js';
import { badProtocol } from './protocols.js';
import { isEmptyString, isPcreEnd } from './scan.js';

/** wp_kses_attr: keep only the allowed attributes, rebuilt, with a `/` kept as ` /`. */
export function rebuildAttributes(element: string, attrList: string, allowed: ReadonlyMap<string, AttrRule>, ctx: Ctx): string {
  const slash = hasClosingSlash(attrList) ? ' /' : '';
  if (allowed.size === 0) return `<${element}${slash}>`;
  const required = new Set(requiredAttributes(allowed));
  const stripped = slash === '' ? `<${element}>` : '';
  let kept = '';
  for (const attr of parseAttributes(attrList)) {
    const lowerName = asciiLower(attr.name);
    const isRequired = required.has(lowerName);
    const whole = checkAttribute(attr, allowed, ctx);
    if (whole !== null) {
      kept += ` ${whole}`;
      required.delete(lowerName);
    } else if (isRequired) {
      return stripped;
    }
  }
  if (required.size > 0) return stripped;
  return `<${element}${kept.replace(/[<>]/g, '')}${slash}>`;
}

const REQUIRED_CACHE = new WeakMap<ReadonlyMap<string, AttrRule>, readonly string[]>();

/** Attributes an element cannot do without (`<object>`'s data and type). */
function requiredAttributes(allowed: ReadonlyMap<string, AttrRule>): readonly string[] {
  let required = REQUIRED_CACHE.get(allowed);
  if (required === undefined) {
    required = [...allowed].filter(([, rule]) => rule !== true && rule.required === true).map(([name]) => name);
    REQUIRED_CACHE.set(allowed, required);
  }
  return required;
}

/** The attribute text ends with a slash, whitespace around it allowed (XHTML `<br />`). */
function hasClosingSlash(attrList: string): boolean {
  let end = attrList.length;
  while (end > 0 && isPcreSpace(attrList[end - 1])) end--;
  return attrList[end - 1] === '/';
}

interface ParsedAttribute {
  name: string;
  value: string;
  whole: string;
  valueless: 'y' | 'n';
}

/**
 * wp_kses_hair: WordPress's attribute state machine. Unquoted values get double quotes, single
 * quotes stay, URI attributes lose disallowed protocols, the first of duplicate names (exact
 * case) wins, and anything malformed is skipped up to the next whitespace.
 */
function parseAttributes(attr: string): ParsedAttribute[] {
  if (skipPcreSpace(attr, 0) === attr.length) return [];
  const found = new Map<string, ParsedAttribute>();
  const add = (name: string, value: string, whole: string, valueless: 'y' | 'n'): void => {
    if (!found.has(name)) found.set(name, { name, value, whole, valueless });
  };
  let mode = 0;
  let name = '';
  let i = 0;
  while (i < attr.length) {
    let step: number | null = null;
    if (mode === 0) {
      step = readAttributeName(attr, i);
      if (step !== null) {
        name = attr.slice(i, step);
        mode = 1;
      }
    } else if (mode === 1) {
      const afterSpace = skipPcreSpace(attr, i);
      if (attr[afterSpace] === '=') {
        step = skipPcreSpace(attr, afterSpace + 1);
        mode = 2;
      } else if (afterSpace > i) {
        add(name, '', name, 'y');
        step = afterSpace;
        mode = 0;
      }
    } else {
      const value = readAttributeValue(attr, i);
      if (value !== null) {
        const clean = URI_ATTRIBUTES.has(asciiLower(name)) ? badProtocol(value.value) : value.value;
        add(name, clean, `${name}=${value.quote}${clean}${value.quote}`, 'n');
        step = value.next;
        mode = 0;
      }
    }
    if (step === null) {
      i = skipMalformed(attr, i);
      mode = 0;
    } else {
      i = step;
    }
  }
  if (mode === 1) add(name, '', name, 'y');
  return [...found.values()];
}

/** `[_a-zA-Z][-_a-zA-Z0-9:.]*` at `i`: the index after it, or null. */
function readAttributeName(attr: string, i: number): number | null {
  const first = attr[i];
  if (!(isAsciiLetter(first) || first === '_')) return null;
  let end = i + 1;
  while (end < attr.length && isAttributeNameChar(attr[end]!)) end++;
  return end;
}

function isAttributeNameChar(ch: string): boolean {
  return isAsciiLetter(ch) || isDigit(ch) || ch === '-' || ch === '_' || ch === ':' || ch === '.';
}

/**
 * A value after `=`: `"…"` or `'…'` followed by whitespace or `/?` at the end, or an unquoted
 * run ending at whitespace or the end. `next` is where parsing resumes (WordPress leaves a
 * quoted value followed by `/` in place, and the malformed-skip then eats it).
 */
function readAttributeValue(attr: string, i: number): { value: string; quote: string; next: number } | null {
  const quote = attr[i];
  if (quote === '"' || quote === "'") {
    const close = attr.indexOf(quote, i + 1);
    if (close === -1) return null;
    const after = close + 1;
    const fits = isPcreSpace(attr[after]) || isPcreEnd(attr, after) || (attr[after] === '/' && isPcreEnd(attr, after + 1));
    if (!fits) return null;
    let next = i;
    if (isPcreSpace(attr[after])) next = skipPcreSpace(attr, after);
    else if (isPcreEnd(attr, after)) next = attr.length;
    return { value: attr.slice(i + 1, close), quote, next };
  }
  let end = i;
  while (end < attr.length && !isPcreSpace(attr[end]) && attr[end] !== '"' && attr[end] !== "'") end++;
  if (end === i || !(end === attr.length || isPcreSpace(attr[end]))) return null;
  return { value: attr.slice(i, end), quote: '"', next: skipPcreSpace(attr, end) };
}

/** wp_kses_html_error: skip quoted strings and non-space characters, then whitespace. */
function skipMalformed(attr: string, from: number): number {
  let i = from;
  while (i < attr.length) {
    const ch = attr[i]!;
    if (ch === '"' || ch === "'") {
      const close = attr.indexOf(ch, i + 1);
      i = close === -1 ? attr.length : close + 1;
    } else if (!isPcreSpace(ch)) {
      i++;
    } else {
      break;
    }
  }
  return skipPcreSpace(attr, i);
}

/**
 * wp_kses_attr_check: the attribute's rebuilt text if the element allows it, else null.
 * `data-*` names are allowed by pattern; `style` goes through safecss_filter_attr.
 */
function checkAttribute(attr: ParsedAttribute, allowed: ReadonlyMap<string, AttrRule>, ctx: Ctx): string | null {
  const lowerName = asciiLower(attr.name);
  let rule = allowed.get(lowerName);
  if (rule === undefined) {
    const wildcard = allowed.get('data-*');
    if (wildcard === undefined || !/^data-[a-z0-9_-]+$/.test(lowerName)) return null;
    rule = wildcard;
  }
  let { value, whole } = attr;
  if (lowerName === 'style') {
    const css = safecssFilterAttr(value);
    if (isEmptyString(css)) return null;
    whole = replaceAll(whole, value, css);
    value = css;
  }
  if (rule !== true) {
    if (rule.valueless !== undefined && rule.valueless !== attr.valueless) return null;
    if (rule.values !== undefined && !rule.values.includes(asciiLower(value))) return null;
    if (rule.valueCallback !== undefined && !rule.valueCallback(value, ctx)) return null;
  }
  return whole;
}
