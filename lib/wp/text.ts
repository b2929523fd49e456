// Text exactly as TEC renders it: the WordPress filters TEC's REST API runs its fields through
// (ports in lib/wp/), put together in WordPress's order. Records keep what was saved; this is
// applied when a record is presented.
//
//   renderTitle    the_title:   wptexturize, convert_chars, trim, capital_P_dangit
//   renderContent  the_content: [embed], blocks, wptexturize, wpautop, shortcode_unautop,
//                               capital_P_dangit, do_shortcode, wp_filter_content_tags, smilies
//   renderExcerpt  the_excerpt: wptexturize, smilies, convert_chars, wpautop,
//                               shortcode_unautop, wp_filter_content_tags
//   renderTermName what WordPress saves as a term name (sanitize_text_field, kses, `& < >`)
//   jsonLdName / jsonLdDescription   TEC's JSON-LD `name` and `description` (esc_js)
import { config } from '#lib/runtime/config.js';
import { shortcodeUnautop, wpautop } from './autop.js';
import { hasBlocks, stripBlockDelimiters } from './blocks.js';
import { convertChars, escHtml, escJs, escUrl } from './entities.js';
import { tecExcerpt } from './excerpt.js';
import { filterContentTags } from './media.js';
import { phpTrim, replaceAll } from './php.js';
import { doShortcode, runEmbedShortcode, SHORTCODE_NAMES } from './shortcodes.js';
import { convertSmilies } from './smilies.js';
import { sanitizeTextField } from './strip.js';
import { wptexturize } from './texturize.js';

export { escHtml, escJs, escUrl, sanitizeTextField, wpautop, wptexturize };

/**
 * Rendered text by kind and input: list pages present the same events again and again, and a
 * warm Lambda keeps the answers. Bounded by the characters held (inputs and outputs); inputs
 * over 64K characters are rendered every time.
 */
class RenderCache {
  private readonly map = new Map<string, string>();
  private chars = 0;

  constructor(private readonly budget: number) {}

  get(key: string, render: () => string): string {
    const hit = this.map.get(key);
    if (hit !== undefined) {
      // Most recently used last.
      this.map.delete(key);
      this.map.set(key, hit);
      return hit;
    }
    const value = render();
    if (key.length > 65_536) return value;
    this.map.set(key, value);
    this.chars += key.length + value.length;
    for (const [oldKey, oldValue] of this.map) {
      if (this.chars <= this.budget) break;
      this.map.delete(oldKey);
      this.chars -= oldKey.length + oldValue.length;
    }
    return value;
  }
}

const cache = new RenderCache(4_000_000);

/** capital_P_dangit() outside titles: only after a space, `‘`, `“`, `>` or `(`. */
function capitalPDangit(text: string): string {
  if (!text.includes('Wordpress')) return text;
  let out = text;
  for (const before of [' ', '&#8216;', '&#8220;', '>', '(']) out = replaceAll(out, `${before}Wordpress`, `${before}WordPress`);
  return out;
}

/** the_title filters, as TEC shows `title`, `venue` and `organizer`. */
export function renderTitle(raw: string): string {
  if (raw === '') return '';
  return cache.get(`t\0${raw}`, () => {
    const text = phpTrim(convertChars(wptexturize(raw, SHORTCODE_NAMES)));
    return phpTrim(replaceAll(text, 'Wordpress', 'WordPress'));
  });
}

/** the_content filters, as TEC shows `description`. */
export function renderContent(raw: string): string {
  if (phpTrim(raw) === '') return '';
  const siteUrl = config().siteUrl;
  return cache.get(`c\0${siteUrl}\0${raw}`, () => theContent(raw, siteUrl));
}

function theContent(raw: string, siteUrl: string): string {
  let text = runEmbedShortcode(raw);
  const blocks = hasBlocks(text);
  if (blocks) text = stripBlockDelimiters(text);
  text = wptexturize(text, SHORTCODE_NAMES);
  if (!blocks) text = wpautop(text);
  text = shortcodeUnautop(text, SHORTCODE_NAMES);
  text = capitalPDangit(text);
  text = doShortcode(text);
  text = filterContentTags(text);
  text = convertSmilies(text, siteUrl);
  return phpTrim(text);
}

/** the_excerpt filters (no shortcodes run), as TEC shows `excerpt`. */
export function renderExcerpt(raw: string): string {
  if (phpTrim(raw) === '') return '';
  const siteUrl = config().siteUrl;
  return cache.get(`e\0${siteUrl}\0${raw}`, () => theExcerpt(raw, siteUrl));
}

function theExcerpt(raw: string, siteUrl: string): string {
  let text = wptexturize(raw, SHORTCODE_NAMES);
  text = convertSmilies(text, siteUrl);
  text = convertChars(text);
  text = wpautop(text);
  text = shortcodeUnautop(text, SHORTCODE_NAMES);
  text = filterContentTags(text);
  return phpTrim(text);
}

/**
 * TEC's JSON-LD `name`: esc_js( get_the_title() ). get_the_title() puts "Private: " before the
 * title of a private post (before the_title filters run).
 */
export function jsonLdName(rawTitle: string, status?: string): string {
  return escJs(renderTitle(status === 'private' ? `Private: ${rawTitle}` : rawTitle));
}

/** TEC's JSON-LD `description`: esc_js( tribe_events_get_the_excerpt() ). */
export function jsonLdDescription(rawExcerpt: string, rawContent: string): string {
  const source = rawExcerpt !== '' && rawExcerpt !== '0' ? `x\0${rawExcerpt}` : `d\0${rawContent}`;
  return cache.get(source, () => escJs(tecExcerpt(rawExcerpt, rawContent)));
}

const HTML_ESCAPES: Record<string, string> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&#039;',
};

/** Like PHP htmlspecialchars(ENT_QUOTES): & < > " ' (existing entities are encoded again). */
export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (ch) => HTML_ESCAPES[ch]!);
}
