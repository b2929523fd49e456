// wp_kses_no_null: what kses removes before anything else, from whole texts and from URL and
// style values.
import { Builder } from './scan.js';

/** wp_kses_no_null: C0 controls except \t \n \r go; optionally also `\0`-style escapes. */
export function noNull(text: string, removeSlashZero: boolean): string {
  const cleaned = /[\x00-\x08\x0B\x0C\x0E-\x1F]/.test(text) ? text.replace(/[\x00-\x08\x0B\x0C\x0E-\x1F]+/g, '') : text;
  return removeSlashZero ? removeSlashZeros(cleaned) : cleaned;
}

/** Removes every run of backslashes that is followed by zeros, with the zeros (`/\\+0+/`). */
function removeSlashZeros(text: string): string {
  if (!text.includes('\\')) return text;
  const out = new Builder();
  let copied = 0;
  let i = 0;
  for (;;) {
    const slash = text.indexOf('\\', i);
    if (slash === -1) break;
    let end = slash;
    while (text[end] === '\\') end++;
    if (text[end] === '0') {
      out.add(text.slice(copied, slash));
      while (text[end] === '0') end++;
      copied = end;
    }
    i = end;
  }
  if (copied === 0) return text;
  out.add(text.slice(copied));
  return out.toString();
}
