// The OpenAPI 3.1 document served at /doc (docs/tec-behaviour.md §9.1), generated, never written by hand:
// - paths, methods, parameters and request bodies come from the operation table (operations.ts)
//   and the argument definitions (args/*.ts, params.ts): paths.ts, parameters.ts, request-bodies.ts;
// - the response schemas of records are inferred from what the presenters (present.ts) return for
//   representative stored items (record-samples.ts), so a presenter change shows up here; only
//   descriptions and the links between schemas ($ref) are written down (record-schemas.ts), and
//   test/unit/openapi.test.ts fails when they drift from the presenters;
// - list envelopes, the namespace index and the error envelope are small fixed shapes, written
//   down once (fixed-schemas.ts); TEC's status codes follow from the operation table (responses.ts);
// - WordPress's own routes (`api: 'wp'`: users/me and application passwords) live under
//   `/{lang}/wp/v2`, not below the document's server: their path items carry the language's root
//   as their server and are keyed from it (`/wp/v2/tags`, apart from TEC's `/tags`), and
//   their shapes and status codes are WordPress's, written down in a table of their own
//   (wp-schemas.ts, wp-responses.ts); so does the REST index (`api: 'rest'`, `/{lang}` below the
//   site: `/wp-json/` and each language's root);
// - examples (path variables, request bodies) name records of the local demo calendar
//   (DEMO_RECORDS, examples.ts), so that "Try it out" on the local /docs page works as it is.
// The document is built on first use and cached per process (per language and site), here.
import { apiBase, config, restRoot, type Lang } from '#lib/runtime/config.js';
import { OPERATIONS } from '#lib/contract/operations.js';
import type { Json } from './json-schema.js';
import { components } from './components.js';
import { buildPaths, joinPaths, serverUrl } from './paths.js';

// --- the document ----------------------------------------------------------------------------------

function deepFreeze<T>(value: T): T {
  if (value && typeof value === 'object' && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const v of Object.values(value)) deepFreeze(v);
  }
  return value;
}

/** TEC's path items by namespace, WordPress's by their server (site and language). */
const tecPathsByNamespace = new Map<string, Record<string, Json>>();
const wpPathsByServer = new Map<string, Record<string, Json>>();
const tecV1PathsByServer = new Map<string, Record<string, Json>>();
const documents = new Map<string, Json>();

/** The OpenAPI document for one language (its server URL is that language's API base). Cached and frozen. */
export function openApiDocument(lang: Lang): Json {
  const cfg = config();
  const server = `${apiBase(lang, cfg)}/`;
  // WordPress's routes are keyed from the REST root (`/wp/v2/tags`), apart from TEC's `/tags`.
  const wpServer = `${restRoot(lang, cfg)}/`;
  const ns = `${cfg.namespace}/events/v1`;
  const cacheKey = `${ns}|${server}|${wpServer}`;
  let doc = documents.get(cacheKey);
  if (!doc) {
    let tec = tecPathsByNamespace.get(ns);
    if (!tec)
      tecPathsByNamespace.set(
        ns,
        (tec = buildPaths(
          OPERATIONS.filter((op) => op.api === 'tec'),
          ns,
        )),
      );
    // The REST index (`/{lang}`, `/wp-json/`) is below the site itself.
    const rest = buildPaths(
      OPERATIONS.filter((op) => op.api === 'rest'),
      ns,
      [{ url: serverUrl('rest', lang, cfg), description: "WordPress's REST index, at each language's root and at /wp-json/" }],
    );
    let wp = wpPathsByServer.get(wpServer);
    if (!wp) {
      const servers = [{ url: wpServer, description: "WordPress's own routes (wp/v2), outside this API's namespace" }];
      wpPathsByServer.set(
        wpServer,
        (wp = buildPaths(
          OPERATIONS.filter((op) => op.api === 'wp'),
          ns,
          servers,
        )),
      );
    }
    let tecV1 = tecV1PathsByServer.get(wpServer);
    if (!tecV1) {
      const servers = [{ url: wpServer, description: "TEC's experimental tec/v1 namespace: every record route needs the X-TEC-EEA acknowledgement header" }];
      tecV1PathsByServer.set(
        wpServer,
        (tecV1 = buildPaths(
          OPERATIONS.filter((op) => op.api === 'tecV1'),
          ns,
          servers,
        )),
      );
    }
    doc = deepFreeze({
      openapi: '3.1.0',
      info: {
        version: '1.0.0',
        title: 'The Events Calendar REST API',
        description: 'The Events Calendar REST API allows accessing upcoming events information easily and conveniently.',
      },
      components: components().value,
      servers: [{ url: server }],
      paths: joinPaths(tec, { ...wp, ...tecV1, ...rest }),
    });
    documents.set(cacheKey, doc);
  }
  return doc;
}
