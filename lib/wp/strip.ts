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
  const out: string[] = [];
  const end = text.length;
  let state = 0;
  let inQ = '';
  let depth = 0;
  let lc = '';
  let br = 0;
  let runStart = 0; // start of the current run of kept characters (state 0)
  let p = 0;
  const keepUntil = (stop: number) => {
    if (stop > runStart) out.push(text.slice(runStart, stop));
  };
  while (p < end) {
    const c = text[p]!;
    switch (state) {
      case 0: {
        if (c === '\0') {
          keepUntil(p);
          runStart = p + 1;
        } else if (c === '<') {
          if (isCSpace(text[p + 1])) break; // kept as text
          keepUntil(p);
          lc = '<';
          state = 1;
        } else if (c === '>' && depth) {
          keepUntil(p);
          runStart = p + 1;
          depth--;
        }
        break;
      }
      case 1: {
        if (c === '<') {
          if (inQ || isCSpace(text[p + 1])) break;
          depth++;
        } else if (c === '>') {
          if (depth) {
            depth--;
            break;
          }
          if (inQ) break;
          lc = '>';
          inQ = '';
          state = 0;
          runStart = p + 1;
        } else if (c === '"' || c === "'") {
          if (p !== 0 && (!inQ || c === inQ)) inQ = inQ ? '' : c;
        } else if (c === '!') {
          if (text[p - 1] === '<') {
            state = 3;
            lc = c;
          }
        } else if (c === '?') {
          if (text[p - 1] === '<') {
            br = 0;
            state = 2;
          }
        }
        break;
      }
      case 2: {
        if (c === '(') {
          if (lc !== '"' && lc !== "'") {
            lc = '(';
            br++;
          }
        } else if (c === ')') {
          if (lc !== '"' && lc !== "'") {
            lc = ')';
            br--;
          }
        } else if (c === '>') {
          if (depth) {
            depth--;
            break;
          }
          if (inQ) break;
          if (!br && lc !== '"' && text[p - 1] === '?') {
            inQ = '';
            state = 0;
            runStart = p + 1;
          }
        } else if (c === '"' || c === "'") {
          if (p >= 1 && text[p - 1] !== '\\') {
            if (lc === c) lc = '';
            else if (lc !== '\\') lc = c;
            if (!inQ || c === inQ) inQ = inQ ? '' : c;
          }
        } else if ((c === 'l' || c === 'L') && p > 4) {
          const m = text[p - 1];
          const x = text[p - 2];
          if ((m === 'm' || m === 'M') && (x === 'x' || x === 'X') && text[p - 3] === '?' && text[p - 4] === '<') {
            state = 1;
          }
        }
        break;
      }
      case 3: {
        if (c === '>') {
          if (depth) {
            depth--;
            break;
          }
          if (inQ) break;
          inQ = '';
          state = 0;
          runStart = p + 1;
        } else if (c === '"' || c === "'") {
          if (p !== 0 && text[p - 1] !== '\\' && (!inQ || c === inQ)) inQ = inQ ? '' : c;
        } else if (c === '-') {
          if (p >= 2 && text[p - 1] === '-' && text[p - 2] === '!') state = 4;
        } else if ((c === 'E' || c === 'e') && p > 6 && asciiLower(text.slice(p - 6, p)) === 'doctyp') {
          state = 1;
        }
        break;
      }
      default: {
        // A comment: ends at `-->` (quotes do not count here).
        const close = text.indexOf('-->', p >= 2 ? p - 2 : 0);
        if (close === -1) {
          p = end;
          continue;
        }
        inQ = '';
        state = 0;
        p = close + 3;
        runStart = p;
        continue;
      }
    }
    p++;
  }
  if (state === 0) keepUntil(end);
  return out.join('');
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
