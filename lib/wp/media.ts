// wp_filter_content_tags() for content without attachments: every `<img>` gets
// `decoding="async"` (wp_img_tag_add_loading_optimization_attrs), and images and iframes with
// width and height get `loading="lazy"` — a REST request is never "in the loop", so WordPress
// cannot tell that an image is in the first viewport.
import { isPcreSpace, replaceAll } from './php.js';

const hasAttr = (tag: string, pattern: RegExp) => pattern.test(tag);

const WIDTH = / width=["']([0-9]+)["']/;
const HEIGHT = / height=["']([0-9]+)["']/;
const LOADING = / loading=["']([A-Za-z]+)["']/;
const DECODING = / decoding=["']([A-Za-z]+)["']/;

/** wp_img_tag_add_loading_optimization_attrs() and wp_img_tag_add_auto_sizes(). */
function filterImage(image: string): string {
  let out = image;
  const loadingValue = LOADING.exec(out)?.[1];
  const decodingValue = DECODING.exec(out)?.[1];
  const sized = hasAttr(out, WIDTH) && hasAttr(out, HEIGHT);
  if (!out.includes(' src="')) return out;
  if (!decodingValue) out = replaceAll(out, '<img', '<img decoding="async"');
  if (!out.includes(' width="') || !out.includes(' height="')) return out;
  if (!loadingValue && sized) out = replaceAll(out, '<img', '<img loading="lazy"');
  return addAutoSizes(out);
}

/** wp_img_tag_add_auto_sizes(): `sizes="auto, …"` on lazy images that have width and sizes. */
function addAutoSizes(image: string): string {
  if (!/ loading=(["'])lazy\1/i.test(image) || !/ width=["']?[^"'\s>]/.test(image)) return image;
  const sizes = / sizes=(["'])([^"']*)\1/.exec(image);
  if (!sizes) return image;
  const first = sizes[2]!.toLowerCase().split(',')[0]!.trim();
  if (first === 'auto') return image;
  return image.replace(sizes[0], ` sizes="auto, ${sizes[2]}"`);
}

/** wp_iframe_tag_add_loading_attr(). */
function filterIframe(iframe: string): string {
  if (iframe.includes(' loading=')) return iframe;
  if (!iframe.includes(' src="') || !iframe.includes(' width="') || !iframe.includes(' height="')) return iframe;
  return replaceAll(iframe, '<iframe', '<iframe loading="lazy"');
}

/** wp_filter_content_tags( $content ): `<(img|iframe)\s[^>]+>` tags, left to right. */
export function filterContentTags(content: string): string {
  if (!content.includes('<img') && !content.includes('<iframe')) return content;
  const out: string[] = [];
  let copied = 0;
  let i = content.indexOf('<');
  while (i !== -1) {
    const name = content.startsWith('img', i + 1) ? 'img' : content.startsWith('iframe', i + 1) ? 'iframe' : '';
    const space = i + 1 + name.length;
    if (name === '' || !isPcreSpace(content[space])) {
      i = content.indexOf('<', i + 1);
      continue;
    }
    const gt = content.indexOf('>', space + 1);
    if (gt === -1) break;
    if (gt === space + 1) {
      i = content.indexOf('<', i + 1);
      continue;
    }
    const tag = content.slice(i, gt + 1);
    out.push(content.slice(copied, i), name === 'img' ? filterImage(tag) : filterIframe(tag));
    copied = gt + 1;
    i = content.indexOf('<', copied);
  }
  if (copied === 0) return content;
  out.push(content.slice(copied));
  return out.join('');
}
