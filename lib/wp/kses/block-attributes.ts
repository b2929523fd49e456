// wp_pre_kses_block_attributes: block comment attributes (`<!-- wp:name {json} -->`) are
// parsed, their strings (keys too) run through kses, and the blocks are serialised again the
// way WordPress does (which also normalises the delimiters and the JSON).
import { isDigit, skipPcreSpace } from '../php.js';
import type { Ctx } from './allowed.js';
import { isPhpEmpty, PhpArray, type PhpKey, phpJsonDecode, phpJsonEncode, type PhpValue } from './php-json.js';
import { Builder, ForwardFinder, isEmptyString } from './scan.js';

interface ParsedBlock {
  name: string | null;
  attrs: PhpValue | undefined;
  innerBlocks: ParsedBlock[];
  innerContent: (string | null)[];
}

/** If serialising would balloon (unclosed nested blocks repeat the rest of the text). */
class OutputTooLarge extends Error {}

/**
 * wp_pre_kses_block_attributes. `filterText` is the nested wp_kses() call for strings, which
 * WordPress makes with this filter unhooked.
 */
export function filterBlockContent(text: string, ctx: Ctx, filterText: (text: string) => string): string {
  if (!text.includes('<!--')) return text;
  let source = text;
  if (source.includes('--->')) source = fixTripleDashComments(source);
  const budget = source.length * 16 + 1_000_000;
  try {
    const blocks = parseBlocks(source);
    const out = new Builder();
    for (const block of blocks) {
      filterBlockTree(block, ctx, filterText);
      out.add(serializeBlock(block, budget - out.length));
    }
    return out.toString();
  } catch (error) {
    // WordPress would run out of memory here; leave the text to the tag filter instead.
    if (error instanceof OutputTooLarge) return source;
    throw error;
  }
}

/** `<!--(.*?)--->` becomes `<!--$1-->` with trailing dashes of $1 removed. */
function fixTripleDashComments(text: string): string {
  const open = new ForwardFinder(text, '<!--');
  const close = new ForwardFinder(text, '--->');
  const newline = new ForwardFinder(text, '\n');
  const out = new Builder();
  let i = 0;
  let from = 0;
  for (;;) {
    const start = open.next(from);
    if (start === -1) break;
    const end = close.next(start + 4);
    const nl = newline.next(start + 4);
    if (end === -1 || (nl !== -1 && nl < end)) {
      from = start + 1;
      continue;
    }
    let innerEnd = end;
    while (innerEnd > start + 4 && text[innerEnd - 1] === '-') innerEnd--;
    out.add(text.slice(i, start));
    out.add(`<!--${text.slice(start + 4, innerEnd)}-->`);
    i = from = end + 4;
  }
  out.add(text.slice(i));
  return out.toString();
}

interface BlockToken {
  kind: 'opener' | 'closer' | 'void';
  name: string;
  attrs: PhpValue | undefined;
  start: number;
  length: number;
}

/** WP_Block_Parser: a best-effort parse that never fails. */
function parseBlocks(doc: string): ParsedBlock[] {
  interface Frame {
    block: ParsedBlock;
    tokenStart: number;
    tokenLength: number;
    prevOffset: number;
    leading: number | null;
  }
  const output: ParsedBlock[] = [];
  const stack: Frame[] = [];
  const tokens = blockTokenizer(doc);
  let offset = 0;
  const freeform = (html: string): ParsedBlock => ({ name: null, attrs: new PhpArray(), innerBlocks: [], innerContent: [html] });
  const addBlockFromStack = (endOffset: number | null): void => {
    const top = stack.pop()!;
    const html = endOffset === null ? doc.slice(top.prevOffset) : doc.slice(top.prevOffset, endOffset);
    if (!isEmptyString(html)) top.block.innerContent.push(html);
    if (top.leading !== null) output.push(freeform(doc.slice(top.leading, top.tokenStart)));
    output.push(top.block);
  };
  const addInnerBlock = (block: ParsedBlock, tokenStart: number, tokenLength: number, lastOffset: number | null): void => {
    const parent = stack[stack.length - 1]!;
    parent.block.innerBlocks.push(block);
    const html = doc.slice(parent.prevOffset, tokenStart);
    if (!isEmptyString(html)) parent.block.innerContent.push(html);
    parent.block.innerContent.push(null);
    parent.prevOffset = lastOffset ?? tokenStart + tokenLength;
  };
  const addFreeform = (): void => {
    if (doc.length > offset) output.push(freeform(doc.slice(offset)));
  };
  for (;;) {
    const token = tokens(offset);
    if (token === null) {
      if (stack.length === 0) addFreeform();
      while (stack.length > 0) addBlockFromStack(null);
      return output;
    }
    const leading = token.start > offset ? offset : null;
    const end = token.start + token.length;
    const block: ParsedBlock = { name: token.name, attrs: token.attrs, innerBlocks: [], innerContent: [] };
    if (token.kind === 'void') {
      if (stack.length === 0) {
        if (leading !== null) output.push(freeform(doc.slice(leading, token.start)));
        output.push(block);
      } else {
        addInnerBlock(block, token.start, token.length, null);
      }
    } else if (token.kind === 'opener') {
      stack.push({ block, tokenStart: token.start, tokenLength: token.length, prevOffset: end, leading });
    } else if (stack.length === 0) {
      // A closer without an opener: the rest of the document is left as it is.
      addFreeform();
      return output;
    } else if (stack.length === 1) {
      addBlockFromStack(token.start);
    } else {
      const top = stack.pop()!;
      top.block.innerContent.push(doc.slice(top.prevOffset, token.start));
      top.prevOffset = end;
      addInnerBlock(top.block, top.tokenStart, top.tokenLength, end);
    }
    offset = end;
  }
}

/**
 * Finds the next block delimiter at or after an offset:
 * `<!--\s+(/)?wp:(ns/)?name\s+({json}\s+)?(/)?-->`. The JSON ends at the first `}` that is
 * followed by whitespace and `-->` or `/-->`.
 */
function blockTokenizer(doc: string): (from: number) => BlockToken | null {
  const open = new ForwardFinder(doc, '<!--');
  const jsonEnd = new ForwardFinder(doc, '}', (at) => {
    const after = skipPcreSpace(doc, at + 1);
    if (after === at + 1) return false;
    return doc.startsWith('-->', doc[after] === '/' ? after + 1 : after);
  });
  const readName = (at: number): number => {
    if (!(doc[at]! >= 'a' && doc[at]! <= 'z')) return at;
    let end = at + 1;
    while (end < doc.length && (isDigit(doc[end]) || doc[end] === '_' || doc[end] === '-' || (doc[end]! >= 'a' && doc[end]! <= 'z'))) end++;
    return end;
  };
  const matchAt = (start: number): BlockToken | null => {
    let i = skipPcreSpace(doc, start + 4);
    if (i === start + 4) return null;
    const closer = doc[i] === '/';
    if (closer) i++;
    if (!doc.startsWith('wp:', i)) return null;
    i += 3;
    const firstEnd = readName(i);
    if (firstEnd === i) return null;
    let name: string;
    if (doc[firstEnd] === '/') {
      // `namespace/name`; without a namespace the block is a core one.
      const secondEnd = readName(firstEnd + 1);
      if (secondEnd === firstEnd + 1) return null;
      name = doc.slice(i, secondEnd);
      i = secondEnd;
    } else {
      name = `core/${doc.slice(i, firstEnd)}`;
      i = firstEnd;
    }
    const afterName = skipPcreSpace(doc, i);
    if (afterName === i) return null;
    i = afterName;
    let json: string | null = null;
    if (doc[i] === '{') {
      const close = jsonEnd.next(i + 1);
      if (close !== -1) {
        json = doc.slice(i, close + 1);
        i = skipPcreSpace(doc, close + 1);
      }
    }
    const isVoid = doc[i] === '/';
    if (isVoid) i++;
    if (!doc.startsWith('-->', i)) return null;
    const kind = isVoid ? 'void' : closer ? 'closer' : 'opener';
    const attrs = json === null ? new PhpArray() : kind === 'closer' ? undefined : phpJsonDecode(json);
    return { kind, name, attrs, start, length: i + 3 - start };
  };
  return (from) => {
    for (let at = open.next(from); at !== -1; at = open.next(at + 1)) {
      const token = matchAt(at);
      if (token !== null) return token;
    }
    return null;
  };
}

/** filter_block_kses over a whole block tree, without recursion (trees can be very deep). */
function filterBlockTree(root: ParsedBlock, ctx: Ctx, filterText: (text: string) => string): void {
  const pending = [root];
  while (pending.length > 0) {
    const block = pending.pop()!;
    block.attrs = filterBlockValue(block.attrs, ctx, block.name === 'core/template-part', filterText);
    pending.push(...block.innerBlocks);
  }
}

/**
 * filter_block_kses_value: strings (and string keys) through kses without the block filter;
 * a changed key moves to the end. core/template-part's `tagName` must be an allowed element.
 */
function filterBlockValue(value: PhpValue | undefined, ctx: Ctx, templatePart: boolean, filterText: (text: string) => string): PhpValue | undefined {
  if (typeof value === 'string') return filterText(value);
  if (!(value instanceof PhpArray)) return value;
  // PHP's foreach walks a copy: later writes do not change the values still to be visited.
  for (const [key, inner] of value.snapshot()) {
    const filteredKey = typeof key === 'string' ? filterText(key) : key;
    let filtered = filterBlockValue(inner, ctx, templatePart, filterText);
    if (templatePart) filtered = filterTemplatePartTag(filtered, filteredKey, ctx);
    if (filteredKey !== key) value.delete(key);
    value.set(filteredKey, filtered);
  }
  return value;
}

function filterTemplatePartTag(value: PhpValue | undefined, key: PhpKey, ctx: Ctx): PhpValue | undefined {
  if (isPhpEmpty(value) || key !== 'tagName') return value;
  return typeof value === 'string' && ctx.tags.has(value) ? value : '';
}

/** serialize_block, iteratively; throws OutputTooLarge past `budget` characters. */
function serializeBlock(root: ParsedBlock, budget: number): string {
  interface Frame {
    block: ParsedBlock;
    chunk: number;
    child: number;
    content: string;
  }
  const stack: Frame[] = [{ block: root, chunk: 0, child: 0, content: '' }];
  for (;;) {
    const frame = stack[stack.length - 1]!;
    if (frame.chunk < frame.block.innerContent.length) {
      const chunk = frame.block.innerContent[frame.chunk++];
      if (typeof chunk === 'string') {
        frame.content += chunk;
        if (frame.content.length > budget) throw new OutputTooLarge();
      } else {
        const child = frame.block.innerBlocks[frame.child++];
        if (child !== undefined) stack.push({ block: child, chunk: 0, child: 0, content: '' });
      }
      continue;
    }
    stack.pop();
    const serialized = delimitedBlock(frame.block, frame.content);
    if (stack.length === 0) return serialized;
    const parent = stack[stack.length - 1]!;
    parent.content += serialized;
    if (parent.content.length > budget) throw new OutputTooLarge();
  }
}

/** get_comment_delimited_block_content */
function delimitedBlock(block: ParsedBlock, content: string): string {
  if (block.name === null) return content;
  const name = block.name.startsWith('core/') ? block.name.slice(5) : block.name;
  const attrs = block.attrs instanceof PhpArray ? block.attrs : new PhpArray();
  const serializedAttrs = attrs.size === 0 ? '' : `${serializeBlockAttributes(attrs)} `;
  if (isEmptyString(content)) return `<!-- wp:${name} ${serializedAttrs}/-->`;
  return `<!-- wp:${name} ${serializedAttrs}-->${content}<!-- /wp:${name} -->`;
}

/** serialize_block_attributes: PHP JSON, then `--`, `<`, `>`, `&` and `\"` as \u escapes. */
function serializeBlockAttributes(attrs: PhpArray): string {
  const json = phpJsonEncode(attrs, 0);
  if (json === null) return '';
  return json.replaceAll('--', '\\u002d\\u002d').replaceAll('<', '\\u003c').replaceAll('>', '\\u003e').replaceAll('&', '\\u0026').replaceAll('\\"', '\\u0022');
}
