// Text rendering helpers: WordPress's wpautop (as the_content / the_excerpt apply it), PHP's
// htmlspecialchars and a tag stripper.

const BLOCK_START_RE = /^<(?:p|div|ul|ol|h[1-6]|blockquote|pre|table|figure|section)(?=[\s>/])/i;

/**
 * WordPress's the_content / the_excerpt, reduced to wpautop. Blank-line separated blocks become
 * <p>…</p> (joined with '\n'), single newlines inside a block become '<br />\n', blocks that
 * already start with a block-level tag are left alone. '' for blank input.
 */
export function renderContent(text: string): string {
  const normalised = text.replace(/\r\n?/g, '\n').trim();
  if (normalised === '') return '';
  const blocks = normalised
    .split(/\n[ \t]*\n/)
    .map((block) => block.trim())
    .filter((block) => block !== '');
  return blocks
    .map((block) => {
      if (BLOCK_START_RE.test(block)) return block;
      const lines = block.split('\n').map((line) => line.trimEnd());
      return `<p>${lines.join('<br />\n')}</p>`;
    })
    .join('\n')
    .trim();
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

const BLOCK_TAG_RE =
  /<\/?(?:p|div|br|hr|li|ul|ol|h[1-6]|blockquote|pre|table|tr|td|th|thead|tbody|figure|figcaption|section|article|header|footer)\b[^>]*>/gi;

/**
 * Strips HTML tags (and the contents of script/style elements and comments), collapses
 * whitespace and trims. Block-level tags and <br> count as word breaks ('<p>a</p><p>b</p>' ->
 * 'a b'); inline tags do not ('Hel<b>lo</b>' -> 'Hello'). Entities are left as they are.
 */
export function stripTags(html: string): string {
  return html
    .replace(/<!--[\s\S]*?-->/g, ' ')
    .replace(/<(script|style)\b[^>]*>[\s\S]*?<\/\1\s*>/gi, ' ')
    .replace(BLOCK_TAG_RE, ' ')
    .replace(/<\/?[a-z!][^>]*>/gi, '')
    .replace(/\s+/g, ' ')
    .trim();
}
