// The allowed HTML: $allowedposttags, $allowedtags and the term-description variant as the
// contexts the filters run with, how each attribute is checked, and the URI attributes.

/** Options for ksesPost. */
export interface KsesOptions {
  /**
   * The site's uploads URL (wp_upload_dir()['url']). WordPress keeps
   * `<object type="application/pdf" data="…">` only for PDFs on that host (and port); without
   * it every `<object>` loses its attributes, as it would on a site whose uploads are elsewhere.
   */
  uploadsUrl?: string;
}

/** How one attribute is checked: `true` allows any value. */
export type AttrRule =
  | true
  | {
      valueless?: 'y' | 'n';
      required?: boolean;
      values?: readonly string[];
      valueCallback?: (value: string, ctx: Ctx) => boolean;
    };

/** Element name -> allowed attributes; an empty map means "no attributes at all". */
type TagList = ReadonlyMap<string, ReadonlyMap<string, AttrRule>>;

export interface Ctx {
  readonly tags: TagList;
  /** `http://host[:port]/` prefixes a PDF `<object data>` must start with. */
  readonly pdfPrefixes: readonly string[];
}

const GLOBAL_ATTRIBUTES = [
  'aria-controls',
  'aria-current',
  'aria-describedby',
  'aria-details',
  'aria-expanded',
  'aria-hidden',
  'aria-label',
  'aria-labelledby',
  'aria-live',
  'class',
  'data-*',
  'dir',
  'hidden',
  'id',
  'lang',
  'style',
  'title',
  'role',
  'xml:lang',
];

const ALIGN = ['align'];
const CELL = ['abbr', 'align', 'axis', 'bgcolor', 'char', 'charoff', 'colspan', 'headers', 'height', 'nowrap', 'rowspan', 'scope', 'valign', 'width'];
const COLUMN = ['align', 'char', 'charoff', 'span', 'valign', 'width'];
const SECTION = ['align', 'char', 'charoff', 'valign'];

/** $allowedposttags, before the global attributes are merged in. */
const POST_TAG_ATTRIBUTES: Record<string, readonly string[]> = {
  address: [],
  a: ['href', 'rel', 'rev', 'name', 'target', 'download'],
  abbr: [],
  acronym: [],
  area: ['alt', 'coords', 'href', 'nohref', 'shape', 'target'],
  article: ALIGN,
  aside: ALIGN,
  audio: ['autoplay', 'controls', 'loop', 'muted', 'preload', 'src'],
  b: [],
  bdo: [],
  big: [],
  blockquote: ['cite'],
  br: [],
  button: ['disabled', 'name', 'type', 'value'],
  caption: ALIGN,
  cite: [],
  code: [],
  col: COLUMN,
  colgroup: COLUMN,
  del: ['datetime'],
  dd: [],
  dfn: [],
  details: ['align', 'open'],
  div: ALIGN,
  dl: [],
  dt: [],
  em: [],
  fieldset: [],
  figure: ALIGN,
  figcaption: ALIGN,
  font: ['color', 'face', 'size'],
  footer: ALIGN,
  h1: ALIGN,
  h2: ALIGN,
  h3: ALIGN,
  h4: ALIGN,
  h5: ALIGN,
  h6: ALIGN,
  header: ALIGN,
  hgroup: ALIGN,
  hr: ['align', 'noshade', 'size', 'width'],
  i: [],
  img: ['alt', 'align', 'border', 'height', 'hspace', 'loading', 'longdesc', 'vspace', 'src', 'usemap', 'width'],
  ins: ['datetime', 'cite'],
  kbd: [],
  label: ['for'],
  legend: ALIGN,
  li: ['align', 'value'],
  main: ALIGN,
  map: ['name'],
  mark: [],
  menu: ['type'],
  nav: ALIGN,
  object: ['data', 'type'],
  p: ALIGN,
  pre: ['width'],
  q: ['cite'],
  rb: [],
  rp: [],
  rt: [],
  rtc: [],
  ruby: [],
  s: [],
  samp: [],
  span: ALIGN,
  section: ALIGN,
  small: [],
  strike: [],
  strong: [],
  sub: [],
  summary: ALIGN,
  sup: [],
  table: ['align', 'bgcolor', 'border', 'cellpadding', 'cellspacing', 'rules', 'summary', 'width'],
  tbody: SECTION,
  td: CELL,
  textarea: ['cols', 'rows', 'disabled', 'name', 'readonly'],
  tfoot: SECTION,
  th: CELL,
  thead: SECTION,
  title: [],
  tr: ['align', 'bgcolor', 'char', 'charoff', 'valign'],
  track: ['default', 'kind', 'label', 'src', 'srclang'],
  tt: [],
  u: [],
  ul: ['type'],
  ol: ['start', 'type', 'reversed'],
  var: [],
  video: ['autoplay', 'controls', 'height', 'loop', 'muted', 'playsinline', 'poster', 'preload', 'src', 'width'],
};

/** Attributes of $allowedposttags that carry checks instead of `true`. */
const POST_ATTRIBUTE_RULES: Record<string, Record<string, AttrRule>> = {
  a: { download: { valueless: 'y' } },
  object: {
    data: { required: true, valueCallback: allowPdfObject },
    type: { required: true, values: ['application/pdf'] },
  },
};

/** $allowedtags: what titles (and, with two more `<a>` attributes, term descriptions) keep. */
const TITLE_TAG_ATTRIBUTES: Record<string, readonly string[]> = {
  a: ['href', 'title'],
  abbr: ['title'],
  acronym: ['title'],
  b: [],
  blockquote: ['cite'],
  cite: [],
  code: [],
  del: ['datetime'],
  em: [],
  i: [],
  q: ['cite'],
  s: [],
  strike: [],
  strong: [],
};

function buildTags(attributes: Record<string, readonly string[]>, rules: Record<string, Record<string, AttrRule>>, globals: readonly string[]): TagList {
  const tags = new Map<string, Map<string, AttrRule>>();
  for (const [tag, names] of Object.entries(attributes)) {
    const attrs = new Map<string, AttrRule>();
    for (const name of names) attrs.set(name, rules[tag]?.[name] ?? true);
    for (const name of globals) attrs.set(name, true);
    tags.set(tag, attrs);
  }
  return tags;
}

const POST_TAGS = buildTags(POST_TAG_ATTRIBUTES, POST_ATTRIBUTE_RULES, GLOBAL_ATTRIBUTES);
const TITLE_TAGS = buildTags(TITLE_TAG_ATTRIBUTES, {}, []);
const TERM_TAGS = buildTags({ ...TITLE_TAG_ATTRIBUTES, a: ['href', 'title', 'rel', 'target'] }, {}, []);

export const TITLE_CONTEXT: Ctx = { tags: TITLE_TAGS, pdfPrefixes: [] };
export const TERM_CONTEXT: Ctx = { tags: TERM_TAGS, pdfPrefixes: [] };
const DEFAULT_POST_CONTEXT: Ctx = { tags: POST_TAGS, pdfPrefixes: [] };

export function postContext(options: KsesOptions): Ctx {
  if (typeof options?.uploadsUrl !== 'string') return DEFAULT_POST_CONTEXT;
  // wp_parse_url() host and port of the uploads URL.
  const match = /^[A-Za-z][A-Za-z0-9+.-]*:\/\/(?:[^/?#@]*@)?([^/?#:]*)(?::(\d+))?/.exec(options.uploadsUrl);
  const host = match?.[1] ?? '';
  const port = match?.[2] !== undefined ? `:${match[2]}` : '';
  return { tags: POST_TAGS, pdfPrefixes: [`http://${host}${port}/`, `https://${host}${port}/`] };
}

/** _wp_kses_allow_pdf_objects: a .pdf on the uploads host, without query or fragment. */
function allowPdfObject(url: string, ctx: Ctx): boolean {
  if (url.includes('?') || url.includes('#') || !url.endsWith('.pdf')) return false;
  return ctx.pdfPrefixes.some((prefix) => url.startsWith(prefix));
}

/** wp_kses_uri_attributes(): values that are run through the protocol check. */
export const URI_ATTRIBUTES = new Set([
  'action',
  'archive',
  'background',
  'cite',
  'classid',
  'codebase',
  'data',
  'formaction',
  'href',
  'icon',
  'longdesc',
  'manifest',
  'poster',
  'profile',
  'src',
  'usemap',
  'xmlns',
]);

// KSES_ENTITIES ($allowedentitynames) and the references htmlspecialchars() keeps come from lib/wp/entities.ts,
// wp_allowed_protocols() is in ./protocols.ts and safecss_filter_attr()'s properties in ./css.ts.
