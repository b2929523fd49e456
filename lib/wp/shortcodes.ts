// The shortcodes a WordPress 6.8 site with The Events Calendar runs in post content: WordPress's
// do_shortcode() machinery (tag matching, escaped `[[tag]]`, attribute parsing, brackets inside
// HTML tags left alone) with the core shortcodes that render without attachments or oEmbed:
//   [caption] / [wp_caption]  -> <figure class="wp-caption"> (HTML5 captions)
//   [gallery], [playlist]     -> '' (this service stores no attachments)
//   [embed]URL[/embed]        -> a link to URL (WordPress's answer when no oEmbed provider knows it)
// [audio] and [video] are not registered here: their players need attachment and instance data.
import { wpHtmlSplit } from './autop.js';
import { escAttr, escHtml, escUrl } from './entities.js';
import { ksesPost } from './kses/filters.js';
import { asciiLower, ForwardFinder, isWordChar, phpTrim, replaceAll } from './php.js';
import { shortcodeNamesIn } from './texturize.js';

/** The registered shortcode names (what wptexturize() and shortcode_unautop() see as shortcodes). */
export const SHORTCODE_NAMES: readonly string[] = ['wp_caption', 'caption', 'gallery', 'playlist', 'embed'];

type Atts = Record<string, string> & { [index: number]: string };
type Callback = (atts: Atts, content: string, depth: number) => string;

const MAX_DEPTH = 16;

/** get_shortcode_atts_regex(), with PCRE's `\s` spelled out. */
const ATTS_PATTERN =
  /([\w-]+)[ \t\n\v\f\r]*=[ \t\n\v\f\r]*"([^"]*)"(?:[ \t\n\v\f\r]|$)|([\w-]+)[ \t\n\v\f\r]*=[ \t\n\v\f\r]*'([^']*)'(?:[ \t\n\v\f\r]|$)|([\w-]+)[ \t\n\v\f\r]*=[ \t\n\v\f\r]*([^ \t\n\v\f\r'"]+)(?:[ \t\n\v\f\r]|$)|"([^"]*)"(?:[ \t\n\v\f\r]|$)|'([^']*)'(?:[ \t\n\v\f\r]|$)|([^ \t\n\v\f\r]+)(?:[ \t\n\v\f\r]|$)/g;

/** PHP stripcslashes(). */
export function stripcslashes(text: string): string {
  if (!text.includes('\\')) return text;
  const simple: Record<string, string> = { n: '\n', t: '\t', r: '\r', a: '\x07', v: '\v', b: '\b', f: '\f' };
  return text.replace(/\\(x[0-9A-Fa-f]{1,2}|[0-7]{1,3}|[\s\S]?)/g, (_m, esc: string) => {
    if (esc === '') return '';
    if (esc[0] === 'x' && esc.length > 1) return String.fromCharCode(Number.parseInt(esc.slice(1), 16));
    if (/^[0-7]+$/.test(esc)) return String.fromCharCode(Number.parseInt(esc, 8) & 0xff);
    return simple[esc] ?? esc;
  });
}

/** shortcode_parse_atts(): named attributes (lower-cased) and positional ones. */
export function shortcodeParseAtts(raw: string): Atts {
  const text = raw.replace(/[\u00a0\u200b]+/g, ' ');
  const atts: Atts = Object.create(null) as Atts;
  let positional = 0;
  ATTS_PATTERN.lastIndex = 0;
  for (let m = ATTS_PATTERN.exec(text); m !== null; m = ATTS_PATTERN.exec(text)) {
    if (m[0] === '') ATTS_PATTERN.lastIndex++;
    if (m[1]) atts[m[1].toLowerCase()] = stripcslashes(m[2]!);
    else if (m[3]) atts[m[3].toLowerCase()] = stripcslashes(m[4]!);
    else if (m[5]) atts[m[5].toLowerCase()] = stripcslashes(m[6]!);
    else if (m[7] !== undefined && m[7] !== '') atts[positional++] = stripcslashes(m[7]);
    else if (m[8] !== undefined && m[8] !== '') atts[positional++] = stripcslashes(m[8]);
    else if (m[9] !== undefined) atts[positional++] = stripcslashes(m[9]);
  }
  for (const key of Object.keys(atts)) {
    const value = atts[key]!;
    // Reject unclosed HTML elements.
    if (value.includes('<') && !/^[^<]*(?:<[^>]*>[^<]*)*$/.test(value)) atts[key] = '';
  }
  return atts;
}

function att(atts: Atts, name: string, fallback: string): string {
  if (!Object.hasOwn(atts, name)) return fallback;
  return atts[name]!;
}

/** PHP's (int) cast of a string. */
function phpInt(value: string): number {
  const m = /^[ \t\n\r\v\f]*([+-]?(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][+-]?\d+)?)/.exec(value);
  if (!m) return 0;
  const n = Math.trunc(Number(m[1]));
  return Number.isFinite(n) ? n : 0;
}

/** sanitize_html_class(). */
function sanitizeHtmlClass(value: string): string {
  return value.replace(/%[a-fA-F0-9][a-fA-F0-9]/g, '').replace(/[^A-Za-z0-9_-]/g, '');
}

/**
 * `#((?:<a [^>]+>\s*)?<img [^>]+>(?:\s*</a>)?)(.*)#is`: the image (with its link) and the rest.
 */
function splitCaptionImage(content: string): [string, string] | null {
  const lower = asciiLower(content);
  let img = lower.indexOf('<img ');
  while (img !== -1) {
    const gt = content.indexOf('>', img + 5);
    if (gt === -1) return null;
    if (gt > img + 5) break;
    img = lower.indexOf('<img ', img + 1);
  }
  if (img === -1) return null;
  const imgEnd = content.indexOf('>', img + 5) + 1;
  let start = img;
  // An `<a …>` right before the image (only spaces between) belongs to it.
  let k = img;
  while (k > 0 && /[ \t\n\v\f\r]/.test(content[k - 1]!)) k--;
  if (content[k - 1] === '>') {
    const anchor = lower.lastIndexOf('<a ', k - 2);
    if (anchor !== -1 && k - 1 > anchor + 3 && content.indexOf('>', anchor + 3) === k - 1) start = anchor;
  }
  let end = imgEnd;
  if (start !== img) {
    let j = imgEnd;
    while (j < content.length && /[ \t\n\v\f\r]/.test(content[j]!)) j++;
    if (lower.startsWith('</a>', j)) end = j + 4;
  }
  return [content.slice(start, end), content.slice(end)];
}

/** img_caption_shortcode() with HTML5 captions. */
const caption: Callback = (atts, rawContent, depth) => {
  let content = rawContent;
  if (!Object.hasOwn(atts, 'caption')) {
    const parts = splitCaptionImage(content);
    if (parts !== null) {
      content = parts[0];
      atts.caption = phpTrim(parts[1]);
    }
  } else if (atts.caption!.includes('<')) {
    atts.caption = ksesPost(atts.caption!);
  }
  let id = att(atts, 'id', '');
  let captionId = att(atts, 'caption_id', '');
  const align = att(atts, 'align', 'alignnone');
  const width = phpInt(att(atts, 'width', ''));
  const text = att(atts, 'caption', '');
  const extraClass = att(atts, 'class', '');
  if (width < 1 || text === '' || text === '0') return content;
  let idAttr = '';
  let captionIdAttr = '';
  let describedBy = '';
  if (id !== '' && id !== '0') {
    id = sanitizeHtmlClass(id);
    idAttr = `id="${escAttr(id)}" `;
  }
  if (captionId !== '' && captionId !== '0') captionId = sanitizeHtmlClass(captionId);
  else if (id !== '' && id !== '0') captionId = `caption-${id.replaceAll('_', '-')}`;
  if (captionId !== '' && captionId !== '0') {
    captionIdAttr = `id="${escAttr(captionId)}" `;
    describedBy = `aria-describedby="${escAttr(captionId)}" `;
  }
  const className = phpTrim(`wp-caption ${align} ${extraClass}`);
  const style = `style="width: ${width}px" `;
  const inner = runShortcodes(content, SHORTCODE_NAMES, CALLBACKS, depth + 1);
  return `<figure ${idAttr}${describedBy}${style}class="${escAttr(className)}">${inner}<figcaption ${captionIdAttr}class="wp-caption-text">${text}</figcaption></figure>`;
};

const nothing: Callback = () => '';

const CALLBACKS: Record<string, Callback> = {
  wp_caption: caption,
  caption,
  gallery: nothing,
  playlist: nothing,
  embed: nothing,
};

/** WP_Embed::shortcode() for a URL no oEmbed provider knows: a link to it. */
const embed: Callback = (attr, content) => {
  let url = content;
  if (url === '' || url === '0') url = att(attr, 'src', '');
  if (url === '' || url === '0') return '';
  url = replaceAll(url, '&amp;', '&');
  return `<a href="${escUrl(url)}">${escHtml(url)}</a>`;
};

const EMBED_ONLY: Record<string, Callback> = { embed };

/**
 * do_shortcodes_in_html_tags(): brackets inside HTML tags and comments are hidden as `&#91;` /
 * `&#93;` (shortcodes in attribute values are not run), after `&#91;` / `&#93;` already in the
 * text were made `&#091;` / `&#093;`.
 */
function hideBracketsInTags(content: string): string {
  let text = content.includes('&#9') ? replaceAll(replaceAll(content, '&#91;', '&#091;'), '&#93;', '&#093;') : content;
  if (!text.includes('<')) return text;
  const parts = wpHtmlSplit(text);
  let changed = false;
  for (let i = 1; i < parts.length; i += 2) {
    const element = parts[i]!;
    if (element.includes('[') || element.includes(']')) {
      parts[i] = replaceAll(replaceAll(element, '[', '&#91;'), ']', '&#93;');
      changed = true;
    }
  }
  if (changed) text = parts.join('');
  return text;
}

/**
 * do_shortcode(): the get_shortcode_regex() / do_shortcode_tag() loop over the text for the
 * registered names found in it.
 */
function runShortcodes(content: string, registered: readonly string[], callbacks: Record<string, Callback>, depth: number): string {
  if (depth > MAX_DEPTH || !content.includes('[')) return content;
  const names = shortcodeNamesIn(content, registered, false);
  if (names.length === 0) return content;
  const text = hideBracketsInTags(content);
  const closeBracket = new ForwardFinder(text, ']');
  const closers = new Map(names.map((n) => [n, new ForwardFinder(text, `[/${n}]`)]));
  let out = '';
  let copied = 0;
  let i = text.indexOf('[');
  while (i !== -1) {
    const escaped = text[i + 1] === '[';
    const nameStart = escaped ? i + 2 : i + 1;
    const name = names.find((n) => text.startsWith(n, nameStart) && !isWordChar(text[nameStart + n.length]) && text[nameStart + n.length] !== '-');
    const bracket = name === undefined ? -1 : closeBracket.next(nameStart + name.length);
    if (name === undefined || bracket === -1) {
      i = text.indexOf('[', i + 1);
      continue;
    }
    const attsEnd = nameStart + name.length;
    const selfClosing = text[bracket - 1] === '/' && bracket - 1 >= attsEnd;
    const rawAtts = text.slice(attsEnd, selfClosing ? bracket - 1 : bracket);
    let end = bracket + 1;
    // An unclosed or self-closing shortcode gets '' as its content (PCRE's unset group 5).
    let inner = '';
    if (!selfClosing) {
      const close = closers.get(name)!.next(bracket + 1);
      if (close !== -1) {
        inner = text.slice(bracket + 1, close);
        end = close + name.length + 3;
      }
    }
    const trailing = text[end] === ']';
    if (trailing) end++;
    out += text.slice(copied, i);
    if (escaped && trailing) out += text.slice(i + 1, end - 1);
    else out += (escaped ? '[' : '') + callbacks[name]!(shortcodeParseAtts(rawAtts), inner, depth) + (trailing ? ']' : '');
    copied = end;
    i = text.indexOf('[', end);
  }
  out += text.slice(copied);
  // unescape_invalid_shortcodes(): always restore the hidden brackets.
  return out.includes('&#9') ? replaceAll(replaceAll(out, '&#91;', '['), '&#93;', ']') : out;
}

/** do_shortcode( $content ) with this site's shortcodes. */
export function doShortcode(content: string): string {
  return runShortcodes(content, SHORTCODE_NAMES, CALLBACKS, 0);
}

/** WP_Embed::run_shortcode(): only [embed] runs (the_content, priority 8). */
export function runEmbedShortcode(content: string): string {
  return runShortcodes(content, ['embed'], EMBED_ONLY, 0);
}
