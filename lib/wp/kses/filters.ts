// WordPress's kses HTML filter (the behaviour of WordPress 6.8), written for this service: the
// public filters, and the wp_kses() call they run.
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
// and rebuild each one. Every step mirrors WordPress's observable behaviour, quirks included
// (e.g. `/page?a=b:c` loses `/page?a=b:`), because clients compare against WordPress.
//
// PHP's PCRE works on bytes and its `\s`, `trim()`, `strtolower()` and `$` differ from
// JavaScript's, so the PHP flavours are spelled out (isPcreSpace, phpTrim, asciiLower in
// lib/wp/php.ts, isPcreEnd in ./scan.ts). No regular expression in kses can backtrack
// catastrophically: anything that could scan the same text repeatedly is a hand-written scanner,
// and searches that recur move forward only (ForwardFinder), so the filter is linear in practice
// on hostile input.
//
// The input is the unslashed string (what the REST API hands to WordPress). Nothing is trimmed.
import { specialchars } from '../entities.js';
import { preKsesLessThan } from '../strip.js';
import { type Ctx, type KsesOptions, postContext, TERM_CONTEXT, TITLE_CONTEXT } from './allowed.js';
import { filterBlockContent } from './block-attributes.js';
import { noNull } from './no-null.js';
import { normalizeEntities } from './normalize.js';
import { resetTokenMemo, split } from './split.js';

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

/** How deep wp_kses() may call itself (comments, block attributes) before we stop recursing. */
const MAX_NESTING = 64;

class NestingTooDeep extends Error {}

function run(html: string, ctx: Ctx): string {
  const text = typeof html === 'string' ? html : String(html ?? '');
  resetTokenMemo();
  try {
    return kses(text, ctx, true, 0);
  } catch {
    // Never throw: fall back to text with every markup character escaped (safe and stable).
    return specialchars(noNull(text, false), 'quotes', true);
  } finally {
    resetTokenMemo();
  }
}

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
  text = preKsesLessThan(text);
  if (blocks) text = filterBlockContent(text, ctx, (inner) => kses(inner, ctx, false, depth + 1));
  return split(text, ctx, blocks, (inner) => kses(inner, ctx, blocks, depth + 1));
}
