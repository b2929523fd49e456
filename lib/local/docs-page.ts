// The local server's interactive API reference: `GET /docs` is a page that renders the OpenAPI
// document of the same server (`/{lang}/{namespace}/events/v1/doc`, `?lang=` picks the language)
// with Swagger UI, whose files come from node_modules (swagger-ui-dist) under `/docs/assets/`.
// Nothing is fetched from anywhere else: the page's Content-Security-Policy allows only its own
// origin, and "Try it out" is pointed at the origin that served the page, whatever SITE_URL says.
// Local only: the deployed API has no such route.
import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { dirname, extname, resolve, sep } from 'node:path';
import { config, LANGUAGES } from '#lib/runtime/config.js';

export const DOCS_PATH = '/docs';
export const DOCS_ASSETS_PATH = '/docs/assets/';

export interface DocsResponse {
  status: number;
  headers: Record<string, string>;
  body: Buffer;
}

const CONTENT_TYPES: Record<string, string> = {
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.html': 'text/html; charset=utf-8',
  '.png': 'image/png',
  '.map': 'application/json; charset=utf-8',
  '.txt': 'text/plain; charset=utf-8',
};

/** The page's policy: everything from this origin only (Swagger UI sets inline styles and data: images). */
const CSP = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data:",
  "font-src 'self' data:",
  "connect-src 'self'",
  "base-uri 'none'",
  "form-action 'self'",
  "frame-ancestors 'none'",
].join('; ');

/** Our own script, served beside Swagger UI's files (its name is not one of swagger-ui-dist's). */
const INIT_SCRIPT_NAME = 'local-docs-init.js';

// Runs in the browser. Fetches the document itself so that its servers can be pointed at this
// origin before Swagger UI sees them: SITE_URL (where the document's links point) may name
// another host, but the requests the page makes must reach the server that serves it.
const INIT_SCRIPT = `'use strict';
(function () {
  var root = document.documentElement;
  var specUrl = new URL(root.getAttribute('data-spec-url'), location.href);
  var message = document.getElementById('docs-message');
  function say(text, isError) {
    message.textContent = text;
    message.className = isError ? 'docs-message docs-error' : 'docs-message';
    message.hidden = !text;
  }
  // An absolute server URL keeps its path but gets this page's origin; a relative one is resolved
  // against the document's URL. Server variables ({name}) are kept as they are.
  function here(url) {
    var abs = /^(?:[a-z][a-z0-9+.-]*:)?\\/\\/[^/]*/i;
    if (abs.test(url)) return url.replace(abs, location.origin);
    if (url.charAt(0) === '{') return url;
    return new URL(url, specUrl).href.replace(/%7B/gi, '{').replace(/%7D/gi, '}');
  }
  say('Loading ' + specUrl.pathname + '…', false);
  fetch(specUrl.href, { headers: { accept: 'application/json' }, credentials: 'same-origin' })
    .then(function (res) {
      if (!res.ok) throw new Error(specUrl.pathname + ' answered ' + res.status + ' ' + res.statusText);
      return res.json();
    })
    .then(function (spec) {
      if (!spec || typeof spec !== 'object') throw new Error(specUrl.pathname + ' is not an OpenAPI document');
      if (spec.swagger) {
        // Swagger 2.0: host and schemes say where requests go.
        spec.host = location.host;
        spec.schemes = [location.protocol.replace(':', '')];
      } else {
        var base = specUrl.href.replace(/\\/doc\\/?$/, '/');
        var moved = function (list) {
          return list.map(function (s) {
            var copy = Object.assign({}, s);
            copy.url = here(String(s && s.url != null ? s.url : base));
            return copy;
          });
        };
        spec.servers = moved(Array.isArray(spec.servers) && spec.servers.length ? spec.servers : [{ url: base }]);
        // Path items and operations may name servers of their own (WordPress's routes, under
        // /{lang}/wp/v2, do): those requests must reach this origin too.
        var paths = spec.paths && typeof spec.paths === 'object' ? spec.paths : {};
        Object.keys(paths).forEach(function (key) {
          var item = paths[key];
          if (!item || typeof item !== 'object') return;
          if (Array.isArray(item.servers)) item.servers = moved(item.servers);
          Object.keys(item).forEach(function (name) {
            var op = item[name];
            if (op && typeof op === 'object' && Array.isArray(op.servers)) op.servers = moved(op.servers);
          });
        });
      }
      say('', false);
      window.ui = SwaggerUIBundle({
        spec: spec,
        dom_id: '#swagger-ui',
        presets: [SwaggerUIBundle.presets.apis],
        layout: 'BaseLayout',
        deepLinking: true,
        validatorUrl: null,
        displayRequestDuration: true,
        persistAuthorization: true,
        oauth2RedirectUrl: location.origin + '${DOCS_ASSETS_PATH}oauth2-redirect.html',
      });
    })
    .catch(function (err) {
      say('Could not load the API description: ' + (err && err.message ? err.message : err), true);
    });
})();
`;

const PAGE_STYLE = `body{margin:0;font-family:sans-serif;background:#fafafa}
.docs-bar{display:flex;flex-wrap:wrap;gap:1em;align-items:baseline;padding:10px 20px;background:#1b1b1b;color:#eee;font-size:14px}
.docs-bar strong{font-size:16px}.docs-bar a{color:#9cf}.docs-bar .current{color:#fff;font-weight:bold;text-decoration:none}
.docs-bar code{color:#cfc}.docs-message{margin:20px;font-size:15px}.docs-error{color:#b00}`;

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

function pageHtml(lang: string, specUrl: string): string {
  const langs = LANGUAGES.map((l) =>
    l === lang ? `<a class="current" href="${DOCS_PATH}?lang=${l}" aria-current="page">${l}</a>` : `<a href="${DOCS_PATH}?lang=${l}">${l}</a>`,
  ).join(' ');
  return `<!doctype html>
<html lang="${escapeHtml(lang)}" data-spec-url="${escapeHtml(specUrl)}">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Event Calendar API reference (${escapeHtml(lang)})</title>
<link rel="icon" type="image/png" href="${DOCS_ASSETS_PATH}favicon-32x32.png" sizes="32x32">
<link rel="stylesheet" href="${DOCS_ASSETS_PATH}swagger-ui.css">
<link rel="stylesheet" href="${DOCS_ASSETS_PATH}local-docs.css">
</head>
<body>
<nav class="docs-bar">
<strong>Event Calendar API</strong>
<span>Language: ${langs}</span>
<span>Document: <a href="${escapeHtml(specUrl)}">${escapeHtml(specUrl)}</a></span>
<span>Bearer token: <code>npm run token -- --role editor</code></span>
<span>Application password: make one with POST /users/me/application-passwords, then use the login (the token's subject, e.g. <code>local-editor</code>) and the password as basicAuth</span>
</nav>
<p id="docs-message" class="docs-message" hidden></p>
<div id="swagger-ui"></div>
<script src="${DOCS_ASSETS_PATH}swagger-ui-bundle.js"></script>
<script src="${DOCS_ASSETS_PATH}${INIT_SCRIPT_NAME}"></script>
</body>
</html>
`;
}

interface Asset {
  body: Buffer;
  type: string;
  etag: string;
}

function asset(body: Buffer, type: string): Asset {
  return { body, type, etag: `"${createHash('sha256').update(body).digest('base64url').slice(0, 27)}"` };
}

/** Our own files, beside swagger-ui-dist's. */
const OWN_ASSETS = new Map<string, Asset>([
  [INIT_SCRIPT_NAME, asset(Buffer.from(INIT_SCRIPT), CONTENT_TYPES['.js']!)],
  ['local-docs.css', asset(Buffer.from(PAGE_STYLE), CONTENT_TYPES['.css']!)],
]);

let uiDir: string | undefined;
/** swagger-ui-dist's folder (resolved on first use, so the gateway starts without it). */
function swaggerUiDir(): string {
  return (uiDir ??= dirname(createRequire(import.meta.url).resolve('swagger-ui-dist/package.json')));
}

/** Each file is read once; a failed read is not kept, so it is tried again next time. */
const assets = new Map<string, Promise<Asset | undefined>>();

/** A plain file name of swagger-ui-dist: no folders, no dot files, nothing to decode into `..`. */
const ASSET_NAME = /^[A-Za-z0-9][A-Za-z0-9._-]*$/;

function loadAsset(name: string): Promise<Asset | undefined> {
  const own = OWN_ASSETS.get(name);
  if (own) return Promise.resolve(own);
  const type = CONTENT_TYPES[extname(name).toLowerCase()];
  if (!type || !ASSET_NAME.test(name) || name.includes('..')) return Promise.resolve(undefined);
  let loaded = assets.get(name);
  if (!loaded) {
    loaded = (async () => {
      const dir = swaggerUiDir();
      const file = resolve(dir, name);
      if (!file.startsWith(dir + sep)) return undefined;
      try {
        return asset(await readFile(file), type);
      } catch (err) {
        const code = (err as NodeJS.ErrnoException).code;
        if (code === 'ENOENT' || code === 'EISDIR' || code === 'ENOTDIR') return undefined;
        throw err;
      }
    })();
    assets.set(name, loaded);
    // Misses are not kept (any name could be asked for); neither are failures.
    loaded.then(
      (found) => {
        if (!found) assets.delete(name);
      },
      () => assets.delete(name),
    );
  }
  return loaded;
}

function text(status: number, message: string, extra: Record<string, string> = {}): DocsResponse {
  return {
    status,
    headers: { 'content-type': 'text/plain; charset=utf-8', 'x-content-type-options': 'nosniff', ...extra },
    body: Buffer.from(`${message}\n`),
  };
}

/**
 * The answer for `GET`/`HEAD /docs`, `/docs/` and `/docs/assets/<file>`; undefined for anything
 * else (other paths and methods go through the API's routing, which answers rest_no_route).
 * `target` is the request target (path and query); `headers` are the request's.
 */
export async function docsResponse(method: string, target: string, headers: Record<string, string | string[] | undefined> = {}): Promise<DocsResponse | undefined> {
  const verb = method.toUpperCase();
  if (verb !== 'GET' && verb !== 'HEAD') return undefined;
  // Every request comes here first: anything outside /docs leaves before its query is parsed.
  if (!target.startsWith(DOCS_PATH)) return undefined;
  const q = target.indexOf('?');
  const path = q < 0 ? target : target.slice(0, q);

  if (path === DOCS_PATH || path === `${DOCS_PATH}/`) {
    const lang = new URLSearchParams(q < 0 ? '' : target.slice(q + 1)).get('lang') || 'en';
    if (!(LANGUAGES as readonly string[]).includes(lang)) {
      return text(400, `Unknown language "${lang}": use one of ${LANGUAGES.map((l) => `${DOCS_PATH}?lang=${l}`).join(', ')}.`);
    }
    const specUrl = `/${lang}/${config().namespace}/events/v1/doc`;
    return {
      status: 200,
      headers: {
        'content-type': 'text/html; charset=utf-8',
        'cache-control': 'no-store',
        'content-security-policy': CSP,
        'x-content-type-options': 'nosniff',
        'referrer-policy': 'same-origin',
      },
      body: Buffer.from(pageHtml(lang, specUrl)),
    };
  }

  if (!path.startsWith(DOCS_ASSETS_PATH)) return undefined;
  let name: string;
  try {
    name = decodeURIComponent(path.slice(DOCS_ASSETS_PATH.length));
  } catch {
    return text(400, 'Malformed path.');
  }
  let found: Asset | undefined;
  try {
    found = await loadAsset(name);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'MODULE_NOT_FOUND') throw err;
    return text(503, 'swagger-ui-dist is not installed: run `npm install` (it is a devDependency).');
  }
  if (!found) return text(404, `No such file: ${DOCS_ASSETS_PATH}${encodeURIComponent(name)}`);
  const base = {
    'content-type': found.type,
    etag: found.etag,
    // Revalidated every time (the files change when the package is updated); 304 while unchanged.
    'cache-control': 'no-cache',
    'x-content-type-options': 'nosniff',
  };
  const ifNoneMatch = headers['if-none-match'];
  const tags = (Array.isArray(ifNoneMatch) ? ifNoneMatch.join(',') : (ifNoneMatch ?? '')).split(',').map((t) => t.trim().replace(/^W\//, ''));
  if (tags.includes(found.etag) || tags.includes('*')) return { status: 304, headers: base, body: Buffer.alloc(0) };
  return { status: 200, headers: base, body: found.body };
}
