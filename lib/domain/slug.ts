// WordPress's slugs (post_name / term slug): sanitize_title() with remove_accents() and
// sanitize_title_with_dashes() in its `save` context, with Cyrillic transliterated, and the -2, -3, …
// candidates used to make a slug unique. Where WordPress keeps a character as percent-encoded
// UTF-8 (`%e6%bc%a2`, and `%xx` written in the title), a slug here keeps no `%`: other scripts'
// letters and emoji separate words as spaces do, and a `%` is dropped like other punctuation.

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
  // remove_accents() outside a German locale.
  ß: 's',
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
  ŋ: 'n',
  ſ: 's',
};

/**
 * Characters sanitize_title_with_dashes() removes in its `save` context (by their UTF-8 octets
 * there); the combining accents it lists go with every other mark, after NFD.
 */
const STRIPPED_RE =
  /[\u00AD\u00A1\u00BF\u00AB\u00BB\u2039\u203A\u2018\u2019\u201C\u201D\u201A\u201B\u201E\u201F\u2022\u00A9\u00AE\u00B0\u2026\u2122\u00B4\u02CA\u200B-\u200F\u202A-\u202E\uFEFF\uFFFC]/g;
/** Characters it turns into a hyphen: no-break, en and em dashes, and the spaces with a width. */
const HYPHENED_RE = /[\u00A0\u2013\u2014\u2000-\u200A\u2028\u2029\u202F/]|&(?:nbsp|#160|ndash|#8211|mdash|#8212);/g;

/** PHP's strip_tags(), near enough for titles: a `<` that opens a tag, to its `>` or the end. */
const TAG_RE = /<(?=[!/?a-z])[^>]*(?:>|$)/gi;

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
 * sanitize_title( $title ) as WordPress saves it: tags and percent signs out, accents removed
 * (Cyrillic transliterated), lower case, dashes and wide spaces to `-`, curly quotes, ©, …, soft
 * hyphens and zero-width characters out, `×` to `x`, entities (`&…;`) out, `.` and `/` to `-`,
 * then every character but `a-z0-9_-` and spaces removed (backslashes, quotes, `+`, `#`, control
 * characters: "c\\s" is `cs`), spaces to `-`, runs of `-` as one, at most 200 characters. Returns
 * '' when nothing usable remains.
 */
export function slugify(text: string): string {
  const lower = text.replace(TAG_RE, '').replace(/%/g, '').toLowerCase();
  let out = '';
  for (const ch of lower) out += TRANSLIT[ch] ?? ch;
  const slug = out
    .replace(STRIPPED_RE, '')
    .replace(HYPHENED_RE, '-')
    .replace(/\u00D7/g, 'x')
    .normalize('NFD')
    .replace(/\p{M}+/gu, '')
    .replace(/&.+?;/g, '')
    .replace(/\./g, '-')
    // Letters of other scripts and symbols, which WordPress keeps percent-encoded, part words here.
    .replace(/[^\x00-\x7F]+/g, ' ')
    .replace(/[^a-z0-9 _-]/g, '')
    .replace(/\s+/g, '-')
    .replace(/-+/g, '-')
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
