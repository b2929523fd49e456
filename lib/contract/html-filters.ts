// The save-time HTML filters that text arguments name (`Arg.html`). Only the functions whose
// operations take such arguments import this module, so read bundles carry no kses.
import { ksesPost, ksesTermDescription, ksesTitle } from '#lib/wp/kses/filters.js';
import type { HtmlFilters } from './params.js';
import { specialchars } from '#lib/wp/entities.js';
import { sanitizeTextField } from '#lib/wp/strip.js';

/**
 * A term name as WordPress stores it (pre_term_name: sanitize_text_field, wp_filter_kses,
 * _wp_specialchars): tags stripped, whitespace collapsed, `& < >` as entities, quotes as typed.
 * Applying it to its own result changes nothing, so stored names are shown as they are.
 */
export function renderTermName(raw: string): string {
  return specialchars(ksesTitle(sanitizeTextField(raw)), 'noquotes');
}

export const HTML_FILTERS: HtmlFilters = {
  post: (html) => ksesPost(html),
  title: ksesTitle,
  termDescription: ksesTermDescription,
  termName: renderTermName,
  // A venue's or organizer's own fields are post meta, which TEC saves through sanitize_text_field
  // for every user: tags and the content of script and style go, `&` stays as typed.
  meta: sanitizeTextField,
};
