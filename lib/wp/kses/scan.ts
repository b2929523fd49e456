// Building blocks of kses's linear scanners: output collection, forward-only search, rewriting
// at each occurrence of a prefix, and the PHP tests (PCRE's `$`, empty()) they make on the way.

/** PCRE's `$` without /m: the end, or just before a final "\n". */
export function isPcreEnd(text: string, at: number): boolean {
  return at === text.length || (at === text.length - 1 && text[at] === '\n');
}

/** PHP's empty() for a string: '' and '0'. */
export function isEmptyString(text: string): boolean {
  return text === '' || text === '0';
}

/**
 * Collects output pieces. Joining every few thousand pieces keeps the many short strings of a
 * large input short-lived (a long `+=` chain would keep them all alive until the end).
 */
export class Builder {
  /** Small outputs are plain concatenation; past 64 pieces they go to `parts`. */
  private text = '';
  private pieces = 0;
  private parts: string[] | null = null;
  private chunks: string[] | null = null;
  length = 0;

  add(piece: string): void {
    if (piece === '') return;
    this.length += piece.length;
    if (this.parts === null) {
      this.text += piece;
      if (++this.pieces > 64) this.parts = [];
      return;
    }
    this.parts.push(piece);
    if (this.parts.length >= 4096) {
      (this.chunks ??= []).push(this.parts.join(''));
      this.parts = [];
    }
  }

  toString(): string {
    if (this.parts === null) return this.text;
    return this.text + (this.chunks?.join('') ?? '') + this.parts.join('');
  }
}

/**
 * indexOf() for searches whose start only moves forward: the last answer is reused while it is
 * still ahead, so repeated searches over the same stretch of text cost nothing.
 * An optional test rejects occurrences (the search then continues after them).
 */
export class ForwardFinder {
  private from = -1;
  private found = -1;

  constructor(
    private readonly text: string,
    private readonly needle: string,
    private readonly accept: (at: number) => boolean = () => true,
  ) {}

  next(position: number): number {
    if (this.from !== -1 && position >= this.from && (this.found === -1 || this.found >= position)) {
      return this.found;
    }
    let at = this.text.indexOf(this.needle, position);
    while (at !== -1 && !this.accept(at)) at = this.text.indexOf(this.needle, at + 1);
    this.from = position;
    this.found = at;
    return at;
  }
}

/**
 * Calls `rewrite` at every occurrence of `prefix` (left to right, not overlapping). It returns
 * [replacement, index after the match] or null to leave the text alone.
 */
export function rewriteAfter(text: string, prefix: string, rewrite: (text: string, after: number) => [string, number] | null): string {
  const out = new Builder();
  let changed = false;
  let copied = 0;
  let i = 0;
  for (;;) {
    const at = text.indexOf(prefix, i);
    if (at === -1) break;
    const result = rewrite(text, at + prefix.length);
    if (result === null) {
      i = at + 1;
      continue;
    }
    out.add(text.slice(copied, at));
    out.add(result[0]);
    changed = true;
    copied = i = result[1];
  }
  if (!changed) return text;
  out.add(text.slice(copied));
  return out.toString();
}
