// The plain text an event is searched by: its HTML without tags, comments, scripts and styles.

const SEARCH_BLOCK_TAGS = [
  'p',
  'div',
  'br',
  'hr',
  'li',
  'ul',
  'ol',
  'h1',
  'h2',
  'h3',
  'h4',
  'h5',
  'h6',
  'blockquote',
  'pre',
  'table',
  'tr',
  'td',
  'th',
  'thead',
  'tbody',
  'figure',
  'figcaption',
  'section',
  'article',
  'header',
  'footer',
];

const isJsWordChar = (ch: string | undefined) => ch !== undefined && /\w/.test(ch);

/** Replaces `<!--…-->` (to the first `-->`; unclosed ones stay) with a space. */
function spaceOutComments(text: string): string {
  const out: string[] = [];
  let copied = 0;
  let i = text.indexOf('<!--');
  while (i !== -1) {
    const close = text.indexOf('-->', i + 4);
    if (close === -1) break;
    out.push(text.slice(copied, i), ' ');
    copied = close + 3;
    i = text.indexOf('<!--', copied);
  }
  out.push(text.slice(copied));
  return out.join('');
}

/** Replaces `<script …>…</script>` and `<style …>…</style>` (any case; unclosed ones stay) with a space. */
function spaceOutRawElements(text: string): string {
  const lower = text.toLowerCase().length === text.length ? text.toLowerCase() : text.replace(/[A-Z]+/g, (r) => r.toLowerCase());
  const exhausted = new Set<string>();
  const out: string[] = [];
  let copied = 0;
  let i = lower.indexOf('<');
  while (i !== -1) {
    const name = ['script', 'style'].find((n) => !exhausted.has(n) && lower.startsWith(n, i + 1) && !isJsWordChar(lower[i + 1 + n.length]));
    if (name === undefined) {
      i = lower.indexOf('<', i + 1);
      continue;
    }
    const gt = lower.indexOf('>', i + 1 + name.length);
    let end = -1;
    for (let c = gt === -1 ? -1 : lower.indexOf(`</${name}`, gt + 1); c !== -1; c = lower.indexOf(`</${name}`, c + 1)) {
      let k = c + 2 + name.length;
      while (k < lower.length && /\s/.test(lower[k]!)) k++;
      if (lower[k] === '>') {
        end = k + 1;
        break;
      }
    }
    if (end === -1) {
      exhausted.add(name);
      continue;
    }
    out.push(text.slice(copied, i), ' ');
    copied = end;
    i = lower.indexOf('<', end);
  }
  out.push(text.slice(copied));
  return out.join('');
}

/** Every `<` (or `</`) whose name `accepts`, up to the next `>`, replaced by `replacement`. */
function replaceTags(text: string, accepts: (nameAt: number) => boolean, replacement: string): string {
  const out: string[] = [];
  let copied = 0;
  let gt = -1;
  let i = text.indexOf('<');
  while (i !== -1) {
    if (gt < i) gt = text.indexOf('>', i + 1);
    if (gt === -1) break;
    if (!accepts(text[i + 1] === '/' ? i + 2 : i + 1)) {
      i = text.indexOf('<', i + 1);
      continue;
    }
    out.push(text.slice(copied, i), replacement);
    copied = gt + 1;
    i = text.indexOf('<', copied);
  }
  out.push(text.slice(copied));
  return out.join('');
}

/** Tags: block-level ones (and `<br>`) become a space, then all others go. */
function dropTags(text: string): string {
  const blocks = replaceTags(
    text,
    (at) => {
      const lowerName = text.slice(at, at + 11).toLowerCase();
      return SEARCH_BLOCK_TAGS.some((n) => lowerName.startsWith(n) && !isJsWordChar(text[at + n.length]));
    },
    ' ',
  );
  return replaceTags(blocks, (at) => blocks[at] !== undefined && /[a-z!]/i.test(blocks[at]!), '');
}

/**
 * Strips HTML tags (and the contents of script/style elements and comments), collapses
 * whitespace and trims, for searching. Block-level tags and <br> count as word breaks
 * ('<p>a</p><p>b</p>' -> 'a b'); inline tags do not ('Hel<b>lo</b>' -> 'Hello'). One forward
 * pass per step, whatever the input.
 */
export function stripTags(html: string): string {
  if (!html.includes('<')) return html.replace(/\s+/g, ' ').trim();
  return dropTags(spaceOutRawElements(spaceOutComments(html)))
    .replace(/\s+/g, ' ')
    .trim();
}
