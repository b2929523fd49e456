// safecss_filter_attr: the CSS properties a `style` attribute may set, and the filter that keeps
// only safe declarations (URLs through wp_kses_bad_protocol, only known functions).
import { isPcreSpace, isWordChar, phpTrim, replaceAll, skipPcreSpace } from '../php.js';
import { noNull } from './no-null.js';
import { badProtocol } from './protocols.js';
import { Builder, ForwardFinder, isEmptyString } from './scan.js';

/** safecss_filter_attr()'s allowed properties (`--*` custom properties are handled apart). */
const SAFE_CSS_PROPERTIES = new Set(
  `background background-color background-image
  background-position background-repeat background-size background-attachment
  background-blend-mode border border-radius border-width border-color border-style border-right
  border-right-color border-right-style border-right-width border-bottom border-bottom-color
  border-bottom-left-radius border-bottom-right-radius border-bottom-style border-bottom-width
  border-left border-left-color border-left-style border-left-width border-top border-top-color
  border-top-left-radius border-top-right-radius border-top-style border-top-width border-spacing
  border-collapse caption-side columns column-count column-fill column-gap column-rule
  column-span column-width color filter font font-family font-size font-style font-variant
  font-weight letter-spacing line-height text-align text-decoration text-indent text-transform
  height min-height max-height width min-width max-width margin margin-right margin-bottom
  margin-left margin-top margin-block-start margin-block-end margin-inline-start
  margin-inline-end padding padding-right padding-bottom padding-left padding-top
  padding-block-start padding-block-end padding-inline-start padding-inline-end flex flex-basis
  flex-direction flex-flow flex-grow flex-shrink flex-wrap gap row-gap grid-template-columns
  grid-auto-columns grid-column-start grid-column-end grid-column grid-column-gap
  grid-template-rows grid-auto-rows grid-row-start grid-row-end grid-row grid-row-gap grid-gap
  justify-content justify-items justify-self align-content align-items align-self clear cursor
  direction float list-style-type object-fit object-position opacity overflow vertical-align
  writing-mode position top right bottom left z-index box-shadow aspect-ratio
  container-type`.split(/\s+/),
);

const CSS_URL_PROPERTIES = new Set(['background', 'background-image', 'cursor', 'filter', 'list-style', 'list-style-image']);
const CSS_GRADIENT_PROPERTIES = new Set(['background', 'background-image']);
const CSS_FUNCTIONS = ['var', 'calc', 'min', 'max', 'minmax', 'clamp', 'repeat'];
/** url() count × declaration length beyond which a declaration is refused (see isSafeDeclaration). */
const MAX_CSS_URL_WORK = 20_000_000;

/** safecss_filter_attr: keep only safe declarations of a style attribute. */
export function safecssFilterAttr(value: string): string {
  const css = noNull(value, true).replace(/[\n\r\t]/g, '');
  let out = '';
  for (const rawItem of phpTrim(css).split(';')) {
    if (rawItem === '') continue;
    const item = phpTrim(rawItem);
    if (isSafeDeclaration(item)) out += (out === '' ? '' : ';') + item;
  }
  return out;
}

/** One declaration: an allowed property (or a bare value), URLs and functions checked. */
function isSafeDeclaration(item: string): boolean {
  let test = item;
  let found = false;
  let urlProperty = false;
  let gradientProperty = false;
  const colon = item.indexOf(':');
  const rawValue = colon === -1 ? '' : item.slice(colon + 1);
  if (colon === -1) {
    found = true;
  } else {
    const property = phpTrim(item.slice(0, colon));
    const isCustom = /^--[a-zA-Z0-9_-]+$/.test(property);
    if (isCustom || SAFE_CSS_PROPERTIES.has(property)) {
      found = true;
      urlProperty = CSS_URL_PROPERTIES.has(property);
      gradientProperty = CSS_GRADIENT_PROPERTIES.has(property);
    }
    if (isCustom) {
      const trimmed = phpTrim(rawValue);
      urlProperty = trimmed.startsWith('url(');
      gradientProperty = trimmed.includes('-gradient(');
    }
  }
  if (found && urlProperty) {
    const matches = cssUrlMatches(rawValue);
    // Each url() is removed from the whole declaration in turn, as WordPress does; thousands of
    // them in one declaration would take quadratic time (WordPress would time out), so such a
    // declaration is dropped instead.
    if (matches.length * item.length > MAX_CSS_URL_WORK) return false;
    for (const match of matches) {
      const inner = cssUrlInner(match);
      if (isEmptyString(inner)) return false;
      const url = phpTrim(inner);
      if (isEmptyString(url) || badProtocol(url) !== url) return false;
      test = replaceAll(test, match, '');
    }
  }
  if (found && gradientProperty) {
    const trimmed = phpTrim(rawValue);
    if (isCssGradient(trimmed)) test = replaceAll(test, trimmed, '');
  }
  if (!found) return false;
  test = removeCssFunctions(test);
  return !/[\\(&=}]/.test(test) && !test.includes('/*');
}

/** Every `url(` … `)` with at least one character inside (`/url\([^)]+\)/g`). */
function cssUrlMatches(value: string): string[] {
  const matches: string[] = [];
  const close = new ForwardFinder(value, ')');
  let i = 0;
  for (;;) {
    const start = value.indexOf('url(', i);
    if (start === -1) break;
    const end = close.next(start + 4);
    if (end === -1) break;
    if (end === start + 4) {
      i = start + 1;
      continue;
    }
    matches.push(value.slice(start, end + 1));
    i = end + 1;
  }
  return matches;
}

/** `^url\(\s*(['"]?)(.*)\1\s*\)$` on `url(…)`: the part between optional matching quotes. */
function cssUrlInner(match: string): string {
  const body = match.slice(4, -1);
  const start = skipPcreSpace(body, 0);
  const quote = body[start];
  if (quote === '"' || quote === "'") {
    let end = body.length;
    while (end > start && isPcreSpace(body[end - 1])) end--;
    if (end - 1 > start && body[end - 1] === quote) return body.slice(start + 1, end - 1);
  }
  return body.slice(start);
}

/** `^(repeating-)?(linear|radial|conic)-gradient\(([^()]|rgba?\([^()]*\))*\)$` */
function isCssGradient(value: string): boolean {
  const head = /^(?:repeating-)?(?:linear|radial|conic)-gradient\(/.exec(value);
  if (head === null) return false;
  const bodyStart = head[0].length;
  let i = bodyStart;
  while (i < value.length) {
    const ch = value[i];
    if (ch === ')') return i === value.length - 1;
    if (ch === '(') {
      const before = value.slice(Math.max(bodyStart, i - 4), i);
      if (!before.endsWith('rgb') && !before.endsWith('rgba')) return false;
      let j = i + 1;
      while (j < value.length && value[j] !== '(' && value[j] !== ')') j++;
      if (value[j] !== ')') return false;
      i = j + 1;
      continue;
    }
    i++;
  }
  return false;
}

/** Removes `var(…)`, `calc(…)`, `min(…)`, … with balanced parentheses (not after a word char). */
function removeCssFunctions(text: string): string {
  if (!text.includes('(')) return text;
  const closing = matchingParentheses(text);
  const out = new Builder();
  let i = 0;
  let copied = 0;
  while (i < text.length) {
    const name = isWordChar(text[i - 1]) ? undefined : CSS_FUNCTIONS.find((fn) => text.startsWith(`${fn}(`, i));
    const close = name === undefined ? -1 : (closing.get(i + name.length) ?? -1);
    if (close === -1) {
      i++;
      continue;
    }
    out.add(text.slice(copied, i));
    copied = i = close + 1;
  }
  out.add(text.slice(copied));
  return out.toString();
}

/** Index of each `(` -> index of its matching `)` (unclosed ones are absent). One pass. */
function matchingParentheses(text: string): Map<number, number> {
  const closing = new Map<number, number>();
  const open: number[] = [];
  for (let i = 0; i < text.length; i++) {
    if (text[i] === '(') open.push(i);
    else if (text[i] === ')' && open.length > 0) closing.set(open.pop()!, i);
  }
  return closing;
}
