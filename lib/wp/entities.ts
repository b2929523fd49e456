// WordPress's escaping helpers: wp_kses_normalize_entities, _wp_specialchars (esc_html, esc_attr),
// esc_js, convert_chars and esc_url, as WordPress 6.8 behaves. Linear scans only.
import { badProtocol } from './kses/protocols.js';
import { addslashes, checkInvalidUtf8, isAsciiLetter, isDigit, isHexDigit, phpLtrim, replaceAll, stripslashes } from './php.js';

/** HTML 4.01's named character references: what htmlspecialchars() keeps without double encoding. */
const HTML4_ENTITY_NAMES = `nbsp iexcl cent pound curren yen brvbar sect uml copy ordf laquo not
  shy reg macr deg plusmn acute micro para middot cedil ordm raquo iquest Agrave Aacute Acirc
  Atilde Auml Aring AElig Ccedil Egrave Eacute Ecirc Euml Igrave Iacute Icirc Iuml ETH Ntilde
  Ograve Oacute Ocirc Otilde Ouml times Oslash Ugrave Uacute Ucirc Uuml Yacute THORN szlig agrave
  aacute acirc atilde auml aring aelig ccedil egrave eacute ecirc euml igrave iacute icirc iuml
  eth ntilde ograve oacute ocirc otilde ouml divide oslash ugrave uacute ucirc uuml yacute thorn
  yuml quot amp lt gt OElig oelig Scaron scaron Yuml circ tilde ensp emsp thinsp zwnj zwj lrm rlm
  ndash mdash lsquo rsquo sbquo ldquo rdquo bdquo dagger Dagger permil lsaquo rsaquo euro fnof
  Alpha Beta Gamma Delta Epsilon Zeta Eta Theta Iota Kappa Lambda Mu Nu Xi Omicron Pi Rho Sigma
  Tau Upsilon Phi Chi Psi Omega alpha beta gamma delta epsilon zeta eta theta iota kappa lambda
  mu nu xi omicron pi rho sigmaf sigma tau upsilon phi chi psi omega thetasym upsih piv bull
  hellip prime Prime oline frasl weierp image real trade alefsym larr uarr rarr darr harr crarr
  lArr uArr rArr dArr hArr forall part exist empty nabla isin notin ni prod sum minus lowast radic
  prop infin ang and or cap cup int sim cong asymp ne equiv le ge sub sup nsub sube supe oplus
  otimes perp sdot lceil rceil lfloor rfloor lang rang loz spades clubs hearts diams sup1 sup2
  sup3 frac14 frac12 frac34 there4`.split(/\s+/);

export const HTML4_ENTITIES: ReadonlySet<string> = new Set(HTML4_ENTITY_NAMES);
/** $allowedentitynames: the HTML 4.01 names plus `apos`. */
export const KSES_ENTITIES: ReadonlySet<string> = new Set([...HTML4_ENTITY_NAMES, 'apos']);

/** valid_unicode(): the code points XML allows. */
function isValidCodePoint(code: number): boolean {
  return code === 0x9 || code === 0xa || code === 0xd || (code >= 0x20 && code <= 0xd7ff) || (code >= 0xe000 && code <= 0xfffd) || (code >= 0x10000 && code <= 0x10ffff);
}

/** `0*[0-9]{1,max}` followed by `;` at `start`: the digits, or null. */
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

const stripLeadingZeros = (digits: string) => digits.replace(/^0+/, '');

// One reference each, as wp_kses_normalize_entities() rewrites it: `start` is just after its `&`
// (or `&#`), the answer is the replacement for the whole reference and where the text continues,
// or null when the text there is no such reference.

/** `NAME;` (2-8 letters, 0-2 digits): kept when $allowedentitynames has it, else `&amp;NAME;`. */
export function namedReference(text: string, start: number): [string, number] | null {
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

/** `DDD;` after `&#`: `&#DDD;` zero-padded to three digits when it is a valid code point. */
export function decimalReference(text: string, start: number): [string, number] | null {
  const digits = entityDigits(text, start, 7, isDigit);
  if (digits === null) return null;
  const end = start + digits.length + 1;
  if (digits === '0') return ['', end];
  if (!isValidCodePoint(Number.parseInt(digits, 10))) return [`&amp;#${digits};`, end];
  return [`&#${stripLeadingZeros(digits).padStart(3, '0')};`, end];
}

/** `xHHH;` after `&#`: `&#xHHH;` without leading zeros when it is a valid code point. */
export function hexReference(text: string, start: number): [string, number] | null {
  if (text[start] !== 'x' && text[start] !== 'X') return null;
  const digits = entityDigits(text, start + 1, 6, isHexDigit);
  if (digits === null) return null;
  const end = start + 1 + digits.length + 1;
  if (digits === '0') return ['', end];
  if (!isValidCodePoint(Number.parseInt(digits, 16))) return [`&amp;#x${digits};`, end];
  return [`&#x${stripLeadingZeros(digits)};`, end];
}

/**
 * wp_kses_normalize_entities(): every `&` that does not start an allowed named reference or a
 * valid numeric one becomes `&amp;`. Decimal references are zero-padded to three digits
 * (`&#39;` -> `&#039;`), hexadecimal ones lose leading zeros, `&#0;` vanishes (PHP's empty('0')).
 */
export function normalizeEntities(text: string): string {
  if (!text.includes('&')) return text;
  let out = '';
  let copied = 0;
  let i = text.indexOf('&');
  while (i !== -1) {
    out += text.slice(copied, i);
    const [replacement, end] = normalizeOne(text, i + 1);
    out += replacement;
    copied = end;
    i = text.indexOf('&', end);
  }
  return out + text.slice(copied);
}

/** The replacement for the `&` before `start`, and where the text continues. */
function normalizeOne(text: string, start: number): [string, number] {
  const reference = text[start] === '#' ? (hexReference(text, start + 1) ?? decimalReference(text, start + 1)) : namedReference(text, start);
  return reference ?? ['&amp;', start];
}

/**
 * Length of the character reference PHP's htmlspecialchars( double_encode = false ) keeps at
 * `at` (the `&`), or 0. Named references must be HTML 4.01 ones.
 */
export function keptReferenceLength(text: string, at: number): number {
  let i = at + 1;
  if (text[i] === '#') {
    i++;
    const hex = text[i] === 'x' || text[i] === 'X';
    if (hex) i++;
    const isDigitChar = hex ? isHexDigit : isDigit;
    const start = i;
    while (isDigitChar(text[i])) i++;
    if (i === start || text[i] !== ';') return 0;
    const significant = stripLeadingZeros(text.slice(start, i));
    if (significant.length > 7 || Number.parseInt(significant || '0', hex ? 16 : 10) > 0x10ffff) return 0;
    return i + 1 - at;
  }
  const start = i;
  while (isAsciiLetter(text[i]) || isDigit(text[i])) i++;
  if (i === start || text[i] !== ';') return 0;
  return HTML4_ENTITIES.has(text.slice(start, i)) ? i + 1 - at : 0;
}

export type QuoteStyle = 'noquotes' | 'compat' | 'quotes';

const SPECIAL = { noquotes: /[&<>]/g, compat: /[&<>"]/g, quotes: /[&<>"']/g } as const;
const ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#039;' };

/**
 * _wp_specialchars( $text, $quote_style ) without double encoding: the entities are normalised
 * first, then htmlspecialchars() encodes `& < >` (and `"`, `'` as asked), leaving valid
 * references alone.
 */
export function specialchars(text: string, quoteStyle: QuoteStyle = 'noquotes', doubleEncode = false): string {
  if (text === '' || !/[&<>"']/.test(text)) return text;
  const source = doubleEncode ? text : normalizeEntities(text);
  const pattern = SPECIAL[quoteStyle];
  pattern.lastIndex = 0;
  return source.replace(pattern, (ch, at: number) => {
    if (ch === '&' && !doubleEncode && keptReferenceLength(source, at) > 0) return '&';
    return ESCAPES[ch]!;
  });
}

/** esc_html(): '' for text that is not UTF-8, else _wp_specialchars( ENT_QUOTES ). */
export function escHtml(text: string): string {
  return specialchars(checkInvalidUtf8(text), 'quotes');
}

/** esc_attr(): the same as esc_html(). */
export const escAttr = escHtml;

/**
 * esc_js(): _wp_specialchars( ENT_COMPAT ), stripslashes, `&#39;`-style references back to `'`,
 * CRs dropped, addslashes, and newlines as the two characters `\n`.
 */
export function escJs(text: string): string {
  let safe = specialchars(checkInvalidUtf8(text), 'compat');
  safe = stripslashes(safe);
  if (safe.includes('&#')) safe = safe.replace(/&#(?:[xX]0*27|0*39);?/g, "'");
  if (safe.includes('\r')) safe = replaceAll(safe, '\r', '');
  safe = addslashes(safe);
  return safe.includes('\n') ? replaceAll(safe, '\n', '\\n') : safe;
}

/** Whether `&` at `at` would be kept by convert_chars(): `&#…`, or `&X` followed by `[a-z1-4]{1,8};`. */
function convertCharsKeeps(text: string, at: number): boolean {
  const next = text[at + 1];
  if (next === undefined) return true; // `&([^#])` needs a character after the `&`.
  if (next === '#') return true;
  let i = at + 2;
  const start = i;
  while (i - start < 8 && isEntityNameChar(text[i])) i++;
  return i > start && text[i] === ';';
}

function isEntityNameChar(ch: string | undefined): boolean {
  return ch !== undefined && ((ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z') || (ch >= '1' && ch <= '4'));
}

/**
 * convert_chars(): `preg_replace( '/&([^#])(?![a-z1-4]{1,8};)/i', '&#038;$1' )`. Note the
 * look-ahead starts after the character following the `&` (WordPress's own quirk).
 */
export function convertChars(text: string): string {
  if (!text.includes('&')) return text;
  let out = '';
  let copied = 0;
  let i = text.indexOf('&');
  while (i !== -1) {
    if (convertCharsKeeps(text, i)) {
      i = text.indexOf('&', i + 1);
      continue;
    }
    // A match consumes the `&` and the character after it; the next search starts after both.
    out += `${text.slice(copied, i)}&#038;`;
    copied = i + 1;
    i = text.indexOf('&', i + 2);
  }
  return copied === 0 ? text : out + text.slice(copied);
}

// --- esc_url ---------------------------------------------------------------------------------

/**
 * esc_url( $url, null, $_context ): the characters a URL may hold kept, `%0d` / `%0a` removed,
 * `http://` added to what has no scheme, `[` / `]` after the host encoded, and '' for a scheme
 * outside wp_allowed_protocols(). `display` also normalises entities and writes `&` and `'` as
 * `&#038;` and `&#039;`, for HTML; `db` (esc_url_raw, sanitize_url) is what WordPress stores.
 */
function cleanUrl(url: string, context: 'display' | 'db'): string {
  if (url === '') return url;
  let out = phpLtrim(url).replaceAll(' ', '%20');
  out = out.replace(/[^a-z0-9\-~+_.?#=!&;,/:%@$|*'()[\]\u0080-\uffff]/gi, '');
  if (out === '') return out;
  if (!out.toLowerCase().startsWith('mailto:')) {
    let previous: string;
    do {
      previous = out;
      out = out.replace(/%0[dDaA]/g, '');
    } while (out !== previous);
  }
  out = replaceAll(out, ';//', '://');
  if (!out.includes(':') && !['/', '#', '?'].includes(out[0]!) && !/^[a-z0-9-]+?\.php/i.test(out)) out = `http://${out}`;
  if (context === 'display') {
    out = normalizeEntities(out);
    out = replaceAll(out, '&amp;', '&#038;');
    out = replaceAll(out, "'", '&#039;');
  }
  if (out.includes('[') || out.includes(']')) out = encodeBracketsAfterHost(out);
  if (out[0] === '/') return out;
  const good = badProtocol(out);
  return good.toLowerCase() !== out.toLowerCase() ? '' : good;
}

/** esc_url( $url ): a URL for HTML. */
export const escUrl = (url: string): string => cleanUrl(url, 'display');

/** esc_url_raw( $url ) (sanitize_url): a URL as WordPress stores it. */
export const escUrlRaw = (url: string): string => cleanUrl(url, 'db');

/**
 * PHP's htmlspecialchars_decode( $text, ENT_QUOTES ): `&amp;`, `&quot;`, `&#39;` (`&#039;`,
 * `&#x27;`), `&lt;` and `&gt;` back to their characters, each reference once.
 */
export function specialcharsDecode(text: string): string {
  if (!text.includes('&')) return text;
  const named: Record<string, string> = { amp: '&', quot: '"', lt: '<', gt: '>' };
  return text.replace(/&(?:(amp|quot|lt|gt)|#0*39|#[xX]0*27);/g, (_, name: string | undefined) => (name ? named[name]! : "'"));
}

/** esc_url()'s `[` / `]` handling: percent-encoded after the scheme, credentials, host and port. */
function encodeBracketsAfterHost(url: string): string {
  const front = /^(?:[a-z][a-z0-9+.-]*:\/\/)?(?:[^/?#@]*@)?(?:\[[^\]/]*\]|[^/?#:[\]]*)(?::\d+)?/i.exec(url)?.[0] ?? '';
  return front + url.slice(front.length).replaceAll('[', '%5B').replaceAll(']', '%5D');
}
