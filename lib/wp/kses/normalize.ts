// wp_kses_normalize_entities as kses runs it: one pass per kind of reference, in WordPress's
// order. The references themselves are read by lib/wp/entities.ts.
import { decimalReference, hexReference, namedReference } from '../entities.js';
import { replaceAll } from '../php.js';
import { rewriteAfter } from './scan.js';

/**
 * wp_kses_normalize_entities: every `&` becomes `&amp;`, then allowed named references, valid
 * decimal and valid hexadecimal references are restored, in that order (so `&amp;#39;` turns
 * into `&#039;`, as WordPress 6.8 does). `&#0;` and `&#x0;` vanish (PHP's empty('0')).
 * (lib/wp/entities.ts's normalizeEntities reads each `&` once: there `&amp;#39;` stays.)
 */
export function normalizeEntities(text: string): string {
  if (!text.includes('&')) return text;
  let out = replaceAll(text, '&', '&amp;');
  out = rewriteAfter(out, '&amp;', namedReference);
  out = rewriteAfter(out, '&amp;#', decimalReference);
  out = rewriteAfter(out, '&amp;#', hexReference);
  return out;
}
