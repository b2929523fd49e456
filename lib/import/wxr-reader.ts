// Reads a WordPress export file (WXR) as a stream: each site header, author, term and post is
// yielded as soon as its closing tag is read, and only the entry being read is held, so the
// memory an export needs does not grow with its size. Elements are matched by the prefixes WordPress
// writes (wp:, content:, excerpt:, dc:); elements it does not know (comments, term meta, plugins'
// additions) are passed over.
import { XmlError, type XmlLimits, type XmlPosition, XmlStream } from '#lib/import/xml-stream.js';
import type { WxrAuthor, WxrEntry, WxrPost, WxrSite, WxrTerm } from '#lib/import/wxr-types.js';

export interface WxrLimits extends XmlLimits {
  /** The most text one entry may hold (all its fields and meta together), in characters. */
  maxEntryLength: number;
}

export const DEFAULT_WXR_LIMITS: WxrLimits = { maxDepth: 64, maxTagLength: 64 * 1024, maxEntryLength: 64 * 1024 * 1024 };

/** A file that is not a readable WordPress export, with where the reader stopped. */
export class WxrError extends Error {
  constructor(
    readonly reason: string,
    readonly at: XmlPosition,
  ) {
    super(`Not a readable WordPress export: ${reason} at line ${at.line}, column ${at.column} (offset ${at.offset})`);
    this.name = 'WxrError';
  }
}

type Setter<T> = (entry: T, text: string, at: XmlPosition) => void;

/** A whole number as WordPress writes one with `(int)`. */
function int(text: string, at: XmlPosition): number {
  const t = text.trim();
  if (t === '') return 0;
  if (!/^-?\d{1,16}$/.test(t)) throw new WxrError(`${JSON.stringify(t.slice(0, 40))} where a whole number belongs`, at);
  return Number(t);
}

/**
 * An entry's id: its number, with the text as written beside it when the two differ (too long for
 * a number, or no number at all). The importer refuses such an entry on its own, with that text;
 * the rest of the file is still read.
 */
function id(e: { id: number; idText?: string }, text: string): void {
  const t = text.trim();
  e.id = /^[+-]?\d+$/.test(t) ? Number(t) : t === '' ? 0 : Number.NaN;
  if (String(e.id) !== t) e.idText = t;
  else delete e.idText;
}

const SITE_FIELDS: Record<string, Setter<WxrSite>> = {
  title: (e, t) => void (e.title = t),
  link: (e, t) => void (e.link = t),
  language: (e, t) => void (e.language = t),
  'wp:wxr_version': (e, t) => void (e.wxrVersion = t.trim()),
  'wp:base_site_url': (e, t) => void (e.baseSiteUrl = t),
  'wp:base_blog_url': (e, t) => void (e.baseBlogUrl = t),
};

const AUTHOR_FIELDS: Record<string, Setter<WxrAuthor>> = {
  'wp:author_id': (e, t) => id(e, t),
  'wp:author_login': (e, t) => void (e.login = t),
  'wp:author_email': (e, t) => void (e.email = t),
  'wp:author_display_name': (e, t) => void (e.displayName = t),
  'wp:author_first_name': (e, t) => void (e.firstName = t),
  'wp:author_last_name': (e, t) => void (e.lastName = t),
};

// `<wp:category>`, `<wp:tag>` and `<wp:term>` name the same things differently.
const TERM_FIELDS: Record<string, Setter<WxrTerm>> = {
  'wp:term_id': (e, t) => id(e, t),
  'wp:category_nicename': (e, t) => void (e.slug = t),
  'wp:category_parent': (e, t) => void (e.parentSlug = t),
  'wp:cat_name': (e, t) => void (e.name = t),
  'wp:category_description': (e, t) => void (e.description = t),
  'wp:tag_slug': (e, t) => void (e.slug = t),
  'wp:tag_name': (e, t) => void (e.name = t),
  'wp:tag_description': (e, t) => void (e.description = t),
  'wp:term_taxonomy': (e, t) => void (e.taxonomy = t),
  'wp:term_slug': (e, t) => void (e.slug = t),
  'wp:term_parent': (e, t) => void (e.parentSlug = t),
  'wp:term_name': (e, t) => void (e.name = t),
  'wp:term_description': (e, t) => void (e.description = t),
};

const POST_FIELDS: Record<string, Setter<WxrPost>> = {
  title: (e, t) => void (e.title = t),
  link: (e, t) => void (e.link = t),
  guid: (e, t) => void (e.guid = t),
  'dc:creator': (e, t) => void (e.creator = t),
  'content:encoded': (e, t) => void (e.content = t),
  'excerpt:encoded': (e, t) => void (e.excerpt = t),
  'wp:post_id': (e, t) => id(e, t),
  'wp:post_date': (e, t) => void (e.date = t),
  'wp:post_date_gmt': (e, t) => void (e.dateGmt = t),
  'wp:post_modified': (e, t) => void (e.modified = t),
  'wp:post_modified_gmt': (e, t) => void (e.modifiedGmt = t),
  'wp:post_name': (e, t) => void (e.slug = t),
  'wp:status': (e, t) => void (e.status = t),
  'wp:post_parent': (e, t, at) => void (e.parent = int(t, at)),
  'wp:menu_order': (e, t, at) => void (e.menuOrder = int(t, at)),
  'wp:post_type': (e, t) => void (e.type = t),
  'wp:post_password': (e, t) => void (e.password = t),
  'wp:is_sticky': (e, t, at) => void (e.sticky = int(t, at) !== 0),
  'wp:attachment_url': (e, t) => void (e.attachmentUrl = t),
};

const site = (): WxrSite => ({ kind: 'site', title: '', link: '', baseSiteUrl: '', baseBlogUrl: '', language: '', wxrVersion: '' });
const author = (): WxrAuthor => ({ kind: 'author', id: 0, login: '', email: '', displayName: '', firstName: '', lastName: '' });
const term = (taxonomy: string): WxrTerm => ({ kind: 'term', id: 0, taxonomy, slug: '', name: '', description: '', parentSlug: '' });
/** An item with every field empty, as the reader starts one. */
export const emptyWxrPost = (): WxrPost => ({
  kind: 'post',
  id: 0,
  type: '',
  title: '',
  link: '',
  guid: '',
  creator: '',
  content: '',
  excerpt: '',
  date: '',
  dateGmt: '',
  modified: '',
  modifiedGmt: '',
  slug: '',
  status: '',
  parent: 0,
  menuOrder: 0,
  password: '',
  sticky: false,
  terms: [],
  meta: [],
});

type Pair = { key: string; value: string; into: [string, string][] };
const META_KEY: Setter<Pair> = (pair, text) => void (pair.key = text);
const META_VALUE: Setter<Pair> = (pair, text) => void (pair.value = text);
const TERM_OF_POST: Setter<{ post: WxrPost; taxonomy: string; slug: string }> = ({ post, taxonomy, slug }, name) => void post.terms.push({ taxonomy, slug, name });

/**
 * Turns the tokenizer's events into entries. Depths: 1 `<rss>`, 2 `<channel>`, 3 an entry (or a
 * header field), 4 an entry's field, 5 a meta pair's key or value.
 */
class WxrBuilder {
  readonly ready: WxrEntry[] = [];
  private site: WxrSite | undefined = site();
  private entry: WxrAuthor | WxrTerm | WxrPost | undefined;
  private fields: Record<string, Setter<never>> = {};
  /** The meta pair being read, and the list it goes to. */
  private pair: Pair | undefined;
  /** The element whose text is being gathered. */
  private field: { name: string; depth: number; parts: string[]; at: XmlPosition; set: Setter<never>; target: unknown } | undefined;
  /** Inside an element passed over, the depth it opened at. */
  private skipping = 0;
  private entryLength = 0;
  private sawChannel = false;
  private wxrVersion = '';

  constructor(private readonly maxEntryLength: number) {}

  open(name: string, attributes: Record<string, string>, depth: number, at: XmlPosition): void {
    if (this.skipping) return;
    if (this.field) throw new WxrError(`an element <${name}> inside <${this.field.name}>, which holds text`, at);
    if (depth === 1) {
      if (name !== 'rss') throw new WxrError(`the root element is <${name}>, where a WordPress export has <rss>`, at);
      return;
    }
    if (depth === 2) {
      if (name === 'channel') this.sawChannel = true;
      else this.skipping = depth;
      return;
    }
    if (depth === 3) {
      if (name === 'wp:author') this.begin(author(), AUTHOR_FIELDS);
      else if (name === 'wp:category') this.begin(term('category'), TERM_FIELDS);
      else if (name === 'wp:tag') this.begin(term('post_tag'), TERM_FIELDS);
      else if (name === 'wp:term') this.begin(term(''), TERM_FIELDS);
      else if (name === 'item') this.begin(emptyWxrPost(), POST_FIELDS);
      else if (this.site && Object.hasOwn(SITE_FIELDS, name)) this.gather(name, depth, at, SITE_FIELDS[name]!, this.site);
      else this.skipping = depth;
      return;
    }
    const entry = this.entry;
    if (depth === 4 && entry) {
      if (entry.kind === 'post' && name === 'category') {
        const { domain = '', nicename = '' } = attributes;
        // WXR 1.0 files also carry a `<category>` without a domain, the old copy of a post category: skipped.
        if (!domain) this.skipping = depth;
        else this.gather(name, depth, at, TERM_OF_POST, { post: entry, taxonomy: domain, slug: nicename });
        return;
      }
      if (entry.kind === 'post' && name === 'wp:postmeta') {
        this.pair = { key: '', value: '', into: entry.meta };
        return;
      }
      // Own keys only: an element named `constructor` or `__proto__` is just unknown.
      const set = Object.hasOwn(this.fields, name) ? (this.fields[name] as Setter<typeof entry>) : undefined;
      if (set) this.gather(name, depth, at, set, entry);
      else this.skipping = depth;
      return;
    }
    if (depth === 5 && this.pair) {
      const pair = this.pair;
      if (name === 'wp:meta_key') this.gather(name, depth, at, META_KEY, pair);
      else if (name === 'wp:meta_value') this.gather(name, depth, at, META_VALUE, pair);
      else this.skipping = depth;
      return;
    }
    this.skipping = depth;
  }

  text(text: string, at: XmlPosition): void {
    if (this.skipping || !this.field) return;
    this.entryLength += text.length;
    if (this.entryLength > this.maxEntryLength) throw new WxrError(`an entry holding more than ${this.maxEntryLength} characters of text`, at);
    this.field.parts.push(text);
  }

  close(name: string, depth: number): void {
    if (this.skipping) {
      if (depth === this.skipping) this.skipping = 0;
      return;
    }
    const field = this.field;
    if (field && depth === field.depth) {
      this.field = undefined;
      (field.set as Setter<unknown>)(field.target, field.parts.length === 1 ? field.parts[0]! : field.parts.join(''), field.at);
      return;
    }
    if (depth === 4 && this.pair && name === 'wp:postmeta') {
      this.pair.into.push([this.pair.key, this.pair.value]);
      this.pair = undefined;
      return;
    }
    if (depth === 3 && this.entry) {
      this.ready.push(this.entry);
      this.entry = undefined;
      this.entryLength = 0;
      return;
    }
    if (depth === 2 && name === 'channel') this.flushSite();
  }

  /** The end of the input: the file must have been an export. */
  finish(at: XmlPosition): void {
    if (!this.sawChannel) throw new WxrError('no <channel> in <rss>', at);
    // Every export WordPress writes names its format's version; an RSS feed has no such element.
    if (!this.wxrVersion) throw new WxrError('an RSS feed without <wp:wxr_version>, which every WordPress export has (Tools → Export writes one)', at);
  }

  private begin(entry: WxrAuthor | WxrTerm | WxrPost, fields: Record<string, Setter<never>>): void {
    this.flushSite();
    this.entry = entry;
    this.fields = fields;
    this.entryLength = 0;
  }

  /** The header ends where the first entry starts (or with the channel). */
  private flushSite(): void {
    if (!this.site) return;
    this.wxrVersion = this.site.wxrVersion;
    this.ready.push(this.site);
    this.site = undefined;
  }

  /** Gathers the element's text for `set`, called with `target` when the element closes. */
  private gather<T>(name: string, depth: number, at: XmlPosition, set: Setter<T>, target: T): void {
    this.field = { name, depth, parts: [], at, set: set as Setter<never>, target };
  }
}

/**
 * The entries of a WordPress export, in file order, from its bytes (UTF-8) or text in chunks of any
 * size. Throws a WxrError, with the line and column, for anything that is not a well-formed export.
 */
export async function* readWxr(input: AsyncIterable<Uint8Array | string>, limits: Partial<WxrLimits> = {}): AsyncIterable<WxrEntry> {
  const { maxEntryLength, ...xmlLimits } = { ...DEFAULT_WXR_LIMITS, ...limits };
  const builder = new WxrBuilder(maxEntryLength);
  const xml = new XmlStream(builder, xmlLimits);
  const decoder = new TextDecoder('utf-8', { fatal: true });
  let bytes = 0;
  let first = true;
  const feed = (text: string) => {
    // TextDecoder drops a byte order mark; text handed over as strings may still start with one.
    if (first && text.length > 0) {
      first = false;
      if (text.charCodeAt(0) === 0xfeff) text = text.slice(1);
    }
    xml.write(text);
  };
  try {
    for await (const chunk of input) {
      if (typeof chunk === 'string') feed(chunk);
      else {
        let text: string;
        try {
          text = decoder.decode(chunk, { stream: true });
        } catch {
          throw new WxrError(`bytes that are not UTF-8 (in the ${chunk.length} bytes after byte ${bytes})`, xml.position());
        }
        bytes += chunk.length;
        feed(text);
      }
      yield* builder.ready.splice(0);
    }
    try {
      feed(decoder.decode());
    } catch {
      throw new WxrError('the input ends inside a UTF-8 character', xml.position());
    }
    xml.end();
    builder.finish(xml.position());
    yield* builder.ready.splice(0);
  } catch (err) {
    if (err instanceof XmlError) throw new WxrError(err.reason, err.at);
    throw err;
  }
}
