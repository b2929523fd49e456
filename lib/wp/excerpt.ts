// tribe_events_get_the_excerpt() with its defaults, the text TEC's JSON-LD `description` is made
// from: the excerpt (or the content when there is none), block delimiters and anything that
// looks like a shortcode removed, kses'd down to a few inline tags and lists, the content trimmed
// to 30 words (TEC's list-view `excerpt_length`, which is what a REST request gets) with
// ` [&hellip;]`, and wpautop().
import { ksesPost } from './kses/filters.js';
import { wpautop } from './autop.js';
import { hasBlocks, stripBlockDelimiters } from './blocks.js';
import { ForwardFinder } from './php.js';
import { wpTrimWords } from './strip.js';

/** TEC's default allowed HTML for excerpts: tag -> allowed attributes. */
const ALLOWED: ReadonlyMap<string, ReadonlySet<string>> = new Map([
  ['a', new Set(['class', 'id', 'style', 'href', 'rel', 'target'])],
  ...['b', 'strong', 'em', 'span', 'ul', 'li', 'ol'].map((tag) => [tag, new Set(['class', 'id', 'style'])] as const),
]);

export const EXCERPT_LENGTH = 30;
export const EXCERPT_MORE = ' [&hellip;]';

/** `preg_replace( '#\[.+\]#U', '', $text )`: from a `[` to the next `]` on the same line (at least one character between). */
export function removeBracketed(text: string): string {
  if (!text.includes('[')) return text;
  const close = new ForwardFinder(text, ']');
  const newline = new ForwardFinder(text, '\n');
  const out: string[] = [];
  let copied = 0;
  let i = text.indexOf('[');
  while (i !== -1) {
    const end = close.next(i + 2);
    const nl = newline.next(i + 1);
    if (end === -1 || (nl !== -1 && nl < end)) {
      i = text.indexOf('[', i + 1);
      continue;
    }
    out.push(text.slice(copied, i));
    copied = end + 1;
    i = text.indexOf('[', copied);
  }
  if (copied === 0) return text;
  out.push(text.slice(copied));
  return out.join('');
}

const ATTRIBUTE = /[ \t\n\v\f\r]+([^ \t\n\v\f\r=/>]+)(?:=("[^"]*"|'[^']*'))?/g;

/**
 * Narrows what wp_kses( 'post' ) kept to TEC's shorter list: tags that are not on it go (their
 * text stays), and kept tags lose the attributes it does not name. wp_kses() with the short list
 * directly gives the same result, as the post list is a superset of it.
 */
function narrowToExcerptTags(html: string): string {
  if (!html.includes('<')) return html;
  const out: string[] = [];
  let copied = 0;
  let i = html.indexOf('<');
  while (i !== -1) {
    if (html.startsWith('<!--', i)) {
      const close = html.indexOf('-->', i + 4);
      const end = close === -1 ? html.length : close + 3;
      out.push(html.slice(copied, i), `<!--${narrowToExcerptTags(html.slice(i + 4, close === -1 ? end : close))}${close === -1 ? '' : '-->'}`);
      copied = end;
      i = html.indexOf('<', end);
      continue;
    }
    const gt = html.indexOf('>', i + 1);
    if (gt === -1) break;
    out.push(html.slice(copied, i), narrowTag(html.slice(i, gt + 1)));
    copied = gt + 1;
    i = html.indexOf('<', copied);
  }
  out.push(html.slice(copied));
  return out.join('');
}

function narrowTag(tag: string): string {
  const m = /^<(\/?)([A-Za-z0-9-]+)([\s\S]*?)(\s\/)?>$/.exec(tag);
  if (m === null) return '';
  const allowed = ALLOWED.get(m[2]!.toLowerCase());
  if (allowed === undefined) return '';
  if (m[1] === '/') return `</${m[2]}>`;
  let kept = '';
  ATTRIBUTE.lastIndex = 0;
  for (let a = ATTRIBUTE.exec(m[3]!); a !== null; a = ATTRIBUTE.exec(m[3]!)) {
    if (allowed.has(a[1]!.toLowerCase())) kept += a[0];
  }
  return `<${m[2]}${kept}${m[4] ?? ''}>`;
}

/** wp_kses( $text, TEC's excerpt tags ). */
export function ksesExcerptTags(html: string): string {
  return narrowToExcerptTags(ksesPost(html));
}

/** tribe_events_get_the_excerpt( $post ) for a post with this excerpt and content. */
export function tecExcerpt(excerpt: string, content: string): string {
  const fromExcerpt = excerpt !== '' && excerpt !== '0';
  let text = fromExcerpt ? excerpt : content;
  if (hasBlocks(text)) text = stripBlockDelimiters(text);
  text = removeBracketed(text);
  text = ksesExcerptTags(text);
  if (!fromExcerpt) text = wpTrimWords(text, EXCERPT_LENGTH, EXCERPT_MORE);
  return wpautop(text);
}
