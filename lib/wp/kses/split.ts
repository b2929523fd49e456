// wp_kses_split: the walk over a text's tags, comments and stray `>`, each token rebuilt as
// WordPress rebuilds it (wp_kses_split2); tags keep only allowed elements (./attributes.ts).
import { asciiLower, isAsciiLetter, isDigit, replaceAll, skipPcreSpace } from '../php.js';
import type { Ctx } from './allowed.js';
import { rebuildAttributes } from './attributes.js';
import { Builder, ForwardFinder } from './scan.js';

/** Stops the "kses until nothing changes" loops; WordPress converges in two or three rounds. */
const MAX_ROUNDS = 32;

/**
 * Rebuilt short tokens of the current run: documents repeat the same tags (and hostile ones the
 * same comments) many times, and a token's rebuild depends only on the token and the run.
 */
let tokenMemo = new Map<string, string>();
const MEMO_TOKEN_LENGTH = 256;
const MEMO_ENTRIES = 10_000;

/** Forgets the rebuilt tokens: a run starts and ends with an empty memo. */
export function resetTokenMemo(): void {
  tokenMemo = new Map();
}

/**
 * wp_kses_split over `text`. `nested` is a wp_kses() call one level deeper with the same block
 * filtering, which cleans the text of comments.
 */
export function split(text: string, ctx: Ctx, blocks: boolean, nested: (text: string) => string): string {
  if (!text.includes('<') && !text.includes('>')) return text;
  const finders = {
    lt: new ForwardFinder(text, '<'),
    gt: new ForwardFinder(text, '>'),
    newline: new ForwardFinder(text, '\n'),
    commentEnd: new ForwardFinder(text, '-->'),
  };
  const out = new Builder();
  let copied = 0;
  let i = 0;
  while (i < text.length) {
    const lt = finders.lt.next(i);
    const gt = finders.gt.next(i);
    if (lt === -1 && gt === -1) break;
    if (lt === -1 || (gt !== -1 && gt < lt)) {
      out.add(text.slice(copied, gt));
      out.add('&gt;');
      copied = i = gt + 1;
      continue;
    }
    const end = tokenEnd(text, lt, finders);
    const token = text.slice(lt, end);
    const rebuilt = rebuildTokenMemo(token, ctx, blocks, nested);
    // Unchanged tokens are copied later in one piece (fewer small strings on large input).
    if (rebuilt !== token) {
      out.add(text.slice(copied, lt));
      out.add(rebuilt);
      copied = end;
    }
    i = end;
  }
  if (copied === 0) return text;
  out.add(text.slice(copied));
  return out.toString();
}

/**
 * Where the token starting with `<` at `start` ends, trying WordPress's alternatives in order:
 * `<!--…-->` (`.` stops at newlines; an unclosed one runs to the end), `</` + non-letter … `>`,
 * `<!` … `>`, and finally `<` … `>` or to the end.
 */
function tokenEnd(text: string, start: number, finders: { gt: ForwardFinder; newline: ForwardFinder; commentEnd: ForwardFinder }): number {
  const length = text.length;
  if (text.startsWith('<!--', start)) {
    const close = finders.commentEnd.next(start + 4);
    const newline = finders.newline.next(start + 4);
    if (close !== -1 && (newline === -1 || newline > close)) return close + 3;
    if (newline === -1) return length;
    if (newline === length - 1) return length - 1;
  }
  const firstGt = finders.gt.next(start + 1);
  const gtFrom = (from: number): number => {
    let at = firstGt;
    while (at !== -1 && at < from) at = finders.gt.next(at + 1);
    return at;
  };
  if (text[start + 1] === '/' && start + 2 < length && !isAsciiLetter(text[start + 2])) {
    const close = gtFrom(start + 3);
    if (close !== -1) return close + 1;
  }
  if (text[start + 1] === '!') {
    const close = gtFrom(start + 2);
    if (close !== -1) return close + 1;
  }
  return firstGt === -1 ? length : firstGt + 1;
}

/** rebuildToken, remembered for short tokens. */
function rebuildTokenMemo(token: string, ctx: Ctx, blocks: boolean, nested: (text: string) => string): string {
  if (token.length > MEMO_TOKEN_LENGTH) return rebuildToken(token, ctx, nested);
  const key = (blocks ? '1' : '0') + token;
  let rebuilt = tokenMemo.get(key);
  if (rebuilt === undefined) {
    rebuilt = rebuildToken(token, ctx, nested);
    if (tokenMemo.size >= MEMO_ENTRIES) tokenMemo.clear();
    tokenMemo.set(key, rebuilt);
  }
  return rebuilt;
}

/** wp_kses_split2: one `<…>` token (or a lone `>`) rebuilt as WordPress would. */
function rebuildToken(token: string, ctx: Ctx, nested: (text: string) => string): string {
  const content = token.includes('\\"') ? token.replaceAll('\\"', '"') : token;
  if (!content.startsWith('<')) return '&gt;';
  if (isBogusComment(content)) {
    // `</…>` with a non-letter, or `<!x…>`: kept as a comment-like token, its text cleaned.
    const inner = untilStable(content.slice(2, -1), nested);
    return `<${content[1]}${inner}>`;
  }
  if (content.startsWith('<!--')) return rebuildComment(content, nested);
  return rebuildTag(content, ctx);
}

/** Runs wp_kses() until its output stops changing (how WordPress cleans comment text). */
function untilStable(content: string, nested: (text: string) => string): string {
  let current = content;
  for (let round = 0; round < MAX_ROUNDS; round++) {
    const next = nested(current);
    if (next === current) break;
    current = next;
  }
  return current;
}

/** `^(?:</[^a-zA-Z][^>]*>|<![a-z][^>]*>)$` */
function isBogusComment(token: string): boolean {
  const last = token.length - 1;
  if (last < 3 || token[last] !== '>' || token.indexOf('>', 3) !== last) return false;
  if (token[1] === '/') return !isAsciiLetter(token[2]);
  return token[1] === '!' && token[2]! >= 'a' && token[2]! <= 'z';
}

/** An HTML comment: its text is cleaned until stable, and dashes cannot close it early. */
function rebuildComment(token: string, nested: (text: string) => string): string {
  // str_replace( array( '<!--', '-->' ), '' ), with a shortcut for the usual single pair.
  let stripped = token.indexOf('<!--', 1) === -1 ? token.slice(4) : replaceAll(token, '<!--', '');
  const close = stripped.indexOf('-->');
  if (close !== -1) stripped = close === stripped.length - 3 ? stripped.slice(0, -3) : replaceAll(stripped, '-->', '');
  let content = untilStable(stripped, nested);
  if (content === '') return '';
  content = content.replace(/-{2,}/g, '-');
  // Drop a final dash so the comment cannot end in `--->` (PCRE `$` allows a final newline).
  if (content.endsWith('-')) content = content.slice(0, -1);
  else if (content.endsWith('-\n')) content = `${content.slice(0, -2)}\n`;
  return `<!--${content}-->`;
}

/** `^<\s*(/\s*)?([a-zA-Z0-9-]+)([^>]*)>?$` and the element / attribute checks that follow. */
function rebuildTag(token: string, ctx: Ctx): string {
  let i = skipPcreSpace(token, 1);
  const closing = token[i] === '/';
  if (closing) i = skipPcreSpace(token, i + 1);
  const nameStart = i;
  while (i < token.length && (isAsciiLetter(token[i]) || isDigit(token[i]) || token[i] === '-')) i++;
  if (i === nameStart) return '';
  const element = token.slice(nameStart, i);
  const attrs = token.endsWith('>') ? token.slice(i, -1) : token.slice(i);
  const allowed = ctx.tags.get(asciiLower(element));
  if (allowed === undefined) return '';
  if (closing) return `</${element}>`;
  return rebuildAttributes(element, attrs, allowed, ctx);
}
