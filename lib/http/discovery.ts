// How WordPress clients find the API: the `Link: <…/wp-json/>; rel="https://api.w.org/"` header that
// WordPress sends with every REST answer and every page (the `wpapi` client's discovery reads it),
// and the `X-TEC-API-*` headers TEC adds to the site's pages. The site root (`GET /`) is such a page.
import type { APIGatewayProxyStructuredResultV2 } from 'aws-lambda';
import { escHtml } from '#lib/wp/entities.js';
import { REST_PREFIX, type Config } from '#lib/runtime/config.js';

/** The link relation of a WordPress site's REST root. */
export const API_REL = 'https://api.w.org/';

/** WordPress's discovery header: the REST root (with its trailing slash) as a Link. */
export const apiRootLink = (root: string): string => `<${root}>; rel="${API_REL}"`;

/**
 * The discovery header of one answer, unless the answer has a Link of its own: WordPress sends
 * its header first and a pagination Link replaces it (WP_REST_Server::send_header replaces).
 */
export function discoveryHeaders(root: string, answerHeaders: Record<string, string> | undefined): Record<string, string> {
  const own = Object.keys(answerHeaders ?? {}).some((name) => name.toLowerCase() === 'link');
  return own ? {} : { link: apiRootLink(root) };
}

/** TEC's headers on the site's pages: its API's version, root and origin. */
export function tecPageHeaders(cfg: Config): Record<string, string> {
  return {
    link: apiRootLink(`${cfg.siteUrl}/${REST_PREFIX}/`),
    'x-tec-api-version': 'v1',
    'x-tec-api-root': `${cfg.siteUrl}/${REST_PREFIX}/${cfg.namespace}/events/v1/`,
    'x-tec-api-origin': cfg.siteUrl,
  };
}

/**
 * The site root: a small page that names the site and points at its REST API, with WordPress's
 * and TEC's discovery headers, as a WordPress site's home page sends them.
 */
export function sitePage(cfg: Config, head: boolean): APIGatewayProxyStructuredResultV2 {
  const root = `${cfg.siteUrl}/${REST_PREFIX}/`;
  const body =
    '<!DOCTYPE html>\n<html lang="en">\n<head>\n<meta charset="UTF-8">\n' +
    `<title>${escHtml(cfg.siteName)}</title>\n<link rel="${API_REL}" href="${escHtml(root)}">\n</head>\n<body>\n` +
    `<h1>${escHtml(cfg.siteName)}</h1>\n${cfg.siteDescription ? `<p>${escHtml(cfg.siteDescription)}</p>\n` : ''}` +
    `<p>The calendar's REST API: <a href="${escHtml(root)}">${escHtml(root)}</a></p>\n</body>\n</html>\n`;
  return {
    statusCode: 200,
    headers: { 'content-type': 'text/html; charset=UTF-8', 'cache-control': 'public, max-age=300', 'x-content-type-options': 'nosniff', ...tecPageHeaders(cfg) },
    body: head ? '' : body,
  };
}
