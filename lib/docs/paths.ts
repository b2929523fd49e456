// The paths of the OpenAPI document: one path item per path of the operation table, one operation
// object per method, TEC's below the document's server and WordPress's with a server of their own.
import { config, restRoot, type Config, type Lang } from '#lib/runtime/config.js';
import { API_ROOTS, type Api, type Method, type Operation } from '#lib/contract/operations.js';
import { documentedArgs, pathNames } from '#lib/contract/arg-docs.js';
import type { Json } from './json-schema.js';
import { BODY_METHODS, bodyArgs } from './body-args.js';
import { httpHeaders, parameter, PATH_FALLBACK } from './parameters.js';
import { inputName } from './request-bodies.js';
import { responses } from './responses.js';
import { SIGN_IN } from './security.js';
import { wpDoc } from './wp-responses.js';

// --- paths -----------------------------------------------------------------------------------------

function operationObject(op: Operation, method: Method, ns: string): Json {
  const args = documentedArgs(op, ns);
  const inPath = pathNames(op.path);
  const rest = Object.entries(args).filter(([n]) => !inPath.includes(n));
  const hasBody = BODY_METHODS.includes(method);
  const parameters = [
    ...inPath.map((n) => parameter(op, n, 'path', args[n] ?? PATH_FALLBACK)),
    ...(hasBody ? [] : rest.map(([n, a]) => parameter(op, n, 'query', a))),
    ...httpHeaders(op),
  ];
  return {
    tags: [op.id.split('.')[0]],
    summary: op.summary,
    ...(describe(op) ? { description: describe(op) } : {}),
    operationId: method === op.methods[0] ? op.id : `${op.id}.${method.toLowerCase()}`,
    // TEC's reads declare no security, so that documentation tools show no lock on them:
    // credentials there are optional and only widen what the caller sees (the description says so).
    ...(op.access === 'write' || op.api === 'wp' ? { security: SIGN_IN } : {}),
    ...(parameters.length ? { parameters } : {}),
    ...(hasBody && bodyArgs(op) ? { requestBody: { $ref: `#/components/requestBodies/${inputName(op)}` } } : {}),
    responses: responses(op),
  };
}

/** Notes that apply to every method of an operation. */
function describe(op: Operation): string | undefined {
  const notes: string[] = [];
  if (op.api === 'wp') notes.push(wpDoc(op).description);
  if (op.methods.length > 1) notes.push(`${op.methods.slice(0, -1).join(', ')} and ${op.methods.at(-1)} do the same.`);
  if (op.api === 'tec' && op.access === 'read' && op.tableActions.length) {
    notes.push('No credentials are needed; with a bearer token or an application password the answer also shows the unpublished records the caller may read.');
  }
  return notes.length ? notes.join(' ') : undefined;
}

/**
 * The URL an API's routes are below, in the request's link form: `https://example.org/en/wp/v2/`,
 * `https://example.org/wp-json/wp/v2/`; the REST root's own route carries its prefix: the site URL.
 */
export function serverUrl(api: Api, lang: Lang, cfg: Config = config()): string {
  const root = API_ROOTS[api](cfg.namespace);
  return root.startsWith('/{lang}') ? `${restRoot(lang, cfg)}${root.slice('/{lang}'.length)}/` : `${cfg.siteUrl}${root}/`;
}

/**
 * An operation's key in the document: TEC's path below the document's server, WordPress's and
 * `tec/v1`'s below the REST root (their server), so that `/wp/v2/tags` is not TEC's `/tags`, nor
 * `/tec/v1/events` its `/events`.
 */
export const documentKey = (op: Operation): string => (op.api === 'wp' || op.api === 'tecV1' ? `${API_ROOTS[op.api]('').replace('/{lang}', '')}${op.path}` : op.path || '/');

/** The path items of some operations, keyed by documentKey. */
export function buildPaths(ops: readonly Operation[], ns: string, servers?: Json[]): Record<string, Json> {
  const paths: Record<string, Json> = {};
  for (const op of ops) {
    // The namespace root is the server URL itself.
    const item = (paths[documentKey(op)] ??= servers ? { servers } : {});
    for (const method of op.methods) item[method.toLowerCase()] = operationObject(op, method, ns);
  }
  return paths;
}

/** Path keys that OpenAPI takes as the same path: equal once their variables' names are dropped. */
const pathShape = (path: string) => path.replace(/\{[^}]*\}/g, '{}');

/**
 * TEC's paths and then WordPress's, which carry their own server. Their keys must differ: one
 * path item has one server list, so a WordPress path equal to a TEC one could not be told apart.
 */
export function joinPaths(tec: Record<string, Json>, wp: Record<string, Json>): Record<string, Json> {
  const shapes = new Set(Object.keys(tec).map(pathShape));
  const clash = Object.keys(wp).filter((k) => shapes.has(pathShape(k)));
  if (clash.length) throw new Error(`WordPress paths collide with TEC paths in the OpenAPI document: ${clash.join(', ')}`);
  return { ...tec, ...wp };
}
