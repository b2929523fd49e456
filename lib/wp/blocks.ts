// Block markup (`<!-- wp:paragraph -->…<!-- /wp:paragraph -->`): do_blocks() renders static
// blocks as their inner HTML, which amounts to dropping the delimiter comments. Dynamic blocks
// (server-rendered, such as latest posts) have no content here and render as nothing.
import { isPcreSpace } from './php.js';

/** has_blocks(). */
export function hasBlocks(text: string): boolean {
  return text.includes('<!-- wp:');
}

const isNameStart = (ch: string | undefined) => ch !== undefined && ch >= 'a' && ch <= 'z';
const isNameChar = (ch: string | undefined) => isNameStart(ch) || (ch !== undefined && ((ch >= '0' && ch <= '9') || ch === '_' || ch === '-'));

/** Finds `}\s+/?-->` at or after a position; positions only move forward, so answers are reused. */
class AttrsCloser {
  private readonly pattern = /\}[ \t\n\v\f\r]+\/?-->/g;
  private from = -1;
  private index = -1;
  private end = -1;

  constructor(private readonly text: string) {}

  endAfter(position: number): number {
    if (this.from === -1 || position < this.from || (this.index !== -1 && this.index < position)) {
      this.pattern.lastIndex = position;
      const m = this.pattern.exec(this.text);
      this.from = position;
      this.index = m === null ? -1 : m.index;
      this.end = m === null ? -1 : m.index + m[0].length;
    }
    return this.end;
  }
}

/** The end of the block delimiter comment at `at` (`<!--`), or -1 when it is not one. */
function delimiterEnd(text: string, at: number, attrsCloser: AttrsCloser): number {
  let i = at + 4;
  if (!isPcreSpace(text[i])) return -1;
  while (isPcreSpace(text[i])) i++;
  if (text[i] === '/') i++;
  if (!text.startsWith('wp:', i)) return -1;
  i += 3;
  for (let part = 0; part < 2; part++) {
    if (!isNameStart(text[i])) return -1;
    while (isNameChar(text[i])) i++;
    if (part === 0 && text[i] === '/') {
      i++;
      continue;
    }
    break;
  }
  if (!isPcreSpace(text[i])) return -1;
  while (isPcreSpace(text[i])) i++;
  if (text[i] === '{') return attrsCloser.endAfter(i);
  if (text[i] === '/') i++;
  return text.startsWith('-->', i) ? i + 3 : -1;
}

/** do_blocks() for static blocks: the block delimiter comments go, everything else stays. */
export function stripBlockDelimiters(text: string): string {
  const attrsCloser = new AttrsCloser(text);
  const out: string[] = [];
  let copied = 0;
  let i = text.indexOf('<!--');
  while (i !== -1) {
    const end = delimiterEnd(text, i, attrsCloser);
    if (end === -1) {
      i = text.indexOf('<!--', i + 4);
      continue;
    }
    out.push(text.slice(copied, i));
    copied = end;
    i = text.indexOf('<!--', end);
  }
  if (copied === 0) return text;
  out.push(text.slice(copied));
  return out.join('');
}
