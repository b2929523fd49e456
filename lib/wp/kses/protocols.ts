// wp_kses_bad_protocol with wp_allowed_protocols(): URL values keep only allowed schemes, however
// the scheme and its colon are spelled. kses runs it on URI attributes and CSS url()s, esc_url
// (lib/wp/entities.ts) on links.
import { asciiLower, isDigit, isHexDigit, phpTrim } from '../php.js';
import { noNull } from './no-null.js';
import { isEmptyString, rewriteAfter } from './scan.js';

/** wp_allowed_protocols(). Not in it: javascript, vbscript, data, file, … */
const ALLOWED_PROTOCOLS = new Set([
  'http',
  'https',
  'ftp',
  'ftps',
  'mailto',
  'news',
  'irc',
  'irc6',
  'ircs',
  'gopher',
  'nntp',
  'feed',
  'telnet',
  'mms',
  'rtsp',
  'sms',
  'svn',
  'tel',
  'fax',
  'xmpp',
  'webcal',
  'urn',
]);

/** wp_kses_bad_protocol: strip disallowed URL schemes, however they are spelled. */
export function badProtocol(value: string): string {
  let content = noNull(value, true);
  if (content.startsWith('https://') || content.startsWith('http://')) return content;
  for (let round = 0; round < 6; round++) {
    const next = badProtocolOnce(content, 1);
    if (next === content) return content;
    content = next;
  }
  return '';
}

function badProtocolOnce(value: string, count: number): string {
  const content = terminateColonReferences(value);
  const colon = findColon(content);
  if (colon === null) return content;
  const scheme = content.slice(0, colon.at);
  if (scheme.includes('/?')) return content;
  let rest = phpTrim(content.slice(colon.at + colon.length));
  const protocol = allowedScheme(scheme);
  if (protocol === 'feed:') {
    if (count > 2) return '';
    rest = badProtocolOnce(rest, count + 1);
    if (isEmptyString(rest)) return rest;
  }
  return protocol + rest;
}

/** `&#0*58` / `&#x0*3a` without their `;` get one (case-insensitive). */
function terminateColonReferences(text: string): string {
  if (!text.includes('&#')) return text;
  return rewriteAfter(text, '&#', (source, start) => {
    const hex = source[start] === 'x' || source[start] === 'X';
    let i = hex ? start + 1 : start;
    while (source[i] === '0') i++;
    const tail = source.slice(i, i + 2).toLowerCase();
    if (tail !== (hex ? '3a' : '58')) return null;
    const next = source[i + 2];
    const blocked = next === ';' || (hex ? isHexDigit(next) : isDigit(next));
    return blocked ? null : [`${source.slice(start - 2, i + 2)};`, i + 2];
  });
}

/** The first `:`, `&#0*58;`, `&#x0*3a;` or `&colon;` (case-insensitive). */
function findColon(text: string): { at: number; length: number } | null {
  for (let i = 0; i < text.length; i++) {
    const ch = text[i];
    if (ch === ':') return { at: i, length: 1 };
    if (ch !== '&') continue;
    if (text.slice(i, i + 7).toLowerCase() === '&colon;') return { at: i, length: 7 };
    if (text[i + 1] !== '#') continue;
    const hex = text[i + 2] === 'x' || text[i + 2] === 'X';
    let j = hex ? i + 3 : i + 2;
    while (text[j] === '0') j++;
    if (text.slice(j, j + 3).toLowerCase() === (hex ? '3a;' : '58;')) return { at: i, length: j + 3 - i };
  }
  return null;
}

/** wp_kses_bad_protocol_once2: decode numeric references, drop spaces, compare lowercased. */
function allowedScheme(raw: string): string {
  let scheme = raw.replace(/&#([0-9]+);/g, (_m, digits: string) => byteChar(digits, 10));
  scheme = scheme.replace(/&#[Xx]([0-9A-Fa-f]+);/g, (_m, digits: string) => byteChar(digits, 16));
  scheme = asciiLower(noNull(scheme.replace(/[ \t\n\v\f\r]+/g, ''), true));
  return ALLOWED_PROTOCOLS.has(scheme) ? `${scheme}:` : '';
}

/** PHP chr() of a decimal or hexadecimal number: the value modulo 256, as one character. */
function byteChar(digits: string, radix: number): string {
  let code = 0;
  for (const digit of digits) code = (code * radix + Number.parseInt(digit, radix)) % 256;
  return String.fromCharCode(code);
}
