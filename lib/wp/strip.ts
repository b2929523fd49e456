// Tag stripping and plain-text sanitising as WordPress 6.8 does them: PHP's strip_tags(),
// wp_strip_all_tags(), wp_pre_kses_less_than(), sanitize_text_field() and wp_trim_words().
import { escHtml } from './entities.js';
import { asciiLower, checkInvalidUtf8, ForwardFinder, isCSpace, phpTrim, replaceAll } from './php.js';

/**
 * PHP's strip_tags( $text ) (no allowed tags): its state machine over HTML tags, `<?…?>`
 * processing instructions, `<!…>` declarations and `<!-- -->` comments, with quotes inside tags.
 * A `<` followed by whitespace is text; NUL bytes go.
 */
export function phpStripTags(text: string): string {
  if (!text.includes('<') && !text.includes('\0')) return text;
  return new TagStripper(text).run();
}

/** PHP's states: text, a tag, a processing instruction, a declaration, a comment. */
enum In {
  Text,
  Tag,
  Instruction,
  Declaration,
  Comment,
}

/** strip_tags' state machine; each step reads the character at `p` and answers where to go on. */
class TagStripper {
  private readonly out: string[] = [];
  private state = In.Text;
  private inQ = '';
  private depth = 0;
  private lc = '';
  private br = 0;
  /** The start of the current run of kept characters (in text). */
  private runStart = 0;

  constructor(private readonly text: string) {}

  run(): string {
    const end = this.text.length;
    let p = 0;
    while (p < end) p = this.step(p);
    if (this.state === In.Text) this.keepUntil(end);
    return this.out.join('');
  }

  private keepUntil(stop: number): void {
    if (stop > this.runStart) this.out.push(this.text.slice(this.runStart, stop));
  }

  /** Back to text after the character at `p`. */
  private toText(p: number): void {
    this.inQ = '';
    this.state = In.Text;
    this.runStart = p + 1;
  }

  /** A `>` inside a nested `<`, or inside quotes, does not end what is open. */
  private closeHeld(): boolean {
    if (this.depth) {
      this.depth--;
      return true;
    }
    return this.inQ !== '';
  }

  private step(p: number): number {
    const c = this.text[p]!;
    if (this.state === In.Text) this.inText(c, p);
    else if (this.state === In.Tag) this.inTag(c, p);
    else if (this.state === In.Instruction) this.inInstruction(c, p);
    else if (this.state === In.Declaration) this.inDeclaration(c, p);
    else return this.inComment(p);
    return p + 1;
  }

  private inText(c: string, p: number): void {
    if (c === '\0') {
      this.keepUntil(p);
      this.runStart = p + 1;
    } else if (c === '<') {
      if (isCSpace(this.text[p + 1])) return; // kept as text
      this.keepUntil(p);
      this.lc = '<';
      this.state = In.Tag;
    } else if (c === '>' && this.depth) {
      this.keepUntil(p);
      this.runStart = p + 1;
      this.depth--;
    }
  }

  private inTag(c: string, p: number): void {
    const text = this.text;
    if (c === '<') {
      if (this.inQ || isCSpace(text[p + 1])) return;
      this.depth++;
    } else if (c === '>') {
      if (this.closeHeld()) return;
      this.lc = '>';
      this.toText(p);
    } else if (c === '"' || c === "'") {
      if (p !== 0 && (!this.inQ || c === this.inQ)) this.inQ = this.inQ ? '' : c;
    } else if (c === '!') {
      if (text[p - 1] === '<') {
        this.state = In.Declaration;
        this.lc = c;
      }
    } else if (c === '?') {
      if (text[p - 1] === '<') {
        this.br = 0;
        this.state = In.Instruction;
      }
    }
  }

  private inInstruction(c: string, p: number): void {
    const text = this.text;
    const quoted = this.lc === '"' || this.lc === "'";
    if (c === '(' || c === ')') {
      if (quoted) return;
      this.lc = c;
      this.br += c === '(' ? 1 : -1;
    } else if (c === '>') {
      if (this.closeHeld()) return;
      if (!this.br && this.lc !== '"' && text[p - 1] === '?') this.toText(p);
    } else if (c === '"' || c === "'") {
      if (p >= 1 && text[p - 1] !== '\\') {
        if (this.lc === c) this.lc = '';
        else if (this.lc !== '\\') this.lc = c;
        if (!this.inQ || c === this.inQ) this.inQ = this.inQ ? '' : c;
      }
    } else if ((c === 'l' || c === 'L') && p > 4) {
      const m = text[p - 1];
      const x = text[p - 2];
      if ((m === 'm' || m === 'M') && (x === 'x' || x === 'X') && text[p - 3] === '?' && text[p - 4] === '<') this.state = In.Tag;
    }
  }

  private inDeclaration(c: string, p: number): void {
    const text = this.text;
    if (c === '>') {
      if (this.closeHeld()) return;
      this.toText(p);
    } else if (c === '"' || c === "'") {
      if (p !== 0 && text[p - 1] !== '\\' && (!this.inQ || c === this.inQ)) this.inQ = this.inQ ? '' : c;
    } else if (c === '-') {
      if (p >= 2 && text[p - 1] === '-' && text[p - 2] === '!') this.state = In.Comment;
    } else if ((c === 'E' || c === 'e') && p > 6 && asciiLower(text.slice(p - 6, p)) === 'doctyp') {
      this.state = In.Tag;
    }
  }

  /** A comment: ends at `-->` (quotes do not count here). */
  private inComment(p: number): number {
    const close = this.text.indexOf('-->', p >= 2 ? p - 2 : 0);
    if (close === -1) return this.text.length;
    this.toText(close + 2);
    return close + 3;
  }
}

/** `@<(script|style)[^>]*?>.*?</\1>@si` -> ''. */
function removeScriptAndStyle(text: string): string {
  if (!text.includes('<')) return text;
  const lower = asciiLower(text);
  if (!lower.includes('<script') && !lower.includes('<style')) return text;
  const out: string[] = [];
  const exhausted = new Set<string>();
  let copied = 0;
  let i = lower.indexOf('<');
  while (i !== -1) {
    const name = ['script', 'style'].find((n) => !exhausted.has(n) && lower.startsWith(n, i + 1));
    if (name === undefined) {
      i = lower.indexOf('<', i + 1);
      continue;
    }
    const gt = lower.indexOf('>', i + 1 + name.length);
    const close = gt === -1 ? -1 : lower.indexOf(`</${name}>`, gt + 1);
    if (close === -1) {
      exhausted.add(name);
      continue;
    }
    out.push(text.slice(copied, i));
    copied = close + name.length + 3;
    i = lower.indexOf('<', copied);
  }
  if (copied === 0) return text;
  out.push(text.slice(copied));
  return out.join('');
}

/** wp_strip_all_tags( $text, $remove_breaks ). */
export function wpStripAllTags(text: string, removeBreaks = false): string {
  let out = phpStripTags(removeScriptAndStyle(text));
  if (removeBreaks) out = out.replace(/[\r\n\t ]+/g, ' ');
  return phpTrim(out);
}

/**
 * wp_pre_kses_less_than(): a `<` not closed by a `>` before the next `<` (or the end) is escaped
 * with the text after it (`%<[^>]*?((?=<)|>|$)%`).
 */
export function preKsesLessThan(text: string): string {
  if (!text.includes('<')) return text;
  const lt = new ForwardFinder(text, '<');
  const gt = new ForwardFinder(text, '>');
  const out: string[] = [];
  let copied = 0;
  let i = 0;
  for (;;) {
    const start = lt.next(i);
    if (start === -1) break;
    const nextLt = lt.next(start + 1);
    const nextGt = gt.next(start + 1);
    if (nextGt !== -1 && (nextLt === -1 || nextGt < nextLt)) {
      i = nextGt + 1;
      continue;
    }
    let stop = nextLt;
    if (stop === -1) stop = text.endsWith('\n') && text.length - 1 > start ? text.length - 1 : text.length;
    out.push(text.slice(copied, start), escHtml(text.slice(start, stop)));
    copied = i = stop;
  }
  if (copied === 0) return text;
  out.push(text.slice(copied));
  return out.join('');
}

/** Removes `%XX` octets until none is left (each removal can join a new one). */
function removeOctets(text: string): string {
  const stack: string[] = [];
  const isHex = (ch: string | undefined) => ch !== undefined && /[0-9a-fA-F]/.test(ch);
  for (const ch of text) {
    stack.push(ch);
    const n = stack.length;
    if (n >= 3 && stack[n - 3] === '%' && isHex(stack[n - 2]) && isHex(stack[n - 1])) stack.length = n - 3;
  }
  return stack.join('');
}

/**
 * sanitize_text_field(): '' for text that is not UTF-8; lone `<` escaped; tags (and script and
 * style contents) stripped; line breaks, tabs and runs of spaces made one space; trimmed; `%XX`
 * octets removed.
 */
export function sanitizeTextField(input: string): string {
  let filtered = checkInvalidUtf8(input);
  if (filtered.includes('<')) {
    filtered = preKsesLessThan(filtered);
    filtered = wpStripAllTags(filtered, false);
    filtered = replaceAll(filtered, '<\n', '&lt;\n');
  }
  if (/[\r\n\t]| {2}/.test(filtered)) filtered = filtered.replace(/[\r\n\t ]+/g, ' ');
  filtered = phpTrim(filtered);
  if (/%[a-f0-9]{2}/i.test(filtered)) filtered = phpTrim(removeOctets(filtered).replace(/ +/g, ' '));
  return filtered;
}

/**
 * wp_trim_words( $text, $num_words, $more ): the text without tags, its first `numWords` words
 * joined by single spaces, and `more` when there were more words.
 */
export function wpTrimWords(text: string, numWords: number, more: string): string {
  const words = wpStripAllTags(text)
    .split(/[\n\r\t ]+/)
    .filter((w) => w !== '');
  if (words.length > numWords) return words.slice(0, numWords).join(' ') + more;
  return words.join(' ');
}
