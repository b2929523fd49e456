// WordPress's readings of its REST API's global parameters: wp_parse_list() (`_fields`) and
// rest_parse_embed_param() (`_embed`).

const SCALAR = new Set(['string', 'number', 'boolean']);

/** wp_parse_list: a string split on commas and white space, or a list's scalar items, trimmed. */
export function wpParseList(value: unknown): string[] {
  if (Array.isArray(value)) return value.filter((v) => SCALAR.has(typeof v)).map((v) => String(v).trim());
  if (typeof value === 'object' && value !== null) return Object.values(value).flatMap((v) => (SCALAR.has(typeof v) ? [String(v).trim()] : []));
  if (value === undefined || value === null) return [];
  return String(value)
    .split(/[\s,]+/)
    .filter((f) => f !== '');
}

/**
 * rest_parse_embed_param: `_embed` absent is no embedding; present and empty, `true` or `1` embeds
 * every embeddable link; otherwise the link relations listed (`author,wp:term`).
 */
export function parseEmbed(value: unknown): true | string[] | undefined {
  if (value === undefined || value === null) return undefined;
  if (value === '' || value === 'true' || value === '1' || value === true || value === 1) return true;
  const rels = wpParseList(value);
  return rels.length ? rels : true;
}
