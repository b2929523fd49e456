// convert_smilies(): WordPress 6.8's default smilies. Most become emoji characters; `:mrgreen:`
// is the one still shown as an image (from the site's wp-includes/images/smilies/).
import { escAttr, escUrl } from './entities.js';

/** smilies_init()'s $wpsmiliestrans. */
const SMILIES: Record<string, string> = {
  ':mrgreen:': 'mrgreen.png',
  ':neutral:': '\u{1F610}',
  ':twisted:': '\u{1F608}',
  ':arrow:': '\u27A1',
  ':shock:': '\u{1F62F}',
  ':smile:': '\u{1F642}',
  ':???:': '\u{1F615}',
  ':cool:': '\u{1F60E}',
  ':evil:': '\u{1F47F}',
  ':grin:': '\u{1F600}',
  ':idea:': '\u{1F4A1}',
  ':oops:': '\u{1F633}',
  ':razz:': '\u{1F61B}',
  ':roll:': '\u{1F644}',
  ':wink:': '\u{1F609}',
  ':cry:': '\u{1F625}',
  ':eek:': '\u{1F62E}',
  ':lol:': '\u{1F606}',
  ':mad:': '\u{1F621}',
  ':sad:': '\u{1F641}',
  '8-)': '\u{1F60E}',
  '8-O': '\u{1F62F}',
  ':-(': '\u{1F641}',
  ':-)': '\u{1F642}',
  ':-?': '\u{1F615}',
  ':-D': '\u{1F600}',
  ':-P': '\u{1F61B}',
  ':-o': '\u{1F62E}',
  ':-x': '\u{1F621}',
  ':-|': '\u{1F610}',
  ';-)': '\u{1F609}',
  '8O': '\u{1F62F}',
  ':(': '\u{1F641}',
  ':)': '\u{1F642}',
  ':?': '\u{1F615}',
  ':D': '\u{1F600}',
  ':P': '\u{1F61B}',
  ':o': '\u{1F62E}',
  ':x': '\u{1F621}',
  ':|': '\u{1F610}',
  ';)': '\u{1F609}',
  ':!:': '\u2757',
  ':?:': '\u2753',
};

const escapeRegExp = (s: string) => s.replace(/[.*+?^${}()|[\]\\/-]/g, '\\$&');

/**
 * smilies_init()'s search pattern: codes in reverse (byte) order so that the longest wins,
 * grouped by first character, each preceded by a space or a line start and followed by a space
 * or a line end. PCRE's /m `^` (after "\n" only) and `$` (before "\n") are spelled out.
 */
function buildSearch(): RegExp {
  const codes = Object.keys(SMILIES).sort((a, b) => (a < b ? 1 : a > b ? -1 : 0));
  const groups: string[] = [];
  let current = '';
  let alternatives: string[] = [];
  const flush = () => {
    const c = escapeRegExp(current);
    if (current !== '') groups.push(`${c}(?<=(?:^|[\\r\\n\\t \\u00a0]|&nbsp;)${c})(?:${alternatives.join('|')})`);
  };
  const space = '[\\r\\n\\t \\u00a0]|&nbsp;';
  for (const code of codes) {
    if (code[0] !== current) {
      flush();
      current = code[0]!;
      alternatives = [];
    }
    alternatives.push(escapeRegExp(code.slice(1)));
  }
  flush();
  // The look-behind follows the first character (the same test, found faster).
  return new RegExp(`(?:${groups.join('|')})(?=${space}|$)`, 'g');
}

const SEARCH = buildSearch();
const IMAGE_EXTENSIONS = new Set(['jpg', 'jpeg', 'jpe', 'gif', 'png']);
const IGNORE_START = /^<(code|pre|style|script|textarea)[^>]*>/;

/** translate_smiley(). */
function translate(code: string, siteUrl: string): string {
  const img = SMILIES[code]!;
  const ext = /\.([^.]+)$/.exec(img)?.[1]?.toLowerCase();
  if (ext === undefined || !IMAGE_EXTENSIONS.has(ext)) return img;
  const src = escUrl(`${siteUrl}/wp-includes/images/smilies/${img}`);
  return `<img src="${src}" alt="${escAttr(code)}" class="wp-smiley" style="height: 1em; max-height: 1em;" />`;
}

/** convert_smilies( $text ): smilies in text (not in tags, nor in code/pre/style/script/textarea). */
export function convertSmilies(text: string, siteUrl: string): string {
  if (!/[:;8]/.test(text)) return text;
  const out: string[] = [];
  let ignore = '';
  let copied = 0;
  const handle = (piece: string, isTag: boolean) => {
    if (ignore === '' && isTag) {
      const m = IGNORE_START.exec(piece);
      if (m) ignore = m[1]!;
    }
    if (ignore === '' && piece.length > 0 && piece[0] !== '<') piece = piece.replace(SEARCH, (code) => translate(code, siteUrl));
    if (ignore !== '' && piece === `</${ignore}>`) ignore = '';
    out.push(piece);
  };
  let lt = text.indexOf('<');
  while (lt !== -1) {
    const gt = text.indexOf('>', lt + 1);
    if (gt === -1) break;
    // `<[^>]*>` (ungreedy): from this `<` to the first `>` after it.
    handle(text.slice(copied, lt), false);
    handle(text.slice(lt, gt + 1), true);
    copied = gt + 1;
    lt = text.indexOf('<', copied);
  }
  handle(text.slice(copied), false);
  return out.join('');
}
