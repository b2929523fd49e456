// wptexturize(): curly quotes, apostrophes, primes, dashes, ellipses, the multiplication sign and
// `&` -> `&#038;`, outside HTML tags, comments, registered shortcodes and <pre>/<code>/<kbd>/
// <style>/<script>/<tt> elements, as WordPress 6.8 does with its default (English) settings.
//
// WordPress marks the quotes it has decided on with HTML comments (flags) and runs later patterns
// on the marked text, so the flags are kept verbatim here: they change what the later look-behinds
// see. Every pattern below is either fixed-width around its match or a single forward scan.
import { ForwardFinder, isDigit, isPcreSpace, isWordChar, phpTrim, replaceAll } from './php.js';

const OPEN_Q_FLAG = '<!--oq-->';
const OPEN_SQ_FLAG = '<!--osq-->';
const APOS_FLAG = '<!--apos-->';
const PRIME_FLAG = '<!--wp-prime-or-quote-->';

const OPENING_QUOTE = '&#8220;';
const CLOSING_QUOTE = '&#8221;';
const APOS = '&#8217;';
const PRIME = '&#8242;';
const DOUBLE_PRIME = '&#8243;';
const OPENING_SINGLE_QUOTE = '&#8216;';
const CLOSING_SINGLE_QUOTE = '&#8217;';
const EN_DASH = '&#8211;';
const EM_DASH = '&#8212;';

const NO_TEXTURIZE_TAGS = ['pre', 'code', 'kbd', 'style', 'script', 'tt'];
const NO_TEXTURIZE_SHORTCODES = ['code'];

/** str_replace( $static_characters, $static_replacements ), pair by pair. */
const STATIC_PAIRS: ReadonlyArray<readonly [string, string]> = [
  ['...', '&#8230;'],
  ['``', OPENING_QUOTE],
  ["''", CLOSING_QUOTE],
  [' (tm)', ' &#8482;'],
  ...["'tain't", "'twere", "'twas", "'tis", "'twill", "'til", "'bout", "'nuff", "'round", "'cause", "'em"].map((word) => [word, word.replaceAll("'", APOS)] as const),
];

// wp_spaces_regexp(): [\r\n\t ] | U+00A0 | &nbsp;   PCRE's \Z and $ (no /m): the end or before a final "\n".
// Look-behinds are written after the character they guard (`'(?<=X')` for `(?<=X)'`): the same
// test, but the engine can look for the character first instead of trying every position.
const SP = '(?:[\\r\\n\\t \\u00a0]|&nbsp;)';
const END = '(?=\\n?$)';

const APOS_PATTERNS: ReadonlyArray<readonly [RegExp, string]> = [
  // '99' and '99" are ambiguous: an abbreviated year at the end of a quotation.
  [new RegExp(`'(\\d\\d)'(?=\\n?$|[.,:;!?)}\\-\\]]|&gt;|${SP})`, 'g'), `${APOS_FLAG}$1${CLOSING_SINGLE_QUOTE}`],
  [new RegExp(`'(\\d\\d)"(?=\\n?$|[.,:;!?)}\\-\\]]|&gt;|${SP})`, 'g'), `${APOS_FLAG}$1${CLOSING_QUOTE}`],
  // '99 '99s '99's (apostrophe), but never '9 or '99% or '999 or '99.0.
  [/'(?=\d\d(?:\n?$|(?![%\d]|[.,]\d)))/g, APOS_FLAG],
  // Quoted numbers like '0.42'.
  [new RegExp(`'(?<=(?:^|${SP})')(\\d[.,\\d]*)'`, 'g'), `${OPEN_SQ_FLAG}$1${CLOSING_SINGLE_QUOTE}`],
  // Single quote at the start, or after (, {, <, [, ", -, or spaces.
  [new RegExp(`'(?<=(?:^|[([{"\\-]|&lt;|${SP})')`, 'g'), OPEN_SQ_FLAG],
  // Apostrophe in a word: no spaces, double apostrophes or other punctuation around.
  [new RegExp(`'(?<!${SP}')(?!\\n?$|[.,:;!?"'(){}[\\]\\-]|&[lg]t;|${SP})`, 'g'), APOS_FLAG],
];

const QUOTE_PATTERNS: ReadonlyArray<readonly [RegExp, string]> = [
  // Quoted numbers like "42".
  [new RegExp(`"(?<=(?:^|${SP})")(\\d[.,\\d]*)"`, 'g'), `${OPEN_Q_FLAG}$1${CLOSING_QUOTE}`],
  // Double quote at the start, or after (, {, <, [, -, or spaces, and not before spaces.
  [new RegExp(`"(?<=(?:^|[([{\\-]|&lt;|${SP})")(?!${SP})`, 'g'), OPEN_Q_FLAG],
];

const DASH_PATTERNS: ReadonlyArray<readonly [RegExp, string]> = [
  [/---/g, EM_DASH],
  [new RegExp(`--(?<=(?:^|${SP})--)(?=\\n?$|${SP})`, 'g'), EM_DASH],
  [/--(?<!xn--)/g, EN_DASH],
  [new RegExp(`-(?<=(?:^|${SP})-)(?=\\n?$|${SP})`, 'g'), EN_DASH],
];

const AMP_PATTERN = /&(?!#(?:\d+|x[a-f0-9]+);|[a-z1-4]{1,8};)/gi;

function applyAll(text: string, patterns: ReadonlyArray<readonly [RegExp, string]>): string {
  let out = text;
  for (const [pattern, replacement] of patterns) out = out.replace(pattern, replacement);
  return out;
}

/** `&` -> `&#038;` unless it already looks like a character reference. */
export function encodeLoneAmpersands(text: string): string {
  return text.includes('&') ? text.replace(AMP_PATTERN, '&#038;') : text;
}

interface PrimePatterns {
  quote: RegExp;
  prime: RegExp;
}

const PRIMES: Record<string, PrimePatterns> = {
  "'": { quote: new RegExp(`'(?=${END}|[.,:;!?)}\\-\\]]|&gt;|${SP})`, 'g'), prime: /'(?<=\d')/g },
  '"': { quote: new RegExp(`"(?=${END}|[.,:;!?)}\\-\\]]|&gt;|${SP})`, 'g'), prime: /"(?<=\d")/g },
};
const FLAG_AFTER_DIGIT = new RegExp(`(?<=\\d)${PRIME_FLAG}`, 'g');
const FLAG_NO_DIGIT = new RegExp(`(?<!\\d)${PRIME_FLAG}`, 'g');

function countMatches(text: string, pattern: RegExp): number {
  pattern.lastIndex = 0;
  let n = 0;
  while (pattern.exec(text) !== null) n++;
  pattern.lastIndex = 0;
  return n;
}

/**
 * wptexturize_primes(): decides whether each remaining quote character closes a quotation or is a
 * prime (9' or 9"), sentence by sentence (a sentence starts at an opening quote).
 */
function texturizePrimes(haystack: string, needle: "'" | '"', prime: string, openQuote: string, closeQuote: string): string {
  const { quote, prime: primePattern } = PRIMES[needle]!;
  const sentences = haystack.split(openQuote);
  for (let key = 0; key < sentences.length; key++) {
    let sentence = sentences[key]!;
    if (!sentence.includes(needle)) continue;
    if (key !== 0 && !sentence.includes(closeQuote)) {
      const count = countMatches(sentence, quote);
      sentence = sentence.replace(quote, PRIME_FLAG);
      if (count > 1) {
        // Several closing-quote candidates: "Vulcan logic".
        const count2 = countMatches(sentence, FLAG_NO_DIGIT);
        sentence = sentence.replace(FLAG_NO_DIGIT, closeQuote);
        if (count2 === 0) {
          const withPeriod = `${PRIME_FLAG}.`;
          const pos = sentence.includes(withPeriod) ? sentence.lastIndexOf(withPeriod) : sentence.lastIndexOf(PRIME_FLAG);
          sentence = sentence.slice(0, pos) + closeQuote + sentence.slice(pos + PRIME_FLAG.length);
        }
        sentence = sentence.replace(primePattern, prime);
        sentence = sentence.replace(FLAG_AFTER_DIGIT, prime);
        sentence = replaceAll(sentence, PRIME_FLAG, closeQuote);
      } else if (count === 1) {
        sentence = replaceAll(sentence, PRIME_FLAG, closeQuote);
        sentence = sentence.replace(primePattern, prime);
      } else {
        sentence = sentence.replace(primePattern, prime);
      }
    } else {
      sentence = sentence.replace(primePattern, prime);
      sentence = sentence.replace(quote, closeQuote);
    }
    if (needle === '"' && sentence.includes('"')) sentence = replaceAll(sentence, '"', closeQuote);
    sentences[key] = sentence;
  }
  return sentences.join(openQuote);
}

const isTimesClass = (ch: string | undefined) => isDigit(ch) || ch === '.' || ch === ',';

/** `\b` between positions k-1 and k (PCRE, no Unicode). */
function isBoundary(text: string, k: number): boolean {
  return isWordChar(text[k - 1]) !== isWordChar(text[k]);
}

/**
 * 9x9 -> 9&#215;9, but never 0x9999:
 * `preg_replace( '/\b(\d(?(?<=0)[\d\.,]+|[\d\.,]*))x(\d[\d\.,]*)\b/', '$1&#215;$2' )`, as a
 * forward scan (the pattern itself would backtrack quadratically on long runs of digits and dots).
 */
function texturizeTimes(text: string): string {
  if (!/\dx\d/.test(text)) return text;
  let out = '';
  let copied = 0;
  let pos = 0;
  for (;;) {
    const x = text.indexOf('x', pos);
    if (x === -1) break;
    let runStart = x;
    while (runStart > pos && isTimesClass(text[runStart - 1])) runStart--;
    let start = -1;
    for (let p = runStart; p < x; p++) {
      if (isDigit(text[p]) && !isWordChar(text[p - 1]) && (text[p] !== '0' || x - p >= 2)) {
        start = p;
        break;
      }
    }
    if (start === -1 || !isDigit(text[x + 1])) {
      pos = x + 1;
      continue;
    }
    let end = x + 2;
    while (end < text.length && isTimesClass(text[end])) end++;
    while (end >= x + 2 && !isBoundary(text, end)) end--;
    if (end < x + 2) {
      pos = x + 1;
      continue;
    }
    out += `${text.slice(copied, x)}&#215;${text.slice(x + 1, end)}`;
    copied = pos = end;
  }
  return copied === 0 ? text : out + text.slice(copied);
}

/** Whether any of the static replacements can apply. */
const STATIC_TEST = /\.\.\.|``|''| \(tm\)|'(?:tain't|twere|twas|tis|twill|til|bout|nuff|round|cause|em)/;

/** Texturizes one run of plain text (no tags in it). */
function texturizeText(input: string): string {
  let curl = input;
  if (STATIC_TEST.test(curl)) for (const [from, to] of STATIC_PAIRS) curl = replaceAll(curl, from, to);
  if (curl.includes("'")) {
    curl = applyAll(curl, APOS_PATTERNS);
    curl = texturizePrimes(curl, "'", PRIME, OPEN_SQ_FLAG, CLOSING_SINGLE_QUOTE);
    curl = replaceAll(curl, APOS_FLAG, APOS);
    curl = replaceAll(curl, OPEN_SQ_FLAG, OPENING_SINGLE_QUOTE);
  }
  if (curl.includes('"')) {
    curl = applyAll(curl, QUOTE_PATTERNS);
    curl = texturizePrimes(curl, '"', DOUBLE_PRIME, OPEN_Q_FLAG, CLOSING_QUOTE);
    curl = replaceAll(curl, OPEN_Q_FLAG, OPENING_QUOTE);
  }
  if (curl.includes('-')) curl = applyAll(curl, DASH_PATTERNS);
  curl = texturizeTimes(curl);
  return encodeLoneAmpersands(curl);
}

// --- splitting into text, tags, comments and shortcodes ---------------------------------------

/**
 * The shortcode names in the text: `\[/?([^<>&/\[\]\x00-\x20=]++)` (wptexturize) or, without
 * closing tags, `\[([^<>&/\[\]\x00-\x20=]++)` (do_shortcode), intersected with `names`.
 */
export function shortcodeNamesIn(text: string, names: readonly string[], withClosing = true): string[] {
  if (!text.includes('[')) return [];
  const found = new Set<string>();
  let i = text.indexOf('[');
  while (i !== -1) {
    let start = i + 1;
    if (withClosing && text[start] === '/') start++;
    let end = start;
    while (end < text.length && !isNameStop(text.charCodeAt(end))) end++;
    if (end > start) found.add(text.slice(start, end));
    i = text.indexOf('[', i + 1);
  }
  return names.filter((name) => found.has(name));
}

function isNameStop(c: number): boolean {
  // < > & / [ ] = and \x00-\x20
  return c <= 0x20 || c === 60 || c === 62 || c === 38 || c === 47 || c === 91 || c === 93 || c === 61;
}

/**
 * _get_wptexturize_shortcode_regex() at `at` (a `[`): the end of the shortcode tag, or -1.
 * `\[[\/\[]?(?:names)(?=[\s\]\/])(?:[^\[\]<>]+|<[^\[\]>]*>)*+\]\]?`
 */
function texturizeShortcodeEnd(text: string, at: number, names: readonly string[]): number {
  let k = at + 1;
  if (text[k] === '/' || text[k] === '[') k++;
  const name = names.find((n) => text.startsWith(n, k) && (isPcreSpace(text[k + n.length]) || text[k + n.length] === ']' || text[k + n.length] === '/'));
  if (name === undefined) return -1;
  k += name.length;
  for (;;) {
    const ch = text[k];
    if (ch === undefined || ch === '[' || ch === ']' || ch === '>') break;
    if (ch !== '<') {
      k++;
      continue;
    }
    let m = k + 1;
    while (m < text.length && text[m] !== '[' && text[m] !== ']' && text[m] !== '>') m++;
    if (text[m] !== '>') break;
    k = m + 1;
  }
  if (text[k] !== ']') return -1;
  k++;
  if (text[k] === ']') k++;
  return k;
}

/** The end of the HTML element or comment that starts at `at` (a `<`). */
function htmlDelimiterEnd(text: string, at: number): number {
  if (text.startsWith('!--', at + 1)) {
    const close = text.indexOf('-->', at + 2);
    return close === -1 ? text.length : close + 3;
  }
  const gt = text.indexOf('>', at + 1);
  return gt === -1 ? text.length : gt + 1;
}

function pushPop(piece: string, stack: string[], disabled: readonly string[]): void {
  let opening: boolean;
  let offset: number;
  if (piece.length > 1 && piece[1] !== '/') {
    opening = true;
    offset = 1;
  } else if (stack.length === 0) {
    return;
  } else {
    opening = false;
    offset = 2;
  }
  const space = piece.indexOf(' ');
  const tag = space === -1 ? piece.slice(offset, Math.max(offset, piece.length - 1)) : piece.slice(offset, Math.max(offset, space));
  if (!disabled.includes(tag)) return;
  if (opening) stack.push(tag);
  else if (stack[stack.length - 1] === tag) stack.pop();
}

/**
 * wptexturize( $text ) with `shortcodes` as the registered shortcode names (their tags are left
 * alone, like HTML tags).
 */
export function wptexturize(text: string, shortcodes: readonly string[] = []): string {
  if (text === '' || text === '0') return text;
  const names = shortcodeNamesIn(text, shortcodes);
  const tagsStack: string[] = [];
  const shortcodeStack: string[] = [];
  const out: string[] = [];
  let textStart = 0;
  let i = 0;
  const flushText = (end: number) => {
    if (end <= textStart) return;
    const piece = text.slice(textStart, end);
    if (phpTrim(piece) === '' || tagsStack.length !== 0 || shortcodeStack.length !== 0) out.push(piece);
    else out.push(texturizeText(piece));
  };
  const ltFinder = new ForwardFinder(text, '<');
  const sqFinder = new ForwardFinder(text, '[');
  while (i < text.length) {
    const lt = ltFinder.next(i);
    const sq = names.length ? sqFinder.next(i) : -1;
    if (lt === -1 && sq === -1) break;
    if (lt !== -1 && (sq === -1 || lt < sq)) {
      const end = htmlDelimiterEnd(text, lt);
      flushText(lt);
      let piece = text.slice(lt, end);
      if (!piece.startsWith('<!--')) {
        piece = encodeLoneAmpersands(piece);
        pushPop(piece, tagsStack, NO_TEXTURIZE_TAGS);
      }
      out.push(piece);
      textStart = i = end;
      continue;
    }
    const end = texturizeShortcodeEnd(text, sq, names);
    if (end === -1) {
      i = sq + 1;
      continue;
    }
    flushText(sq);
    const piece = text.slice(sq, end);
    if (!piece.startsWith('[[') && !piece.endsWith(']]')) pushPop(piece, shortcodeStack, NO_TEXTURIZE_SHORTCODES);
    out.push(piece);
    textStart = i = end;
  }
  flushText(text.length);
  return out.join('');
}
