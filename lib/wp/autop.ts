// wpautop(), wp_html_split() / wp_replace_in_html_tags() and shortcode_unautop(), as WordPress 6.8
// behaves. Each of WordPress's regular expressions is done here by a forward scan: several of them
// (`\s*<option`, `(?<!<br />)\s*\n`, `(</?block[^>]*>)\s*</p>` …) backtrack quadratically in PCRE
// and in JavaScript on long runs of spaces or unclosed tags.
import { asciiLower, Builder, ForwardFinder, isPcreSpace, isWordChar, phpTrim, replaceAll, skipPcreSpace } from './php.js';

const ALLBLOCKS = [
  'table',
  'thead',
  'tfoot',
  'caption',
  'col',
  'colgroup',
  'tbody',
  'tr',
  'td',
  'th',
  'div',
  'dl',
  'dd',
  'dt',
  'ul',
  'ol',
  'li',
  'pre',
  'form',
  'map',
  'area',
  'blockquote',
  'address',
  'style',
  'p',
  'h1',
  'h2',
  'h3',
  'h4',
  'h5',
  'h6',
  'hr',
  'fieldset',
  'legend',
  'section',
  'article',
  'aside',
  'hgroup',
  'header',
  'footer',
  'nav',
  'figure',
  'figcaption',
  'details',
  'menu',
  'summary',
];
const BR_BEFORE_BLOCKS = ['p', 'li', 'div', 'dl', 'dd', 'dt', 'th', 'pre', 'td', 'ul', 'ol'];

/** Whether one of `names` starts at `at` (case-sensitive), optionally followed by a character `next` accepts. */
function nameAt(text: string, at: number, names: readonly string[], next?: (ch: string | undefined) => boolean): boolean {
  for (const name of names) {
    if (text.startsWith(name, at) && (next === undefined || next(text[at + name.length]))) return true;
  }
  return false;
}

/** `</?(?:names)` at `at` (a `<`): the index after the `<` or `</`, or -1. */
function blockTagNameAt(text: string, at: number, names: readonly string[]): number {
  if (text[at] !== '<') return -1;
  const start = text[at + 1] === '/' ? at + 2 : at + 1;
  return nameAt(text, start, names) ? start : -1;
}

// --- wp_html_split -----------------------------------------------------------------------------

/** The end of the element, comment or CDATA section starting at `at` (get_html_split_regex()). */
function htmlSplitEnd(text: string, at: number): number {
  if (text.startsWith('!--', at + 1)) {
    const close = text.indexOf('-->', at + 2);
    return close === -1 ? text.length : close + 3;
  }
  if (text.startsWith('![CDATA[', at + 1)) {
    const close = text.indexOf(']]>', at + 9);
    return close === -1 ? text.length : close + 3;
  }
  const gt = text.indexOf('>', at + 1);
  return gt === -1 ? text.length : gt + 1;
}

/** wp_html_split(): text and delimiters (elements, comments, CDATA) alternating, text first. */
export function wpHtmlSplit(text: string): string[] {
  const out: string[] = [];
  let copied = 0;
  let i = text.indexOf('<');
  while (i !== -1) {
    const end = htmlSplitEnd(text, i);
    out.push(text.slice(copied, i), text.slice(i, end));
    copied = end;
    i = text.indexOf('<', end);
  }
  out.push(text.slice(copied));
  return out;
}

/** wp_replace_in_html_tags() with one needle. */
export function replaceInHtmlTags(text: string, needle: string, replacement: string): string {
  if (!text.includes('<') || !text.includes(needle)) return text;
  const parts = wpHtmlSplit(text);
  let changed = false;
  for (let i = 1; i < parts.length; i += 2) {
    if (parts[i]!.includes(needle)) {
      parts[i] = replaceAll(parts[i]!, needle, replacement);
      changed = true;
    }
  }
  return changed ? parts.join('') : text;
}

// --- generic forward scanners --------------------------------------------------------------------

interface CollapseOptions {
  /** Where the matched tag ends: at the prefix, at the next `>`, or at the next `>` or `]`. */
  end: 'prefix' | 'gt' | 'gtOrBracket';
  before: boolean;
  after: boolean;
}

/**
 * `\s*(PREFIX…)\s*` with the whitespace on the chosen sides removed, for every match left to
 * right (PCRE's leftmost, non-overlapping matches).
 */
function collapseAround(text: string, prefixes: readonly string[], options: CollapseOptions): string {
  const finders = prefixes.map((p) => new ForwardFinder(text, p));
  const gt = new ForwardFinder(text, '>');
  const bracket = new ForwardFinder(text, ']');
  const out = new Builder();
  let copied = 0;
  let pos = 0;
  for (;;) {
    let start = -1;
    let prefix = '';
    for (let k = 0; k < prefixes.length; k++) {
      const at = finders[k]!.next(pos);
      if (at !== -1 && (start === -1 || at < start)) {
        start = at;
        prefix = prefixes[k]!;
      }
    }
    if (start === -1) break;
    let end = start + prefix.length;
    if (options.end !== 'prefix') {
      const g = gt.next(end);
      const b = options.end === 'gtOrBracket' ? bracket.next(end) : -1;
      const close = g === -1 ? b : b === -1 ? g : Math.min(g, b);
      if (close === -1) break;
      end = close + 1;
    }
    let keepUpTo = start;
    if (options.before) while (keepUpTo > copied && isPcreSpace(text[keepUpTo - 1])) keepUpTo--;
    out.add(text.slice(copied, keepUpTo));
    out.add(text.slice(start, end));
    copied = pos = options.after ? skipPcreSpace(text, end) : end;
  }
  if (copied === 0) return text;
  out.add(text.slice(copied));
  return out.toString();
}

/**
 * For every `<p>`: `<p>\s*(</?block[^>]*>)` and optionally `\s*</p>` after it, replaced by the
 * tag alone (`closing` true), or the `<p>\s*` before a block tag removed (`closing` false).
 */
function unwrapBlockAfterP(text: string, requireClosingP: boolean): string {
  const p = new ForwardFinder(text, '<p>');
  const gt = new ForwardFinder(text, '>');
  const out = new Builder();
  let copied = 0;
  let pos = 0;
  let memoGt = -1;
  let memoEnd = -1;
  for (;;) {
    const start = p.next(pos);
    if (start === -1) break;
    const tagStart = skipPcreSpace(text, start + 3);
    if (blockTagNameAt(text, tagStart, ALLBLOCKS) === -1) {
      pos = start + 1;
      continue;
    }
    const g = gt.next(tagStart + 1);
    if (g === -1) break;
    let end = g + 1;
    if (requireClosingP) {
      if (memoGt !== g) {
        memoGt = g;
        const after = skipPcreSpace(text, g + 1);
        memoEnd = text.startsWith('</p>', after) ? after + 4 : -1;
      }
      if (memoEnd === -1) {
        pos = start + 1;
        continue;
      }
      end = memoEnd;
    }
    out.add(text.slice(copied, start));
    out.add(text.slice(tagStart, g + 1));
    copied = pos = end;
  }
  if (copied === 0) return text;
  out.add(text.slice(copied));
  return out.toString();
}

/** `(</?block[^>]*>)\s*FOLLOW` -> the tag (FOLLOW is `</p>` or `<br />`). */
function dropAfterBlockTag(text: string, follow: string): string {
  if (!text.includes(follow)) return text;
  const lt = new ForwardFinder(text, '<');
  const gt = new ForwardFinder(text, '>');
  const out = new Builder();
  let copied = 0;
  let pos = 0;
  let memoGt = -1;
  let memoEnd = -1;
  for (;;) {
    const start = lt.next(pos);
    if (start === -1) break;
    const nameStart = blockTagNameAt(text, start, ALLBLOCKS);
    if (nameStart === -1) {
      pos = start + 1;
      continue;
    }
    const g = gt.next(nameStart);
    if (g === -1) break;
    if (memoGt !== g) {
      memoGt = g;
      const after = skipPcreSpace(text, g + 1);
      memoEnd = text.startsWith(follow, after) ? after + follow.length : -1;
    }
    if (memoEnd === -1) {
      pos = start + 1;
      continue;
    }
    out.add(text.slice(copied, g + 1));
    copied = pos = memoEnd;
  }
  if (copied === 0) return text;
  out.add(text.slice(copied));
  return out.toString();
}

// --- wpautop steps ---------------------------------------------------------------------------------

/** `<br\s*\/?>` at `at`: its end, or -1. */
function brEnd(text: string, at: number): number {
  if (!text.startsWith('<br', at)) return -1;
  let i = skipPcreSpace(text, at + 3);
  if (text[i] === '/') i++;
  return text[i] === '>' ? i + 1 : -1;
}

/** `<br\s*\/?>\s*<br\s*\/?>` -> "\n\n". */
function doubleBrToParagraph(text: string): string {
  if (!text.includes('<br')) return text;
  const out = new Builder();
  let copied = 0;
  let i = text.indexOf('<br');
  while (i !== -1) {
    const first = brEnd(text, i);
    const second = first === -1 ? -1 : brEnd(text, skipPcreSpace(text, first));
    if (second === -1) {
      i = text.indexOf('<br', i + 1);
      continue;
    }
    out.add(text.slice(copied, i));
    out.add('\n\n');
    copied = second;
    i = text.indexOf('<br', second);
  }
  if (copied === 0) return text;
  out.add(text.slice(copied));
  return out.toString();
}

const isTagEndChar = (ch: string | undefined) => isPcreSpace(ch) || ch === '/' || ch === '>';

/** Blank lines before block-level opening tags and after their closing tags and `<hr>`s. */
function spaceBlocks(text: string): string {
  if (!text.includes('<')) return text;
  const out = new Builder();
  let copied = 0;
  let i = text.indexOf('<');
  while (i !== -1) {
    if (text[i + 1] === '/') {
      // `</block>`: a blank line after it.
      for (const name of ALLBLOCKS) {
        if (text.startsWith(name, i + 2) && text[i + 2 + name.length] === '>') {
          const end = i + 3 + name.length;
          out.add(text.slice(copied, end));
          out.add('\n\n');
          copied = end;
          break;
        }
      }
    } else if (nameAt(text, i + 1, ALLBLOCKS, isTagEndChar)) {
      out.add(text.slice(copied, i));
      out.add('\n\n');
      copied = i;
    }
    i = text.indexOf('<', i + 1);
  }
  out.add(text.slice(copied));
  let result = out.toString();
  // `<hr\s*?/?>`: a blank line after it.
  if (result.includes('<hr')) {
    const hr = new Builder();
    let from = 0;
    let at = result.indexOf('<hr');
    while (at !== -1) {
      let k = skipPcreSpace(result, at + 3);
      if (result[k] === '/') k++;
      if (result[k] === '>') {
        hr.add(result.slice(from, k + 1));
        hr.add('\n\n');
        from = k + 1;
      }
      at = result.indexOf('<hr', at + 1);
    }
    if (from !== 0) {
      hr.add(result.slice(from));
      result = hr.toString();
    }
  }
  return result;
}

/** preg_split( '/\n\s*\n/', $text, -1, PREG_SPLIT_NO_EMPTY ). */
function splitParagraphs(text: string): string[] {
  const out: string[] = [];
  let copied = 0;
  let i = text.indexOf('\n');
  while (i !== -1) {
    const runEnd = skipPcreSpace(text, i + 1);
    const last = text.lastIndexOf('\n', runEnd - 1);
    if (last > i) {
      if (i > copied) out.push(text.slice(copied, i));
      copied = last + 1;
      i = text.indexOf('\n', copied);
    } else {
      i = text.indexOf('\n', i + 1);
    }
  }
  if (copied < text.length) out.push(text.slice(copied));
  return out;
}

/** `<p>\s*</p>` -> ''. */
function dropEmptyParagraphs(text: string): string {
  const out = new Builder();
  let copied = 0;
  let i = text.indexOf('<p>');
  while (i !== -1) {
    const after = skipPcreSpace(text, i + 3);
    if (text.startsWith('</p>', after)) {
      out.add(text.slice(copied, i));
      copied = after + 4;
      i = text.indexOf('<p>', copied);
    } else {
      i = text.indexOf('<p>', i + 1);
    }
  }
  if (copied === 0) return text;
  out.add(text.slice(copied));
  return out.toString();
}

/** `<p>([^<]+)</(div|address|form)>` -> `<p>$1</p></$2>`. */
function closeParagraphInContainers(text: string): string {
  const lt = new ForwardFinder(text, '<');
  const out = new Builder();
  let copied = 0;
  let i = text.indexOf('<p>');
  while (i !== -1) {
    const k = lt.next(i + 3);
    const close = k > i + 3 ? ['</div>', '</address>', '</form>'].find((c) => text.startsWith(c, k)) : undefined;
    if (close === undefined) {
      i = text.indexOf('<p>', i + 1);
      continue;
    }
    out.add(text.slice(copied, k));
    out.add('</p>');
    out.add(close);
    copied = k + close.length;
    i = text.indexOf('<p>', copied);
  }
  if (copied === 0) return text;
  out.add(text.slice(copied));
  return out.toString();
}

/** `<p>(<li.+?)</p>` -> `$1` (`.` stops at "\n"). */
function unwrapListItems(text: string): string {
  if (!text.includes('<p><li')) return text;
  const closing = new ForwardFinder(text, '</p>');
  const newline = new ForwardFinder(text, '\n');
  const out = new Builder();
  let copied = 0;
  let i = text.indexOf('<p><li');
  while (i !== -1) {
    const from = i + 6;
    const end = closing.next(from + 1);
    const nl = newline.next(from);
    if (end === -1 || (nl !== -1 && nl < end)) {
      i = text.indexOf('<p><li', i + 1);
      continue;
    }
    out.add(text.slice(copied, i));
    out.add(text.slice(i + 3, end));
    copied = end + 4;
    i = text.indexOf('<p><li', copied);
  }
  if (copied === 0) return text;
  out.add(text.slice(copied));
  return out.toString();
}

/** `<p><blockquote([^>]*)>` (any case) -> `<blockquote$1><p>`. */
function moveParagraphIntoBlockquote(text: string): string {
  const lower = asciiLower(text);
  if (!lower.includes('<p><blockquote')) return text;
  const gt = new ForwardFinder(text, '>');
  const out = new Builder();
  let copied = 0;
  let i = lower.indexOf('<p><blockquote');
  while (i !== -1) {
    const g = gt.next(i + 14);
    if (g === -1) break;
    out.add(text.slice(copied, i));
    out.add('<blockquote');
    out.add(text.slice(i + 14, g + 1));
    out.add('<p>');
    copied = g + 1;
    i = lower.indexOf('<p><blockquote', copied);
  }
  if (copied === 0) return text;
  out.add(text.slice(copied));
  return out.toString();
}

/** `<(script|style|svg|math).*?</\1>`: newlines inside become `<WPPreserveNewline />`. */
function preserveNewlinesInRawElements(text: string): string {
  if (!text.includes('\n') || !text.includes('<')) return text;
  const names = ['script', 'style', 'svg', 'math'];
  const exhausted = new Set<string>();
  const out = new Builder();
  let copied = 0;
  let i = text.indexOf('<');
  while (i !== -1) {
    const name = names.find((n) => !exhausted.has(n) && text.startsWith(n, i + 1));
    if (name === undefined) {
      i = text.indexOf('<', i + 1);
      continue;
    }
    const close = text.indexOf(`</${name}>`, i + 1 + name.length);
    if (close === -1) {
      exhausted.add(name);
      continue;
    }
    const end = close + name.length + 3;
    out.add(text.slice(copied, i));
    out.add(replaceAll(text.slice(i, end), '\n', '<WPPreserveNewline />'));
    copied = end;
    i = text.indexOf('<', end);
  }
  if (copied === 0) return text;
  out.add(text.slice(copied));
  return out.toString();
}

/** `(?<!<br />)\s*\n` -> "<br />\n". */
function newlinesToBreaks(text: string): string {
  const out = new Builder();
  let copied = 0;
  let i = 0;
  while (i < text.length) {
    const nl = text.indexOf('\n', i);
    if (nl === -1) break;
    // The whitespace run holding this newline.
    let runStart = nl;
    while (runStart > i && isPcreSpace(text[runStart - 1])) runStart--;
    const runEnd = skipPcreSpace(text, nl + 1);
    const last = text.lastIndexOf('\n', runEnd - 1);
    let start = runStart;
    if (text.endsWith('<br />', start) && start >= 6) start++;
    if (start > last) {
      i = last + 1;
      continue;
    }
    out.add(text.slice(copied, start));
    out.add('<br />\n');
    copied = i = last + 1;
  }
  if (copied === 0) return text;
  out.add(text.slice(copied));
  return out.toString();
}

/** `<br />(\s*</?(?:p|li|div|…)[^>]*>)` -> `$1`. */
function dropBreakBeforeBlocks(text: string): string {
  if (!text.includes('<br />')) return text;
  const gt = new ForwardFinder(text, '>');
  const out = new Builder();
  let copied = 0;
  let i = text.indexOf('<br />');
  while (i !== -1) {
    const tag = skipPcreSpace(text, i + 6);
    const nameStart = blockTagNameAt(text, tag, BR_BEFORE_BLOCKS);
    const g = nameStart === -1 ? -1 : gt.next(nameStart);
    if (g === -1) {
      i = text.indexOf('<br />', i + 1);
      continue;
    }
    out.add(text.slice(copied, i));
    out.add(text.slice(i + 6, g + 1));
    copied = g + 1;
    i = text.indexOf('<br />', copied);
  }
  if (copied === 0) return text;
  out.add(text.slice(copied));
  return out.toString();
}

/**
 * wpautop( $text ): blank-line separated blocks become paragraphs, single newlines `<br />`s,
 * block-level HTML is left unwrapped and <pre> contents untouched.
 */
export function wpautop(input: string, br = true): string {
  if (phpTrim(input) === '') return '';
  let text = `${input}\n`;
  const preTags: string[] = [];
  if (text.includes('<pre')) {
    const parts = text.split('</pre>');
    const last = parts.pop()!;
    const rebuilt = new Builder();
    for (const part of parts) {
      const start = part.indexOf('<pre');
      if (start === -1) {
        rebuilt.add(part);
        continue;
      }
      rebuilt.add(part.slice(0, start));
      rebuilt.add(`<pre wp-pre-tag-${preTags.length}></pre>`);
      preTags.push(`${part.slice(start)}</pre>`);
    }
    rebuilt.add(last);
    text = rebuilt.toString();
  }
  text = doubleBrToParagraph(text);
  text = spaceBlocks(text);
  if (text.includes('\r')) text = text.replace(/\r\n?/g, '\n');
  text = replaceInHtmlTags(text, '\n', ' <!-- wpnl --> ');
  if (text.includes('<option')) {
    text = collapseAround(text, ['<option'], { end: 'prefix', before: true, after: false });
    text = collapseAround(text, ['</option>'], { end: 'prefix', before: false, after: true });
  }
  if (text.includes('</object>')) {
    text = collapseAround(text, ['<object'], { end: 'gt', before: false, after: true });
    text = collapseAround(text, ['</object>'], { end: 'prefix', before: true, after: false });
    text = collapseAround(text, ['<param', '</param', '<embed', '</embed'], { end: 'gt', before: true, after: true });
  }
  if (text.includes('<source') || text.includes('<track')) {
    text = collapseAround(text, ['<audio', '[audio', '<video', '[video'], { end: 'gtOrBracket', before: false, after: true });
    const closers = ['</audio>', '</audio]', '[/audio>', '[/audio]', '</video>', '</video]', '[/video>', '[/video]'];
    text = collapseAround(text, closers, { end: 'prefix', before: true, after: false });
    text = collapseAround(text, ['<source', '<track'], { end: 'gt', before: true, after: true });
  }
  if (text.includes('<figcaption')) {
    text = collapseAround(text, ['<figcaption'], { end: 'gt', before: true, after: false });
    text = collapseAround(text, ['</figcaption>'], { end: 'prefix', before: false, after: true });
  }
  if (text.includes('\n\n\n')) text = text.replace(/\n\n+/g, '\n\n');
  const paragraphs = splitParagraphs(text);
  const wrapped = new Builder();
  for (const paragraph of paragraphs) wrapped.add(`<p>${phpTrim(paragraph, '\n')}</p>\n`);
  text = wrapped.toString();
  text = dropEmptyParagraphs(text);
  text = closeParagraphInContainers(text);
  text = unwrapBlockAfterP(text, true);
  text = unwrapListItems(text);
  text = moveParagraphIntoBlockquote(text);
  text = replaceAll(text, '</blockquote></p>', '</p></blockquote>');
  text = unwrapBlockAfterP(text, false);
  text = dropAfterBlockTag(text, '</p>');
  if (br) {
    text = preserveNewlinesInRawElements(text);
    text = replaceAll(replaceAll(text, '<br>', '<br />'), '<br/>', '<br />');
    text = newlinesToBreaks(text);
    text = replaceAll(text, '<WPPreserveNewline />', '\n');
  }
  text = dropAfterBlockTag(text, '<br />');
  text = dropBreakBeforeBlocks(text);
  if (text.endsWith('\n</p>')) text = `${text.slice(0, -5)}</p>`;
  else if (text.endsWith('\n</p>\n')) text = `${text.slice(0, -6)}</p>\n`;
  if (preTags.length) text = text.replace(/<pre wp-pre-tag-(\d+)><\/pre>/g, (m, n: string) => preTags[Number(n)] ?? m);
  if (text.includes('<!-- wpnl -->')) text = replaceAll(replaceAll(text, ' <!-- wpnl --> ', '\n'), '<!-- wpnl -->', '\n');
  return text;
}

// --- shortcode_unautop ----------------------------------------------------------------------------

/** wp_spaces_regexp() at `at`: the length of the space there (1, or 6 for `&nbsp;`), or 0. */
function wpSpaceLength(text: string, at: number): number {
  const ch = text[at];
  if (ch === ' ' || ch === '\t' || ch === '\n' || ch === '\r' || ch === '\u00a0') return 1;
  return text.startsWith('&nbsp;', at) ? 6 : 0;
}

function skipWpSpaces(text: string, from: number): number {
  let i = from;
  for (let n = wpSpaceLength(text, i); n > 0; n = wpSpaceLength(text, i)) i += n;
  return i;
}

/**
 * The end of a shortcode (opening tag and, when `withContent`, its content and closing tag) that
 * starts at `at` (a `[`), as get_shortcode_regex() matches it; -1 when there is none.
 */
export function shortcodeTagEnd(text: string, at: number, name: string, closer: ForwardFinder | undefined, withContent: boolean): number {
  const closeBracket = text.indexOf(']', at + 1 + name.length);
  if (closeBracket === -1) return -1;
  if (text[closeBracket - 1] === '/' && closeBracket - 1 >= at + 1 + name.length) return closeBracket + 1;
  if (!withContent || closer === undefined) return closeBracket + 1;
  const close = closer.next(closeBracket + 1);
  return close === -1 ? -1 : close + name.length + 3;
}

/** shortcode_unautop(): `<p>` around a shortcode that stands alone in it goes. */
export function shortcodeUnautop(text: string, names: readonly string[]): string {
  if (names.length === 0 || !text.includes('<p>') || !text.includes('[')) return text;
  const closers = new Map(names.map((n) => [n, new ForwardFinder(text, `[/${n}]`)]));
  const out = new Builder();
  let copied = 0;
  let i = text.indexOf('<p>');
  while (i !== -1) {
    const open = skipWpSpaces(text, i + 3);
    const name = text[open] === '[' ? names.find((n) => text.startsWith(n, open + 1) && !isWordChar(text[open + 1 + n.length]) && text[open + 1 + n.length] !== '-') : undefined;
    let end = -1;
    if (name !== undefined) {
      for (const withContent of [true, false]) {
        const codeEnd = shortcodeTagEnd(text, open, name, closers.get(name), withContent);
        if (codeEnd === -1) continue;
        const after = skipWpSpaces(text, codeEnd);
        if (text.startsWith('</p>', after)) {
          out.add(text.slice(copied, i));
          out.add(text.slice(open, codeEnd));
          end = after + 4;
          break;
        }
      }
    }
    if (end === -1) {
      i = text.indexOf('<p>', i + 1);
      continue;
    }
    copied = end;
    i = text.indexOf('<p>', end);
  }
  if (copied === 0) return text;
  out.add(text.slice(copied));
  return out.toString();
}
