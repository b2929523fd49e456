// The CDN's viewer-request function, run locally as CloudFront runs it: the same source
// (lib/contract/rest-route.ts), in a context of its own, on the same event shape. The local
// gateway applies it to every request before routing, so `?rest_route=` URLs and the site's
// calendar feeds behave as they do behind CloudFront.
import { runInNewContext } from 'node:vm';
import { config } from '#lib/runtime/config.js';
import { viewerRequestFunction } from '#lib/contract/rest-route.js';

interface EdgeValue {
  value: string;
  multiValue?: { value: string }[];
}
type EdgeQuery = Record<string, EdgeValue>;
interface EdgeRequest {
  method: string;
  uri: string;
  querystring: EdgeQuery;
}

type EdgeFunction = (event: { version: '1.0'; context: { eventType: 'viewer-request' }; request: EdgeRequest }) => EdgeRequest;

/** The function compiled once per namespace word (tests change it). */
const compiled = new Map<string, EdgeFunction>();
function edgeFunction(): EdgeFunction {
  const namespace = config().namespace;
  let fn = compiled.get(namespace);
  if (!fn) compiled.set(namespace, (fn = runInNewContext(`${viewerRequestFunction(namespace)}\nhandler;`, Object.create(null)) as EdgeFunction));
  return fn;
}

/** CloudFront's `querystring` object: names and values as sent, repeated names in `multiValue`. */
function querystring(raw: string): EdgeQuery {
  const out: EdgeQuery = Object.create(null);
  for (const pair of raw.split('&')) {
    if (pair === '') continue;
    const eq = pair.indexOf('=');
    const name = eq === -1 ? pair : pair.slice(0, eq);
    const value = eq === -1 ? '' : pair.slice(eq + 1);
    const seen = out[name];
    if (!seen) out[name] = { value };
    else (seen.multiValue ??= [{ value: seen.value }]).push({ value });
  }
  return out;
}

/** A query object written back as CloudFront sends it to the origin: its values as they are. */
const serialize = (q: EdgeQuery): string =>
  Object.entries(q)
    .flatMap(([name, v]) => (v.multiValue ?? [v]).map((one) => `${name}=${one.value}`))
    .join('&');

/** The request target (path and query, as sent) after the viewer-request function. */
export function atTheEdge(method: string, target: string): string {
  const q = target.indexOf('?');
  const uri = q === -1 ? target : target.slice(0, q);
  const query = q === -1 ? '' : target.slice(q + 1);
  if (query === '') return target;
  const asked = querystring(query.replace(/#.*$/, ''));
  const out = edgeFunction()({ version: '1.0', context: { eventType: 'viewer-request' }, request: { method, uri, querystring: asked } });
  // The function replaces the query object when it writes a new query, and keeps it otherwise.
  if (out.querystring !== asked) return `${out.uri}?${serialize(out.querystring)}`;
  return out.uri === uri ? target : `${out.uri}?${query}`;
}
