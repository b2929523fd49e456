// URL arguments (a website, an image): saved as WordPress and TEC save URLs. Apart from the other
// parameter types because it carries WordPress's URL cleaning, which the functions that take no
// URL (and the stream consumer) do without.
import * as z from 'zod/mini';
import { escUrlRaw, specialcharsDecode } from '#lib/wp/entities.js';
import { phpStripTags } from '#lib/wp/strip.js';
import { refuseValue } from './params.js';

/**
 * Characters no URL holds, which TEC refuses in one (its FILTER_VALIDATE_URL): C0 and C1 controls
 * (CR, LF, tab, NEL…), DEL, and the line and paragraph separators. WordPress's esc_url_raw() keeps
 * the last three, and a calendar file's readers may take any of them as a line's end.
 */
const NOT_IN_URL = /[\x00-\x1F\x7F-\x9F\u2028\u2029]/;
/** An http or https URL with a host, as given (TEC refuses one without its scheme, and so does this API). */
const WEB_URL = /^https?:\/\/[^/?#\\]/i;

/**
 * A URL as it is saved: TEC's cleaning of a website (htmlspecialchars_decode and strip_tags, so
 * `<b>` goes with its name), then WordPress's esc_url_raw(), which keeps only the characters a URL
 * may hold (no `"`, `<`, `>`, `\`, `{`…), removes `%0d` / `%0a`, encodes a space as `%20` and `[`
 * / `]` after the host, and empties a scheme it does not allow. Control characters are refused
 * before that (see NOT_IN_URL), and so is what is no http or https URL before or after.
 */
function saveUrl(value: string): string | undefined {
  const v = value.trim();
  if (v === '') return '';
  if (NOT_IN_URL.test(v) || !WEB_URL.test(v)) return undefined;
  const clean = escUrlRaw(phpStripTags(specialcharsDecode(v)));
  return WEB_URL.test(clean) && URL.canParse(clean) ? clean : undefined;
}

/** A URL (http or https), saved as saveUrl() cleans it, or the empty string, which clears the value. */
export function urlOrEmpty() {
  return z.pipe(
    z.unknown(),
    z.transform((value, ctx) => {
      if (typeof value !== 'string') return refuseValue(ctx, value, 'is not of type string.', 'rest_invalid_type');
      const url = saveUrl(value);
      return url ?? refuseValue(ctx, value, 'is not a valid URL.');
    }),
  );
}
