// WordPress-like slugs (post_name / term slug) with transliteration of Cyrillic and Latin
// diacritics, and the -2, -3, … candidates used to make a slug unique.

export const MAX_SLUG_LENGTH = 200;

/** Lower-case letters that NFD decomposition does not reduce to ASCII. */
const TRANSLIT: Record<string, string> = {
  // Russian
  а: 'a',
  б: 'b',
  в: 'v',
  г: 'g',
  д: 'd',
  е: 'e',
  ё: 'yo',
  ж: 'zh',
  з: 'z',
  и: 'i',
  й: 'y',
  к: 'k',
  л: 'l',
  м: 'm',
  н: 'n',
  о: 'o',
  п: 'p',
  р: 'r',
  с: 's',
  т: 't',
  у: 'u',
  ф: 'f',
  х: 'kh',
  ц: 'ts',
  ч: 'ch',
  ш: 'sh',
  щ: 'shch',
  ъ: '',
  ы: 'y',
  ь: '',
  э: 'e',
  ю: 'yu',
  я: 'ya',
  // Ukrainian, Belarusian
  і: 'i',
  ї: 'yi',
  є: 'ye',
  ґ: 'g',
  ў: 'u',
  // Serbian, Macedonian
  ђ: 'dj',
  ј: 'j',
  љ: 'lj',
  њ: 'nj',
  ћ: 'c',
  џ: 'dz',
  ѓ: 'gj',
  ќ: 'kj',
  ѕ: 'dz',
  // Latin letters without a decomposition
  ß: 'ss',
  æ: 'ae',
  ø: 'o',
  œ: 'oe',
  đ: 'd',
  ð: 'd',
  þ: 'th',
  ł: 'l',
  ı: 'i',
  ħ: 'h',
  ŧ: 't',
  ŀ: 'l',
  ĸ: 'k',
  ŋ: 'ng',
  ſ: 's',
};

/** Characters WordPress removes without leaving a separator ("Don't" -> "dont"; control characters but whitespace). */
const DROPPED_RE = /['\u2018\u2019\u201B`\u00B4\x00-\x08\x0E-\x1F]/g;

/** Cuts `slug` to at most `max` characters, at a '-' boundary when there is one. */
function truncate(slug: string, max: number): string {
  if (slug.length <= max) return slug;
  let cut = slug.slice(0, max);
  if (slug[max] !== '-') {
    const dash = cut.lastIndexOf('-');
    if (dash > 0) cut = cut.slice(0, dash);
  }
  return cut.replace(/-+$/, '');
}

/**
 * WordPress-like slug: lower-case [a-z0-9-], runs of other characters -> one '-', trimmed of '-',
 * Cyrillic transliterated, Latin diacritics stripped, HTML tags/entities and apostrophes removed,
 * at most 200 characters. Returns '' when nothing usable remains.
 */
export function slugify(text: string): string {
  const lower = text
    .replace(/<[^>]*>/g, ' ')
    .replace(/&(?:#\d+|#x[0-9a-f]+|[a-z][a-z0-9]*);/gi, ' ')
    .toLowerCase();
  let out = '';
  for (const ch of lower) out += TRANSLIT[ch] ?? ch;
  const slug = out
    .normalize('NFD')
    .replace(/\p{M}+/gu, '')
    .replace(DROPPED_RE, '')
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '');
  return truncate(slug, MAX_SLUG_LENGTH);
}

/**
 * `count` candidates for a wanted slug, numbered from `from` (1 = the bare slug, then slug-2,
 * slug-3, …). A slug already ending in -N is still the base ('foo-2' -> 'foo-2', 'foo-2-2').
 * As in WordPress, the base is shortened so that a suffixed candidate stays within 200 chars.
 */
export function slugCandidates(slug: string, count: number, from = 1): string[] {
  const out: string[] = [];
  const start = Math.max(1, Math.floor(from));
  for (let n = start; n < start + count; n++) {
    if (n === 1) {
      out.push(slug);
      continue;
    }
    const suffix = `-${n}`;
    out.push(truncate(slug, MAX_SLUG_LENGTH - suffix.length) + suffix);
  }
  return out;
}
