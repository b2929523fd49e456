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

/**
 * wp_allowed_protocols(), the schemes esc_url_raw() keeps, by whether a URL of it names a host
 * (`ftp://host/…`) or not (`mailto:a@example.org`). A live TEC 6.17.2 stores and shows a website
 * of each scheme with a host, and `mailto:` and `news:`, as given; its REST routes' URL filter
 * refuses `tel:`, `sms:`, `fax:`, `xmpp:` and `urn:`, which WordPress's esc_url_raw() keeps and a
 * site's own pages may have stored: this API takes them, so that such a site imports whole.
 */
const WITH_HOST = ['http', 'https', 'ftp', 'ftps', 'irc', 'irc6', 'ircs', 'gopher', 'nntp', 'feed', 'telnet', 'mms', 'rtsp', 'svn', 'webcal'];
const WITHOUT_HOST = ['mailto', 'news', 'sms', 'tel', 'fax', 'xmpp', 'urn'];
/** A URL of an allowed scheme, as given: with its host, or with something after the colon. */
const ALLOWED_URL = new RegExp(`^(?:(?:${WITH_HOST.join('|')}):\\/\\/[^/?#\\\\]|(?:${WITHOUT_HOST.join('|')}):[^\\s])`, 'i');

/**
 * A URL as it is saved: TEC's cleaning of a website (htmlspecialchars_decode and strip_tags, so
 * `<b>` goes with its name), then WordPress's esc_url_raw(), which keeps only the characters a URL
 * may hold (no `"`, `<`, `>`, `\`, `{`…), removes `%0d` / `%0a`, encodes a space as `%20` and `[`
 * / `]` after the host, and empties a scheme it does not allow. Control characters are refused
 * before that (see NOT_IN_URL), and so is what is no URL of an allowed scheme before or after.
 */
function saveUrl(value: string, allowed: RegExp): string | undefined {
  const v = value.trim();
  if (v === '') return '';
  if (NOT_IN_URL.test(v) || !allowed.test(v)) return undefined;
  const clean = escUrlRaw(phpStripTags(specialcharsDecode(v)));
  return allowed.test(clean) && URL.canParse(clean) ? clean : undefined;
}

/** An http or https URL with a host: an image is fetched (TEC refuses one of another scheme, 400). */
const WEB_URL = /^https?:\/\/[^/?#\\]/i;

const urlArg = (allowed: RegExp) =>
  z.pipe(
    z.unknown(),
    z.transform((value, ctx) => {
      if (typeof value !== 'string') return refuseValue(ctx, value, 'is not of type string.', 'rest_invalid_type');
      const url = saveUrl(value, allowed);
      return url ?? refuseValue(ctx, value, 'is not a valid URL.');
    }),
  );

/** Whether a URL is one this API keeps as given or cleaned (`image`: an image's, http or https), not one it refuses. */
export const keepsUrl = (value: string, image = false): boolean => saveUrl(value, image ? WEB_URL : ALLOWED_URL) !== undefined;

/** A website: a URL of a scheme WordPress allows, saved as saveUrl() cleans it, or '', which clears the value. */
export const urlOrEmpty = () => urlArg(ALLOWED_URL);

/** An image: an http or https URL, saved as saveUrl() cleans it, or '', which clears the value. */
export const imageUrlOrEmpty = () => urlArg(WEB_URL);
