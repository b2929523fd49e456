// A small push tokenizer for the XML that WordPress writes in its export files: elements,
// attributes, character data, CDATA sections, comments and processing instructions, the five
// predefined entities and character references. Text arrives in chunks that may split anywhere; the
// tokenizer keeps only the unfinished token, and hands text over as it goes, so a long CDATA section
// never sits whole in its buffer. No DTD (WordPress writes none, and one could define entities that
// expand without bound), so any other named entity is an error. WordPress's export cannot hold one:
// it writes the channel's texts through ent2ncr (`&nbsp;` as `&#160;`) and the rest in CDATA
// (test/tec/wxr-entities.test.ts sets the live site's tagline to hold some and exports it).

/** Where something is in the input: line and column from 1, offset in characters from 0. */
export interface XmlPosition {
  line: number;
  column: number;
  offset: number;
}

/** A malformed or over-limit input, with where it was found. */
export class XmlError extends Error {
  constructor(
    readonly reason: string,
    readonly at: XmlPosition,
  ) {
    super(`${reason} (line ${at.line}, column ${at.column}, offset ${at.offset})`);
    this.name = 'XmlError';
  }
}

export interface XmlHandler {
  /** A start tag; `depth` counts it (the root element is at depth 1). */
  open(name: string, attributes: Record<string, string>, depth: number, at: XmlPosition): void;
  close(name: string, depth: number): void;
  /** Character data, entities decoded, or a CDATA section's content, in pieces of any size. */
  text(text: string, at: XmlPosition): void;
}

export interface XmlLimits {
  /** The deepest element nesting accepted. */
  maxDepth: number;
  /** The longest tag (name and attributes), comment or processing instruction, in characters. */
  maxTagLength: number;
}

export const DEFAULT_XML_LIMITS: XmlLimits = { maxDepth: 64, maxTagLength: 64 * 1024 };

const PREDEFINED: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" };
/** The longest entity reference kept back when a chunk ends inside one: `&#x10FFFF;`. */
const LONGEST_REFERENCE = 10;
const NAME = /^[A-Za-z_:\u00C0-\uFFFF][-A-Za-z0-9_:.\u00B7\u00C0-\uFFFF]*$/;
const ATTRIBUTE = /\s*([^\s=/>]+)\s*=\s*(?:"([^"]*)"|'([^']*)')/y;

type State = 'text' | 'cdata' | 'comment';

export class XmlStream {
  private buf = '';
  private pos = 0;
  /** Characters consumed before `buf`, and the line of `buf[pos]` with the offset its line starts at. */
  private base = 0;
  private line = 1;
  private lineStart = 0;
  private state: State = 'text';
  /** Where the open CDATA section or comment started, for the error when it never ends. */
  private opened: XmlPosition = { line: 1, column: 1, offset: 0 };
  private readonly stack: { name: string; at: XmlPosition }[] = [];
  private rootClosed = false;
  private seenRoot = false;
  private readonly limits: XmlLimits;

  constructor(
    private readonly handler: XmlHandler,
    limits: Partial<XmlLimits> = {},
  ) {
    this.limits = { ...DEFAULT_XML_LIMITS, ...limits };
  }

  /** The position of `buf[index]` (index at or after `pos`). */
  private where(index: number = this.pos): XmlPosition {
    let line = this.line;
    let lineStart = this.lineStart;
    for (let i = this.buf.indexOf('\n', this.pos); i >= 0 && i < index; i = this.buf.indexOf('\n', i + 1)) {
      line++;
      lineStart = this.base + i + 1;
    }
    const offset = this.base + index;
    return { line, column: offset - lineStart + 1, offset };
  }

  /** Where the input read so far ends. */
  position(): XmlPosition {
    return this.where(this.buf.length);
  }

  private fail(reason: string, index: number = this.pos): never {
    throw new XmlError(reason, this.where(index));
  }

  /** Moves past `buf[pos..to)`, counting its lines. */
  private advance(to: number): void {
    for (let i = this.buf.indexOf('\n', this.pos); i >= 0 && i < to; i = this.buf.indexOf('\n', i + 1)) {
      this.line++;
      this.lineStart = this.base + i + 1;
    }
    this.pos = to;
  }

  write(chunk: string): void {
    this.buf = this.pos < this.buf.length ? this.buf.slice(this.pos) + chunk : chunk;
    this.base += this.pos;
    this.pos = 0;
    this.run(false);
  }

  /** The input is complete: anything unfinished is an error. */
  end(): void {
    this.run(true);
    if (this.state === 'cdata') throw new XmlError('a CDATA section is never closed', this.opened);
    if (this.state === 'comment') throw new XmlError('a comment is never closed', this.opened);
    const open = this.stack.at(-1);
    if (open) this.fail(`the input ends inside <${open.name}>, opened at line ${open.at.line}, column ${open.at.column}`, this.buf.length);
    if (!this.seenRoot) this.fail('the input holds no XML element', this.buf.length);
  }

  private run(final: boolean): void {
    const buf = this.buf;
    while (this.pos < buf.length) {
      if (this.state === 'cdata') {
        const end = buf.indexOf(']]>', this.pos);
        // Keep back a `]` or `]]` that may start the end of the section in the next chunk.
        const stop = end >= 0 ? end : final ? buf.length : Math.max(this.pos, buf.length - 2);
        if (stop > this.pos) {
          const at = this.where();
          const text = buf.slice(this.pos, stop);
          this.advance(stop);
          this.handler.text(text, at);
        }
        if (end < 0) return;
        this.advance(end + 3);
        this.state = 'text';
        continue;
      }
      if (this.state === 'comment') {
        const end = buf.indexOf('-->', this.pos);
        if (end < 0) {
          this.advance(final ? buf.length : Math.max(this.pos, buf.length - 2));
          return;
        }
        this.advance(end + 3);
        this.state = 'text';
        continue;
      }
      const lt = buf.indexOf('<', this.pos);
      if (lt !== this.pos) {
        let stop = lt >= 0 ? lt : buf.length;
        if (lt < 0 && !final) {
          // Keep back an entity reference the chunk cuts in two.
          const amp = buf.lastIndexOf('&');
          if (amp >= this.pos && buf.length - amp <= LONGEST_REFERENCE && !buf.includes(';', amp)) stop = amp;
        }
        if (stop > this.pos) this.characters(stop);
        if (lt < 0) return;
      }
      if (!this.markup(final)) return;
    }
  }

  /** Character data from `pos` up to `stop`. */
  private characters(stop: number): void {
    const raw = this.buf.slice(this.pos, stop);
    const at = this.where();
    const text = raw.includes('&') ? this.decode(raw, this.pos) : raw;
    if (this.stack.length === 0 && text.trim() !== '') this.fail('text outside the root element');
    this.advance(stop);
    this.handler.text(text, at);
  }

  /** Entity and character references in `raw`, which starts at `buf[from]`. */
  private decode(raw: string, from: number): string {
    return raw.replace(/&([^;&<\s]{0,12});?/g, (whole, ref: string, index: number) => {
      if (!whole.endsWith(';')) this.fail(`an "&" that starts no entity reference: ${JSON.stringify(raw.slice(index, index + 12))}`, from + index);
      if (ref.startsWith('#')) {
        const hex = ref[1] === 'x';
        const digits = ref.slice(hex ? 2 : 1);
        const code = (hex ? /^[0-9A-Fa-f]{1,6}$/ : /^[0-9]{1,7}$/).test(digits) ? Number.parseInt(digits, hex ? 16 : 10) : Number.NaN;
        if (!(code >= 1 && code <= 0x10ffff) || (code >= 0xd800 && code <= 0xdfff)) this.fail(`an invalid character reference ${whole}`, from + index);
        return String.fromCodePoint(code);
      }
      const value = PREDEFINED[ref];
      if (value === undefined) this.fail(`an unknown entity ${whole} (XML knows only &amp; &lt; &gt; &quot; &apos; and numeric references)`, from + index);
      return value;
    });
  }

  /** The markup at `buf[pos]` (a `<`); false when the chunk ends before it does. */
  private markup(final: boolean): boolean {
    const buf = this.buf;
    const start = this.pos;
    if (!this.has(2, final)) return false;
    const second = buf[start + 1];
    if (second === '!') {
      if (!this.has(4, final)) return false;
      if (buf.startsWith('<!--', start)) {
        this.opened = this.where();
        this.advance(start + 4);
        this.state = 'comment';
        return true;
      }
      if (!this.has(9, final)) return false;
      if (buf.startsWith('<![CDATA[', start)) {
        if (this.stack.length === 0) this.fail('a CDATA section outside the root element');
        this.opened = this.where();
        this.advance(start + 9);
        this.state = 'cdata';
        return true;
      }
      if (buf.startsWith('<!DOCTYPE', start)) this.fail('a document type declaration (a WordPress export has none, and its entities are not supported)');
      this.fail(`unknown markup ${JSON.stringify(buf.slice(start, start + 9))}`);
    }
    if (second === '?') {
      const end = buf.indexOf('?>', start + 2);
      if (end < 0) return this.wait(final, 'a processing instruction is never closed');
      const encoding = /^<\?xml\s[^>]*encoding\s*=\s*["']([^"']*)/.exec(buf.slice(start, end))?.[1];
      if (encoding !== undefined && !/^utf-?8$/i.test(encoding)) this.fail(`the encoding ${encoding}: only UTF-8 is read`);
      this.advance(end + 2);
      return true;
    }
    const end = second === '/' ? buf.indexOf('>', start) : tagEnd(buf, start);
    if (end < -1) this.fail('a tag is not closed before the next "<"');
    if (end < 0) return this.wait(final, 'a tag is never closed');
    if (end - start > this.limits.maxTagLength) this.fail(`a tag longer than ${this.limits.maxTagLength} characters`);
    if (second === '/') this.endTag(buf.slice(start + 2, end).trimEnd());
    else this.startTag(buf.slice(start + 1, end));
    this.advance(end + 1);
    return true;
  }

  /** Whether `n` characters of markup are there from `pos`; at the end of the input they must be. */
  private has(n: number, final: boolean): boolean {
    if (this.buf.length - this.pos >= n) return true;
    if (final) this.fail('the input ends inside a tag');
    return false;
  }

  /** The chunk ended inside a tag: wait for more, unless it is already too long or the input is over. */
  private wait(final: boolean, reason: string): false {
    if (final) this.fail(reason);
    if (this.buf.length - this.pos > this.limits.maxTagLength) this.fail(`${reason} within ${this.limits.maxTagLength} characters`);
    return false;
  }

  private startTag(inner: string): void {
    const selfClosing = inner.endsWith('/');
    const body = selfClosing ? inner.slice(0, -1) : inner;
    const nameEnd = body.search(/[\s]|$/);
    const name = body.slice(0, nameEnd);
    if (!NAME.test(name)) this.fail(`an invalid element name ${JSON.stringify(name)}`);
    if (this.stack.length === 0 && (this.seenRoot || this.rootClosed)) this.fail(`a second root element <${name}>`);
    if (this.stack.length >= this.limits.maxDepth) this.fail(`elements nested deeper than ${this.limits.maxDepth}`);
    const attributes: Record<string, string> = {};
    ATTRIBUTE.lastIndex = nameEnd;
    let i = nameEnd;
    for (let m = ATTRIBUTE.exec(body); m; m = ATTRIBUTE.exec(body)) {
      const key = m[1]!;
      if (Object.hasOwn(attributes, key)) this.fail(`the attribute ${key} twice in <${name}>`);
      const raw = (m[2] ?? m[3]!).replace(/[\t\n\r]/g, ' ');
      if (raw.includes('<')) this.fail(`a "<" in the value of ${key} in <${name}>`);
      attributes[key] = raw.includes('&') ? this.decode(raw, this.pos) : raw;
      i = ATTRIBUTE.lastIndex;
    }
    if (body.slice(i).trim() !== '') this.fail(`a malformed attribute in <${name}>: ${JSON.stringify(body.slice(i).trim().slice(0, 40))}`);
    const at = this.where();
    this.seenRoot = true;
    this.stack.push({ name, at });
    this.handler.open(name, attributes, this.stack.length, at);
    if (selfClosing) this.closeTop();
  }

  private endTag(name: string): void {
    if (!NAME.test(name)) this.fail(`an invalid closing tag </${name.slice(0, 40)}>`);
    const open = this.stack.at(-1);
    if (!open) this.fail(`a closing tag </${name}> with no element open`);
    if (open.name !== name) this.fail(`</${name}> closes <${open.name}>, opened at line ${open.at.line}, column ${open.at.column}`);
    this.closeTop();
  }

  private closeTop(): void {
    const depth = this.stack.length;
    const { name } = this.stack.pop()!;
    if (depth === 1) this.rootClosed = true;
    this.handler.close(name, depth);
  }
}

/** The index of the `>` that ends the start tag at `start`, past quoted attribute values; -1 if not yet there, -2 if a `<` comes first. */
function tagEnd(buf: string, start: number): number {
  let quote = '';
  for (let i = start + 1; i < buf.length; i++) {
    const c = buf[i];
    if (quote) {
      if (c === quote) quote = '';
    } else if (c === '"' || c === "'") quote = c;
    else if (c === '>') return i;
    else if (c === '<') return -2;
  }
  return -1;
}
