// WordPress's kses HTML filter (the behaviour of WordPress 6.8), written for this service.
//
// What authors and contributors (no `unfiltered_html`) save is filtered the way WordPress filters
// it, so a TEC client reads back exactly what it would read from WordPress:
//   - ksesPost(html)            = wp_kses( html, 'post' )  (wp_filter_post_kses: content, excerpt)
//   - ksesTitle(html)           = wp_kses( html, 'title_save_pre' )  ($allowedtags)
//   - ksesTermDescription(html) = wp_kses( html, 'pre_term_description' )  ($allowedtags, and
//                                 WordPress 6.8 also lets `<a>` keep `rel` and `target` there)
//
// A wp_kses() call is: drop C0 controls -> normalise entities -> the two `pre_kses` filters core
// registers (lone `<` escaping, block-comment attribute filtering) -> split into tags/comments
// and rebuild each one. Every step below mirrors WordPress's observable behaviour, quirks
// included (e.g. `/page?a=b:c` loses `/page?a=b:`), because clients compare against WordPress.
//
// PHP's PCRE works on bytes and its `\s`, `trim()`, `strtolower()` and `$` differ from
// JavaScript's, so the PHP flavours are spelled out (isPcreSpace, phpTrim, asciiLower,
// isPcreEnd). No regular expression here can backtrack catastrophically: anything that could
// scan the same text repeatedly is a hand-written scanner, and searches that recur move forward
// only (ForwardFinder), so the filter is linear in practice on hostile input.
//
// The input is the unslashed string (what the REST API hands to WordPress). Nothing is trimmed.

import { KSES_ENTITIES, keptReferenceLength } from './entities.js';

/** Options for ksesPost. */
export interface KsesOptions {
  /**
   * The site's uploads URL (wp_upload_dir()['url']). WordPress keeps
   * `<object type="application/pdf" data="…">` only for PDFs on that host (and port); without
   * it every `<object>` loses its attributes, as it would on a site whose uploads are elsewhere.
   */
  uploadsUrl?: string;
}

/** wp_kses( html, 'post' ): what WordPress stores for post content and excerpts. */
export function ksesPost(html: string, options: KsesOptions = {}): string {
  return run(html, postContext(options));
}

/** wp_kses( html, 'title_save_pre' ): titles of users without unfiltered_html ($allowedtags). */
export function ksesTitle(html: string): string {
  return run(html, TITLE_CONTEXT);
}

/**
 * wp_kses( html, 'pre_term_description' ): term descriptions, filtered for every user. The same
 * as ksesTitle except that `<a>` may also keep `rel` and `target` (WordPress 6.8).
 */
export function ksesTermDescription(html: string): string {
  return run(html, TERM_CONTEXT);
}

// ---------------------------------------------------------------------------------------------
// Allowed elements, attributes, entities and protocols.

/** How one attribute is checked: `true` allows any value. */
type AttrRule =
  | true
  | {
      valueless?: 'y' | 'n';
      required?: boolean;
      values?: readonly string[];
      valueCallback?: (value: string, ctx: Ctx) => boolean;
    };

/** Element name -> allowed attributes; an empty map means "no attributes at all". */
type TagList = ReadonlyMap<string, ReadonlyMap<string, AttrRule>>;

interface Ctx {
  readonly tags: TagList;
  /** `http://host[:port]/` prefixes a PDF `<object data>` must start with. */
  readonly pdfPrefixes: readonly string[];
}

const GLOBAL_ATTRIBUTES = [
  'aria-controls', 'aria-current', 'aria-describedby', 'aria-details', 'aria-expanded',
  'aria-hidden', 'aria-label', 'aria-labelledby', 'aria-live', 'class', 'data-*', 'dir',
  'hidden', 'id', 'lang', 'style', 'title', 'role', 'xml:lang',
];

const ALIGN = ['align'];
const CELL = ['abbr', 'align', 'axis', 'bgcolor', 'char', 'charoff', 'colspan', 'headers',
  'height', 'nowrap', 'rowspan', 'scope', 'valign', 'width'];
const COLUMN = ['align', 'char', 'charoff', 'span', 'valign', 'width'];
const SECTION = ['align', 'char', 'charoff', 'valign'];

/** $allowedposttags, before the global attributes are merged in. */
const POST_TAG_ATTRIBUTES: Record<string, readonly string[]> = {
  address: [], a: ['href', 'rel', 'rev', 'name', 'target', 'download'], abbr: [], acronym: [],
  area: ['alt', 'coords', 'href', 'nohref', 'shape', 'target'], article: ALIGN, aside: ALIGN,
  audio: ['autoplay', 'controls', 'loop', 'muted', 'preload', 'src'], b: [], bdo: [], big: [],
  blockquote: ['cite'], br: [], button: ['disabled', 'name', 'type', 'value'], caption: ALIGN,
  cite: [], code: [], col: COLUMN, colgroup: COLUMN, del: ['datetime'], dd: [], dfn: [],
  details: ['align', 'open'], div: ALIGN, dl: [], dt: [], em: [], fieldset: [], figure: ALIGN,
  figcaption: ALIGN, font: ['color', 'face', 'size'], footer: ALIGN, h1: ALIGN, h2: ALIGN,
  h3: ALIGN, h4: ALIGN, h5: ALIGN, h6: ALIGN, header: ALIGN, hgroup: ALIGN,
  hr: ['align', 'noshade', 'size', 'width'], i: [],
  img: ['alt', 'align', 'border', 'height', 'hspace', 'loading', 'longdesc', 'vspace', 'src',
    'usemap', 'width'],
  ins: ['datetime', 'cite'], kbd: [], label: ['for'], legend: ALIGN, li: ['align', 'value'],
  main: ALIGN, map: ['name'], mark: [], menu: ['type'], nav: ALIGN, object: ['data', 'type'],
  p: ALIGN, pre: ['width'], q: ['cite'], rb: [], rp: [], rt: [], rtc: [], ruby: [], s: [],
  samp: [], span: ALIGN, section: ALIGN, small: [], strike: [], strong: [], sub: [],
  summary: ALIGN, sup: [],
  table: ['align', 'bgcolor', 'border', 'cellpadding', 'cellspacing', 'rules', 'summary', 'width'],
  tbody: SECTION, td: CELL, textarea: ['cols', 'rows', 'disabled', 'name', 'readonly'],
  tfoot: SECTION, th: CELL, thead: SECTION, title: [],
  tr: ['align', 'bgcolor', 'char', 'charoff', 'valign'],
  track: ['default', 'kind', 'label', 'src', 'srclang'], tt: [], u: [], ul: ['type'],
  ol: ['start', 'type', 'reversed'], var: [],
  video: ['autoplay', 'controls', 'height', 'loop', 'muted', 'playsinline', 'poster', 'preload',
    'src', 'width'],
};

/** Attributes of $allowedposttags that carry checks instead of `true`. */
const POST_ATTRIBUTE_RULES: Record<string, Record<string, AttrRule>> = {
  a: { download: { valueless: 'y' } },
  object: {
    data: { required: true, valueCallback: allowPdfObject },
    type: { required: true, values: ['application/pdf'] },
  },
};

/** $allowedtags: what titles (and, with two more `<a>` attributes, term descriptions) keep. */
const TITLE_TAG_ATTRIBUTES: Record<string, readonly string[]> = {
  a: ['href', 'title'], abbr: ['title'], acronym: ['title'], b: [], blockquote: ['cite'],
  cite: [], code: [], del: ['datetime'], em: [], i: [], q: ['cite'], s: [], strike: [],
  strong: [],
};

function buildTags(
  attributes: Record<string, readonly string[]>,
  rules: Record<string, Record<string, AttrRule>>,
  globals: readonly string[],
): TagList {
  const tags = new Map<string, Map<string, AttrRule>>();
  for (const [tag, names] of Object.entries(attributes)) {
    const attrs = new Map<string, AttrRule>();
    for (const name of names) attrs.set(name, rules[tag]?.[name] ?? true);
    for (const name of globals) attrs.set(name, true);
    tags.set(tag, attrs);
  }
  return tags;
}

const POST_TAGS = buildTags(POST_TAG_ATTRIBUTES, POST_ATTRIBUTE_RULES, GLOBAL_ATTRIBUTES);
const TITLE_TAGS = buildTags(TITLE_TAG_ATTRIBUTES, {}, []);
const TERM_TAGS = buildTags({ ...TITLE_TAG_ATTRIBUTES, a: ['href', 'title', 'rel', 'target'] }, {}, []);

const TITLE_CONTEXT: Ctx = { tags: TITLE_TAGS, pdfPrefixes: [] };
const TERM_CONTEXT: Ctx = { tags: TERM_TAGS, pdfPrefixes: [] };
const DEFAULT_POST_CONTEXT: Ctx = { tags: POST_TAGS, pdfPrefixes: [] };

function postContext(options: KsesOptions): Ctx {
  if (typeof options?.uploadsUrl !== 'string') return DEFAULT_POST_CONTEXT;
  // wp_parse_url() host and port of the uploads URL.
  const match = /^[A-Za-z][A-Za-z0-9+.-]*:\/\/(?:[^/?#@]*@)?([^/?#:]*)(?::(\d+))?/.exec(options.uploadsUrl);
  const host = match?.[1] ?? '';
  const port = match?.[2] !== undefined ? `:${match[2]}` : '';
  return { tags: POST_TAGS, pdfPrefixes: [`http://${host}${port}/`, `https://${host}${port}/`] };
}

/** _wp_kses_allow_pdf_objects: a .pdf on the uploads host, without query or fragment. */
function allowPdfObject(url: string, ctx: Ctx): boolean {
  if (url.includes('?') || url.includes('#') || !url.endsWith('.pdf')) return false;
  return ctx.pdfPrefixes.some((prefix) => url.startsWith(prefix));
}

/** wp_allowed_protocols(). Not in it: javascript, vbscript, data, file, … */
const ALLOWED_PROTOCOLS = new Set([
  'http', 'https', 'ftp', 'ftps', 'mailto', 'news', 'irc', 'irc6', 'ircs', 'gopher', 'nntp',
  'feed', 'telnet', 'mms', 'rtsp', 'sms', 'svn', 'tel', 'fax', 'xmpp', 'webcal', 'urn',
]);

/** wp_kses_uri_attributes(): values that are run through the protocol check. */
const URI_ATTRIBUTES = new Set([
  'action', 'archive', 'background', 'cite', 'classid', 'codebase', 'data', 'formaction', 'href',
  'icon', 'longdesc', 'manifest', 'poster', 'profile', 'src', 'usemap', 'xmlns',
]);

// KSES_ENTITIES ($allowedentitynames) and the references htmlspecialchars() keeps come from lib/wp/entities.ts.

/** safecss_filter_attr()'s allowed properties (`--*` custom properties are handled apart). */
const SAFE_CSS_PROPERTIES = new Set(`background background-color background-image
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
  container-type`.split(/\s+/));

const CSS_URL_PROPERTIES = new Set(['background', 'background-image', 'cursor', 'filter',
  'list-style', 'list-style-image']);
const CSS_GRADIENT_PROPERTIES = new Set(['background', 'background-image']);
const CSS_FUNCTIONS = ['var', 'calc', 'min', 'max', 'minmax', 'clamp', 'repeat'];
/** url() count × declaration length beyond which a declaration is refused (see isSafeDeclaration). */
const MAX_CSS_URL_WORK = 20_000_000;

// ---------------------------------------------------------------------------------------------
// Entry point and the wp_kses() pipeline.

/** How deep wp_kses() may call itself (comments, block attributes) before we stop recursing. */
const MAX_NESTING = 64;
/** Stops the "kses until nothing changes" loops; WordPress converges in two or three rounds. */
const MAX_ROUNDS = 32;

class NestingTooDeep extends Error {}

function run(html: string, ctx: Ctx): string {
  const text = typeof html === 'string' ? html : String(html ?? '');
  tokenMemo = new Map();
  try {
    return kses(text, ctx, true, 0);
  } catch {
    // Never throw: fall back to text with every markup character escaped (safe and stable).
    return escapeEverything(noNull(text, false));
  } finally {
    tokenMemo = new Map();
  }
}

/**
 * Rebuilt short tokens of the current run: documents repeat the same tags (and hostile ones the
 * same comments) many times, and a token's rebuild depends only on the token and the run.
 */
let tokenMemo = new Map<string, string>();
const MEMO_TOKEN_LENGTH = 256;
const MEMO_ENTRIES = 10_000;

/**
 * One wp_kses() call. `blocks` is false while block attributes are being filtered: WordPress
 * unhooks its block filter for that time, so nested calls skip it.
 */
function kses(content: string, ctx: Ctx, blocks: boolean, depth: number): string {
  if (depth > MAX_NESTING) throw new NestingTooDeep();
  // Without markup, entities or controls every step below leaves the text as it is.
  if (!/[<>&\x00-\x08\x0B\x0C\x0E-\x1F]/.test(content)) return content;
  let text = noNull(content, false);
  text = normalizeEntities(text);
  text = escapeLoneLessThan(text);
  if (blocks) text = filterBlockContent(text, ctx, depth);
  return split(text, ctx, blocks, depth);
}

/** Runs wp_kses() until its output stops changing (how WordPress cleans comment text). */
function ksesUntilStable(content: string, ctx: Ctx, blocks: boolean, depth: number): string {
  let current = content;
  for (let round = 0; round < MAX_ROUNDS; round++) {
    const next = kses(current, ctx, blocks, depth + 1);
    if (next === current) break;
    current = next;
  }
  return current;
}

// ---------------------------------------------------------------------------------------------
// Small PHP-compatible helpers.

/** PCRE's `\s` (no Unicode mode): space, \t, \n, \v, \f, \r. */
function isPcreSpace(ch: string | undefined): boolean {
  return ch === ' ' || ch === '\t' || ch === '\n' || ch === '\v' || ch === '\f' || ch === '\r';
}

function skipPcreSpace(text: string, from: number): number {
  let i = from;
  while (i < text.length && isPcreSpace(text[i])) i++;
  return i;
}

/** PCRE's `$` without /m: the end, or just before a final "\n". */
function isPcreEnd(text: string, at: number): boolean {
  return at === text.length || (at === text.length - 1 && text[at] === '\n');
}

const PHP_TRIM_CHARS = ' \t\n\r\0\v';

/** PHP trim(): no \f, but NUL. */
function phpTrim(text: string): string {
  let start = 0;
  let end = text.length;
  while (start < end && PHP_TRIM_CHARS.includes(text[start]!)) start++;
  while (end > start && PHP_TRIM_CHARS.includes(text[end - 1]!)) end--;
  return text.slice(start, end);
}

/** PHP 8's strtolower(): ASCII letters only. */
function asciiLower(text: string): string {
  return /[A-Z]/.test(text) ? text.replace(/[A-Z]+/g, (run) => run.toLowerCase()) : text;
}

function isAsciiLetter(ch: string | undefined): boolean {
  return ch !== undefined && ((ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z'));
}

function isDigit(ch: string | undefined): boolean {
  return ch !== undefined && ch >= '0' && ch <= '9';
}

function isHexDigit(ch: string | undefined): boolean {
  return isDigit(ch) || (ch !== undefined && ((ch >= 'a' && ch <= 'f') || (ch >= 'A' && ch <= 'F')));
}

/** PHP's empty() for a string: '' and '0'. */
function isEmptyString(text: string): boolean {
  return text === '' || text === '0';
}

/** PHP str_replace() with one search string (an empty search changes nothing). */
function replaceAll(subject: string, search: string, replacement: string): string {
  if (search === '' || !subject.includes(search)) return subject;
  // A function keeps `$` in the replacement literal.
  return replacement.includes('$') ? subject.replaceAll(search, () => replacement) : subject.replaceAll(search, replacement);
}

/** PCRE's `\b` before index `at` (ASCII word characters). */
function isWordChar(ch: string | undefined): boolean {
  return ch !== undefined && (isAsciiLetter(ch) || isDigit(ch) || ch === '_');
}

function hasLoneSurrogate(text: string): boolean {
  return /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/.test(text);
}

const ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#039;' };

function escapeEverything(text: string): string {
  return text.replace(/[&<>"']/g, (ch) => ESCAPES[ch]!);
}

/**
 * Collects output pieces. Joining every few thousand pieces keeps the many short strings of a
 * large input short-lived (a long `+=` chain would keep them all alive until the end).
 */
class Builder {
  /** Small outputs are plain concatenation; past 64 pieces they go to `parts`. */
  private text = '';
  private pieces = 0;
  private parts: string[] | null = null;
  private chunks: string[] | null = null;
  length = 0;

  add(piece: string): void {
    if (piece === '') return;
    this.length += piece.length;
    if (this.parts === null) {
      this.text += piece;
      if (++this.pieces > 64) this.parts = [];
      return;
    }
    this.parts.push(piece);
    if (this.parts.length >= 4096) {
      (this.chunks ??= []).push(this.parts.join(''));
      this.parts = [];
    }
  }

  toString(): string {
    if (this.parts === null) return this.text;
    return this.text + (this.chunks?.join('') ?? '') + this.parts.join('');
  }
}

/**
 * indexOf() for searches whose start only moves forward: the last answer is reused while it is
 * still ahead, so repeated searches over the same stretch of text cost nothing.
 * An optional test rejects occurrences (the search then continues after them).
 */
class ForwardFinder {
  private from = -1;
  private found = -1;

  constructor(
    private readonly text: string,
    private readonly needle: string,
    private readonly accept: (at: number) => boolean = () => true,
  ) {}

  next(position: number): number {
    if (this.from !== -1 && position >= this.from && (this.found === -1 || this.found >= position)) {
      return this.found;
    }
    let at = this.text.indexOf(this.needle, position);
    while (at !== -1 && !this.accept(at)) at = this.text.indexOf(this.needle, at + 1);
    this.from = position;
    this.found = at;
    return at;
  }
}

// ---------------------------------------------------------------------------------------------
// wp_kses_no_null and wp_kses_normalize_entities.

/** wp_kses_no_null: C0 controls except \t \n \r go; optionally also `\0`-style escapes. */
function noNull(text: string, removeSlashZero: boolean): string {
  const cleaned = /[\x00-\x08\x0B\x0C\x0E-\x1F]/.test(text) ? text.replace(/[\x00-\x08\x0B\x0C\x0E-\x1F]+/g, '') : text;
  return removeSlashZero ? removeSlashZeros(cleaned) : cleaned;
}

/** Removes every run of backslashes that is followed by zeros, with the zeros (`/\\+0+/`). */
function removeSlashZeros(text: string): string {
  if (!text.includes('\\')) return text;
  const out = new Builder();
  let copied = 0;
  let i = 0;
  for (;;) {
    const slash = text.indexOf('\\', i);
    if (slash === -1) break;
    let end = slash;
    while (text[end] === '\\') end++;
    if (text[end] === '0') {
      out.add(text.slice(copied, slash));
      while (text[end] === '0') end++;
      copied = end;
    }
    i = end;
  }
  if (copied === 0) return text;
  out.add(text.slice(copied));
  return out.toString();
}

/** valid_unicode(): the code points XML allows. */
function isValidCodePoint(code: number): boolean {
  return code === 0x9 || code === 0xa || code === 0xd || (code >= 0x20 && code <= 0xd7ff)
    || (code >= 0xe000 && code <= 0xfffd) || (code >= 0x10000 && code <= 0x10ffff);
}

/**
 * wp_kses_normalize_entities: every `&` becomes `&amp;`, then allowed named references, valid
 * decimal and valid hexadecimal references are restored, in that order (so `&amp;#39;` turns
 * into `&#039;`, as WordPress 6.8 does). `&#0;` and `&#x0;` vanish (PHP's empty('0')).
 */
function normalizeEntities(text: string): string {
  if (!text.includes('&')) return text;
  let out = replaceAll(text, '&', '&amp;');
  out = rewriteAfter(out, '&amp;', restoreNamedEntity);
  out = rewriteAfter(out, '&amp;#', restoreDecimalEntity);
  out = rewriteAfter(out, '&amp;#', restoreHexEntity);
  return out;
}

/**
 * Calls `rewrite` at every occurrence of `prefix` (left to right, not overlapping). It returns
 * [replacement, index after the match] or null to leave the text alone.
 */
function rewriteAfter(
  text: string,
  prefix: string,
  rewrite: (text: string, after: number) => [string, number] | null,
): string {
  const out = new Builder();
  let changed = false;
  let copied = 0;
  let i = 0;
  for (;;) {
    const at = text.indexOf(prefix, i);
    if (at === -1) break;
    const result = rewrite(text, at + prefix.length);
    if (result === null) {
      i = at + 1;
      continue;
    }
    out.add(text.slice(copied, at));
    out.add(result[0]);
    changed = true;
    copied = i = result[1];
  }
  if (!changed) return text;
  out.add(text.slice(copied));
  return out.toString();
}

/** `&amp;NAME;` with 2-8 letters and 0-2 digits. */
function restoreNamedEntity(text: string, start: number): [string, number] | null {
  let i = start;
  while (isAsciiLetter(text[i])) i++;
  const letters = i - start;
  if (letters < 2 || letters > 8) return null;
  const digitsStart = i;
  while (isDigit(text[i])) i++;
  if (i - digitsStart > 2 || text[i] !== ';') return null;
  const name = text.slice(start, i);
  return [KSES_ENTITIES.has(name) ? `&${name};` : `&amp;${name};`, i + 1];
}

/** The digits of `0*[0-9]{1,max}` followed by `;`, or null. */
function entityDigits(text: string, start: number, max: number, isDigitChar: (ch: string | undefined) => boolean): string | null {
  let i = start;
  while (isDigitChar(text[i])) i++;
  const digits = text.slice(start, i);
  if (digits === '' || text[i] !== ';') return null;
  let zeros = 0;
  while (digits[zeros] === '0') zeros++;
  // `0*` may take leading zeros so that what is left fits `{1,max}`.
  if (Math.max(0, digits.length - max) > Math.min(zeros, digits.length - 1)) return null;
  return digits;
}

function stripLeadingZeros(digits: string): string {
  return digits.replace(/^0+/, '');
}

/** `&amp;#DDD;` -> `&#DDD;` (zero-padded to three digits) when it is a valid code point. */
function restoreDecimalEntity(text: string, start: number): [string, number] | null {
  const digits = entityDigits(text, start, 7, isDigit);
  if (digits === null) return null;
  const end = start + digits.length + 1;
  if (digits === '0') return ['', end];
  if (!isValidCodePoint(Number.parseInt(digits, 10))) return [`&amp;#${digits};`, end];
  return [`&#${stripLeadingZeros(digits).padStart(3, '0')};`, end];
}

/** `&amp;#xHHH;` -> `&#xHHH;` (leading zeros dropped) when it is a valid code point. */
function restoreHexEntity(text: string, start: number): [string, number] | null {
  if (text[start] !== 'x' && text[start] !== 'X') return null;
  const digits = entityDigits(text, start + 1, 6, isHexDigit);
  if (digits === null) return null;
  const end = start + 1 + digits.length + 1;
  if (digits === '0') return ['', end];
  if (!isValidCodePoint(Number.parseInt(digits, 16))) return [`&amp;#x${digits};`, end];
  return [`&#x${stripLeadingZeros(digits)};`, end];
}

// ---------------------------------------------------------------------------------------------
// wp_pre_kses_less_than: a `<` that is not closed by `>` before the next `<` is escaped.

function escapeLoneLessThan(text: string): string {
  if (!text.includes('<')) return text;
  const lt = new ForwardFinder(text, '<');
  const gt = new ForwardFinder(text, '>');
  const out = new Builder();
  let copied = 0;
  let i = 0;
  for (;;) {
    const start = lt.next(i);
    if (start === -1) break;
    const nextLt = lt.next(start + 1);
    const nextGt = gt.next(start + 1);
    if (nextGt !== -1 && (nextLt === -1 || nextGt < nextLt)) {
      i = nextGt + 1;
      continue;
    }
    // Runs to the next `<` or to the end (`$` also matches before a final newline).
    let end = nextLt;
    if (end === -1) end = text.endsWith('\n') && text.length - 1 > start ? text.length - 1 : text.length;
    out.add(text.slice(copied, start));
    out.add(escHtml(text.slice(start, end)));
    copied = i = end;
  }
  if (copied === 0) return text;
  out.add(text.slice(copied));
  return out.toString();
}

/** esc_html(): '' for invalid UTF-8, else htmlspecialchars( ENT_QUOTES ) without double encoding. */
function escHtml(text: string): string {
  // The usual case, a `<` and plain text (a segment never holds another `<` or a `>`).
  if (!/[&"'\uD800-\uDFFF]/.test(text)) return `&lt;${text.slice(1)}`;
  if (hasLoneSurrogate(text)) return '';
  if (!/[&<>"']/.test(text)) return text;
  const normalized = normalizeEntities(text);
  return normalized.replace(/[&<>"']/g, (ch, at: number) => {
    // A kept reference's other characters are never special, so leaving its `&` is enough.
    if (ch === '&') return keptReferenceLength(normalized, at) > 0 ? '&' : '&amp;';
    return ESCAPES[ch]!;
  });
}


// ---------------------------------------------------------------------------------------------
// wp_kses_split: find tags, comments and stray `>`, and rebuild each one.

function split(text: string, ctx: Ctx, blocks: boolean, depth: number): string {
  if (!text.includes('<') && !text.includes('>')) return text;
  const finders = {
    lt: new ForwardFinder(text, '<'),
    gt: new ForwardFinder(text, '>'),
    newline: new ForwardFinder(text, '\n'),
    commentEnd: new ForwardFinder(text, '-->'),
  };
  const out = new Builder();
  let copied = 0;
  let i = 0;
  while (i < text.length) {
    const lt = finders.lt.next(i);
    const gt = finders.gt.next(i);
    if (lt === -1 && gt === -1) break;
    if (lt === -1 || (gt !== -1 && gt < lt)) {
      out.add(text.slice(copied, gt));
      out.add('&gt;');
      copied = i = gt + 1;
      continue;
    }
    const end = tokenEnd(text, lt, finders);
    const token = text.slice(lt, end);
    const rebuilt = rebuildTokenMemo(token, ctx, blocks, depth);
    // Unchanged tokens are copied later in one piece (fewer small strings on large input).
    if (rebuilt !== token) {
      out.add(text.slice(copied, lt));
      out.add(rebuilt);
      copied = end;
    }
    i = end;
  }
  if (copied === 0) return text;
  out.add(text.slice(copied));
  return out.toString();
}

/**
 * Where the token starting with `<` at `start` ends, trying WordPress's alternatives in order:
 * `<!--…-->` (`.` stops at newlines; an unclosed one runs to the end), `</` + non-letter … `>`,
 * `<!` … `>`, and finally `<` … `>` or to the end.
 */
function tokenEnd(
  text: string,
  start: number,
  finders: { gt: ForwardFinder; newline: ForwardFinder; commentEnd: ForwardFinder },
): number {
  const length = text.length;
  if (text.startsWith('<!--', start)) {
    const close = finders.commentEnd.next(start + 4);
    const newline = finders.newline.next(start + 4);
    if (close !== -1 && (newline === -1 || newline > close)) return close + 3;
    if (newline === -1) return length;
    if (newline === length - 1) return length - 1;
  }
  const firstGt = finders.gt.next(start + 1);
  const gtFrom = (from: number): number => {
    let at = firstGt;
    while (at !== -1 && at < from) at = finders.gt.next(at + 1);
    return at;
  };
  if (text[start + 1] === '/' && start + 2 < length && !isAsciiLetter(text[start + 2])) {
    const close = gtFrom(start + 3);
    if (close !== -1) return close + 1;
  }
  if (text[start + 1] === '!') {
    const close = gtFrom(start + 2);
    if (close !== -1) return close + 1;
  }
  return firstGt === -1 ? length : firstGt + 1;
}

/** rebuildToken, remembered for short tokens. */
function rebuildTokenMemo(token: string, ctx: Ctx, blocks: boolean, depth: number): string {
  if (token.length > MEMO_TOKEN_LENGTH) return rebuildToken(token, ctx, blocks, depth);
  const key = (blocks ? '1' : '0') + token;
  let rebuilt = tokenMemo.get(key);
  if (rebuilt === undefined) {
    rebuilt = rebuildToken(token, ctx, blocks, depth);
    if (tokenMemo.size >= MEMO_ENTRIES) tokenMemo.clear();
    tokenMemo.set(key, rebuilt);
  }
  return rebuilt;
}

/** wp_kses_split2: one `<…>` token (or a lone `>`) rebuilt as WordPress would. */
function rebuildToken(token: string, ctx: Ctx, blocks: boolean, depth: number): string {
  const content = token.includes('\\"') ? token.replaceAll('\\"', '"') : token;
  if (!content.startsWith('<')) return '&gt;';
  if (isBogusComment(content)) {
    // `</…>` with a non-letter, or `<!x…>`: kept as a comment-like token, its text cleaned.
    const inner = ksesUntilStable(content.slice(2, -1), ctx, blocks, depth);
    return `<${content[1]}${inner}>`;
  }
  if (content.startsWith('<!--')) return rebuildComment(content, ctx, blocks, depth);
  return rebuildTag(content, ctx);
}

/** `^(?:</[^a-zA-Z][^>]*>|<![a-z][^>]*>)$` */
function isBogusComment(token: string): boolean {
  const last = token.length - 1;
  if (last < 3 || token[last] !== '>' || token.indexOf('>', 3) !== last) return false;
  if (token[1] === '/') return !isAsciiLetter(token[2]);
  return token[1] === '!' && token[2]! >= 'a' && token[2]! <= 'z';
}

/** An HTML comment: its text is cleaned until stable, and dashes cannot close it early. */
function rebuildComment(token: string, ctx: Ctx, blocks: boolean, depth: number): string {
  // str_replace( array( '<!--', '-->' ), '' ), with a shortcut for the usual single pair.
  let stripped = token.indexOf('<!--', 1) === -1 ? token.slice(4) : replaceAll(token, '<!--', '');
  const close = stripped.indexOf('-->');
  if (close !== -1) stripped = close === stripped.length - 3 ? stripped.slice(0, -3) : replaceAll(stripped, '-->', '');
  let content = ksesUntilStable(stripped, ctx, blocks, depth);
  if (content === '') return '';
  content = content.replace(/-{2,}/g, '-');
  // Drop a final dash so the comment cannot end in `--->` (PCRE `$` allows a final newline).
  if (content.endsWith('-')) content = content.slice(0, -1);
  else if (content.endsWith('-\n')) content = `${content.slice(0, -2)}\n`;
  return `<!--${content}-->`;
}

/** `^<\s*(/\s*)?([a-zA-Z0-9-]+)([^>]*)>?$` and the element / attribute checks that follow. */
function rebuildTag(token: string, ctx: Ctx): string {
  let i = skipPcreSpace(token, 1);
  const closing = token[i] === '/';
  if (closing) i = skipPcreSpace(token, i + 1);
  const nameStart = i;
  while (i < token.length && (isAsciiLetter(token[i]) || isDigit(token[i]) || token[i] === '-')) i++;
  if (i === nameStart) return '';
  const element = token.slice(nameStart, i);
  const attrs = token.endsWith('>') ? token.slice(i, -1) : token.slice(i);
  const allowed = ctx.tags.get(asciiLower(element));
  if (allowed === undefined) return '';
  if (closing) return `</${element}>`;
  return rebuildAttributes(element, attrs, allowed, ctx);
}

/** wp_kses_attr: keep only the allowed attributes, rebuilt, with a `/` kept as ` /`. */
function rebuildAttributes(
  element: string,
  attrList: string,
  allowed: ReadonlyMap<string, AttrRule>,
  ctx: Ctx,
): string {
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
    const fits = isPcreSpace(attr[after]) || isPcreEnd(attr, after)
      || (attr[after] === '/' && isPcreEnd(attr, after + 1));
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

// ---------------------------------------------------------------------------------------------
// wp_kses_bad_protocol: strip disallowed URL schemes, however they are spelled.

function badProtocol(value: string): string {
  let content = noNull(value, true);
  if (content.startsWith('https://') || content.startsWith('http://')) return content;
  for (let round = 0; round < 6; round++) {
    const next = badProtocolOnce(content, 1);
    if (next === content) return content;
    content = next;
  }
  return '';
}

function badProtocolOnce(value: string, count: number): string {
  const content = terminateColonReferences(value);
  const colon = findColon(content);
  if (colon === null) return content;
  const scheme = content.slice(0, colon.at);
  if (scheme.includes('/?')) return content;
  let rest = phpTrim(content.slice(colon.at + colon.length));
  const protocol = allowedScheme(scheme);
  if (protocol === 'feed:') {
    if (count > 2) return '';
    rest = badProtocolOnce(rest, count + 1);
    if (isEmptyString(rest)) return rest;
  }
  return protocol + rest;
}

/** `&#0*58` / `&#x0*3a` without their `;` get one (case-insensitive). */
function terminateColonReferences(text: string): string {
  if (!text.includes('&#')) return text;
  return rewriteAfter(text, '&#', (source, start) => {
    const hex = source[start] === 'x' || source[start] === 'X';
    let i = hex ? start + 1 : start;
    while (source[i] === '0') i++;
    const tail = source.slice(i, i + 2).toLowerCase();
    if (tail !== (hex ? '3a' : '58')) return null;
    const next = source[i + 2];
    const blocked = next === ';' || (hex ? isHexDigit(next) : isDigit(next));
    return blocked ? null : [`${source.slice(start - 2, i + 2)};`, i + 2];
  });
}

/** The first `:`, `&#0*58;`, `&#x0*3a;` or `&colon;` (case-insensitive). */
function findColon(text: string): { at: number; length: number } | null {
  for (let i = 0; i < text.length; i++) {
    const ch = text[i];
    if (ch === ':') return { at: i, length: 1 };
    if (ch !== '&') continue;
    if (text.slice(i, i + 7).toLowerCase() === '&colon;') return { at: i, length: 7 };
    if (text[i + 1] !== '#') continue;
    const hex = text[i + 2] === 'x' || text[i + 2] === 'X';
    let j = hex ? i + 3 : i + 2;
    while (text[j] === '0') j++;
    if (text.slice(j, j + 3).toLowerCase() === (hex ? '3a;' : '58;')) return { at: i, length: j + 3 - i };
  }
  return null;
}

/** wp_kses_bad_protocol_once2: decode numeric references, drop spaces, compare lowercased. */
function allowedScheme(raw: string): string {
  let scheme = raw.replace(/&#([0-9]+);/g, (_m, digits: string) => byteChar(digits, 10));
  scheme = scheme.replace(/&#[Xx]([0-9A-Fa-f]+);/g, (_m, digits: string) => byteChar(digits, 16));
  scheme = asciiLower(noNull(scheme.replace(/[ \t\n\v\f\r]+/g, ''), true));
  return ALLOWED_PROTOCOLS.has(scheme) ? `${scheme}:` : '';
}

/** PHP chr() of a decimal or hexadecimal number: the value modulo 256, as one character. */
function byteChar(digits: string, radix: number): string {
  let code = 0;
  for (const digit of digits) code = (code * radix + Number.parseInt(digit, radix)) % 256;
  return String.fromCharCode(code);
}

// ---------------------------------------------------------------------------------------------
// safecss_filter_attr: keep only safe declarations of a style attribute.

function safecssFilterAttr(value: string): string {
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
    const close = name === undefined ? -1 : closing.get(i + name.length) ?? -1;
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

// ---------------------------------------------------------------------------------------------
// wp_pre_kses_block_attributes: block comment attributes (`<!-- wp:name {json} -->`) are
// parsed, their strings (keys too) run through kses, and the blocks are serialised again the
// way WordPress does (which also normalises the delimiters and the JSON).

interface ParsedBlock {
  name: string | null;
  attrs: PhpValue | undefined;
  innerBlocks: ParsedBlock[];
  innerContent: (string | null)[];
}

/** If serialising would balloon (unclosed nested blocks repeat the rest of the text). */
class OutputTooLarge extends Error {}

function filterBlockContent(text: string, ctx: Ctx, depth: number): string {
  if (!text.includes('<!--')) return text;
  let source = text;
  if (source.includes('--->')) source = fixTripleDashComments(source);
  const budget = source.length * 16 + 1_000_000;
  try {
    const blocks = parseBlocks(source);
    const out = new Builder();
    for (const block of blocks) {
      filterBlockTree(block, ctx, depth);
      out.add(serializeBlock(block, budget - out.length));
    }
    return out.toString();
  } catch (error) {
    // WordPress would run out of memory here; leave the text to the tag filter instead.
    if (error instanceof OutputTooLarge) return source;
    throw error;
  }
}

/** `<!--(.*?)--->` becomes `<!--$1-->` with trailing dashes of $1 removed. */
function fixTripleDashComments(text: string): string {
  const open = new ForwardFinder(text, '<!--');
  const close = new ForwardFinder(text, '--->');
  const newline = new ForwardFinder(text, '\n');
  const out = new Builder();
  let i = 0;
  let from = 0;
  for (;;) {
    const start = open.next(from);
    if (start === -1) break;
    const end = close.next(start + 4);
    const nl = newline.next(start + 4);
    if (end === -1 || (nl !== -1 && nl < end)) {
      from = start + 1;
      continue;
    }
    let innerEnd = end;
    while (innerEnd > start + 4 && text[innerEnd - 1] === '-') innerEnd--;
    out.add(text.slice(i, start));
    out.add(`<!--${text.slice(start + 4, innerEnd)}-->`);
    i = from = end + 4;
  }
  out.add(text.slice(i));
  return out.toString();
}

interface BlockToken {
  kind: 'opener' | 'closer' | 'void';
  name: string;
  attrs: PhpValue | undefined;
  start: number;
  length: number;
}

/** WP_Block_Parser: a best-effort parse that never fails. */
function parseBlocks(doc: string): ParsedBlock[] {
  interface Frame { block: ParsedBlock; tokenStart: number; tokenLength: number; prevOffset: number; leading: number | null }
  const output: ParsedBlock[] = [];
  const stack: Frame[] = [];
  const tokens = blockTokenizer(doc);
  let offset = 0;
  const freeform = (html: string): ParsedBlock => ({ name: null, attrs: new PhpArray(), innerBlocks: [], innerContent: [html] });
  const addBlockFromStack = (endOffset: number | null): void => {
    const top = stack.pop()!;
    const html = endOffset === null ? doc.slice(top.prevOffset) : doc.slice(top.prevOffset, endOffset);
    if (!isEmptyString(html)) top.block.innerContent.push(html);
    if (top.leading !== null) output.push(freeform(doc.slice(top.leading, top.tokenStart)));
    output.push(top.block);
  };
  const addInnerBlock = (block: ParsedBlock, tokenStart: number, tokenLength: number, lastOffset: number | null): void => {
    const parent = stack[stack.length - 1]!;
    parent.block.innerBlocks.push(block);
    const html = doc.slice(parent.prevOffset, tokenStart);
    if (!isEmptyString(html)) parent.block.innerContent.push(html);
    parent.block.innerContent.push(null);
    parent.prevOffset = lastOffset ?? tokenStart + tokenLength;
  };
  const addFreeform = (): void => {
    if (doc.length > offset) output.push(freeform(doc.slice(offset)));
  };
  for (;;) {
    const token = tokens(offset);
    if (token === null) {
      if (stack.length === 0) addFreeform();
      while (stack.length > 0) addBlockFromStack(null);
      return output;
    }
    const leading = token.start > offset ? offset : null;
    const end = token.start + token.length;
    const block: ParsedBlock = { name: token.name, attrs: token.attrs, innerBlocks: [], innerContent: [] };
    if (token.kind === 'void') {
      if (stack.length === 0) {
        if (leading !== null) output.push(freeform(doc.slice(leading, token.start)));
        output.push(block);
      } else {
        addInnerBlock(block, token.start, token.length, null);
      }
    } else if (token.kind === 'opener') {
      stack.push({ block, tokenStart: token.start, tokenLength: token.length, prevOffset: end, leading });
    } else if (stack.length === 0) {
      // A closer without an opener: the rest of the document is left as it is.
      addFreeform();
      return output;
    } else if (stack.length === 1) {
      addBlockFromStack(token.start);
    } else {
      const top = stack.pop()!;
      top.block.innerContent.push(doc.slice(top.prevOffset, token.start));
      top.prevOffset = end;
      addInnerBlock(top.block, top.tokenStart, top.tokenLength, end);
    }
    offset = end;
  }
}

/**
 * Finds the next block delimiter at or after an offset:
 * `<!--\s+(/)?wp:(ns/)?name\s+({json}\s+)?(/)?-->`. The JSON ends at the first `}` that is
 * followed by whitespace and `-->` or `/-->`.
 */
function blockTokenizer(doc: string): (from: number) => BlockToken | null {
  const open = new ForwardFinder(doc, '<!--');
  const jsonEnd = new ForwardFinder(doc, '}', (at) => {
    const after = skipPcreSpace(doc, at + 1);
    if (after === at + 1) return false;
    return doc.startsWith('-->', doc[after] === '/' ? after + 1 : after);
  });
  const readName = (at: number): number => {
    if (!(doc[at]! >= 'a' && doc[at]! <= 'z')) return at;
    let end = at + 1;
    while (end < doc.length && (isDigit(doc[end]) || doc[end] === '_' || doc[end] === '-' || (doc[end]! >= 'a' && doc[end]! <= 'z'))) end++;
    return end;
  };
  const matchAt = (start: number): BlockToken | null => {
    let i = skipPcreSpace(doc, start + 4);
    if (i === start + 4) return null;
    const closer = doc[i] === '/';
    if (closer) i++;
    if (!doc.startsWith('wp:', i)) return null;
    i += 3;
    const firstEnd = readName(i);
    if (firstEnd === i) return null;
    let name: string;
    if (doc[firstEnd] === '/') {
      // `namespace/name`; without a namespace the block is a core one.
      const secondEnd = readName(firstEnd + 1);
      if (secondEnd === firstEnd + 1) return null;
      name = doc.slice(i, secondEnd);
      i = secondEnd;
    } else {
      name = `core/${doc.slice(i, firstEnd)}`;
      i = firstEnd;
    }
    const afterName = skipPcreSpace(doc, i);
    if (afterName === i) return null;
    i = afterName;
    let json: string | null = null;
    if (doc[i] === '{') {
      const close = jsonEnd.next(i + 1);
      if (close !== -1) {
        json = doc.slice(i, close + 1);
        i = skipPcreSpace(doc, close + 1);
      }
    }
    const isVoid = doc[i] === '/';
    if (isVoid) i++;
    if (!doc.startsWith('-->', i)) return null;
    const kind = isVoid ? 'void' : closer ? 'closer' : 'opener';
    const attrs = json === null ? new PhpArray() : kind === 'closer' ? undefined : phpJsonDecode(json);
    return { kind, name, attrs, start, length: i + 3 - start };
  };
  return (from) => {
    for (let at = open.next(from); at !== -1; at = open.next(at + 1)) {
      const token = matchAt(at);
      if (token !== null) return token;
    }
    return null;
  };
}

/** filter_block_kses over a whole block tree, without recursion (trees can be very deep). */
function filterBlockTree(root: ParsedBlock, ctx: Ctx, depth: number): void {
  const pending = [root];
  while (pending.length > 0) {
    const block = pending.pop()!;
    block.attrs = filterBlockValue(block.attrs, ctx, block.name === 'core/template-part', depth);
    pending.push(...block.innerBlocks);
  }
}

/**
 * filter_block_kses_value: strings (and string keys) through kses without the block filter;
 * a changed key moves to the end. core/template-part's `tagName` must be an allowed element.
 */
function filterBlockValue(value: PhpValue | undefined, ctx: Ctx, templatePart: boolean, depth: number): PhpValue | undefined {
  if (typeof value === 'string') return kses(value, ctx, false, depth + 1);
  if (!(value instanceof PhpArray)) return value;
  // PHP's foreach walks a copy: later writes do not change the values still to be visited.
  for (const [key, inner] of value.snapshot()) {
    const filteredKey = typeof key === 'string' ? kses(key, ctx, false, depth + 1) : key;
    let filtered = filterBlockValue(inner, ctx, templatePart, depth);
    if (templatePart) filtered = filterTemplatePartTag(filtered, filteredKey, ctx);
    if (filteredKey !== key) value.delete(key);
    value.set(filteredKey, filtered);
  }
  return value;
}

function filterTemplatePartTag(value: PhpValue | undefined, key: PhpKey, ctx: Ctx): PhpValue | undefined {
  if (isPhpEmpty(value) || key !== 'tagName') return value;
  return typeof value === 'string' && ctx.tags.has(value) ? value : '';
}

/** serialize_block, iteratively; throws OutputTooLarge past `budget` characters. */
function serializeBlock(root: ParsedBlock, budget: number): string {
  interface Frame { block: ParsedBlock; chunk: number; child: number; content: string }
  const stack: Frame[] = [{ block: root, chunk: 0, child: 0, content: '' }];
  for (;;) {
    const frame = stack[stack.length - 1]!;
    if (frame.chunk < frame.block.innerContent.length) {
      const chunk = frame.block.innerContent[frame.chunk++];
      if (typeof chunk === 'string') {
        frame.content += chunk;
        if (frame.content.length > budget) throw new OutputTooLarge();
      } else {
        const child = frame.block.innerBlocks[frame.child++];
        if (child !== undefined) stack.push({ block: child, chunk: 0, child: 0, content: '' });
      }
      continue;
    }
    stack.pop();
    const serialized = delimitedBlock(frame.block, frame.content);
    if (stack.length === 0) return serialized;
    const parent = stack[stack.length - 1]!;
    parent.content += serialized;
    if (parent.content.length > budget) throw new OutputTooLarge();
  }
}

/** get_comment_delimited_block_content */
function delimitedBlock(block: ParsedBlock, content: string): string {
  if (block.name === null) return content;
  const name = block.name.startsWith('core/') ? block.name.slice(5) : block.name;
  const attrs = block.attrs instanceof PhpArray ? block.attrs : new PhpArray();
  const serializedAttrs = attrs.size === 0 ? '' : `${serializeBlockAttributes(attrs)} `;
  if (isEmptyString(content)) return `<!-- wp:${name} ${serializedAttrs}/-->`;
  return `<!-- wp:${name} ${serializedAttrs}-->${content}<!-- /wp:${name} -->`;
}

/** serialize_block_attributes: PHP JSON, then `--`, `<`, `>`, `&` and `\"` as \u escapes. */
function serializeBlockAttributes(attrs: PhpArray): string {
  const json = phpJsonEncode(attrs, 0);
  if (json === null) return '';
  return json
    .replaceAll('--', '\\u002d\\u002d')
    .replaceAll('<', '\\u003c')
    .replaceAll('>', '\\u003e')
    .replaceAll('&', '\\u0026')
    .replaceAll('\\"', '\\u0022');
}

// ---------------------------------------------------------------------------------------------
// PHP values and PHP's JSON, as json_decode( $json, true ) and wp_json_encode( $value,
// JSON_UNESCAPED_SLASHES | JSON_UNESCAPED_UNICODE ) see them: objects become ordered arrays,
// integer-like keys become integers, a 0..n-1 array is a JSON list again.

type PhpKey = string | bigint;
type PhpValue = null | boolean | bigint | number | string | PhpArray;

/** A PHP array: ordered, keyed by integers or strings. */
class PhpArray {
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

function isPhpEmpty(value: PhpValue | undefined): boolean {
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
function phpJsonDecode(json: string): PhpValue | undefined {
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
    for (const [word, result] of [['true', true], ['false', false], ['null', null]] as const) {
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
      const escape = this.text[i + 1];
      const simple = escape === undefined ? undefined : JSON_ESCAPES[escape];
      if (simple !== undefined) {
        out.add(simple);
        i += 2;
        continue;
      }
      if (escape !== 'u') throw new SyntaxError('escape');
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
function phpJsonEncode(value: PhpValue | undefined, depth: number): string | null {
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
  '"': '\\"', '\\': '\\\\', '\b': '\\b', '\f': '\\f', '\n': '\\n', '\r': '\\r', '\t': '\\t',
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
