// The CDN's viewer-request function, run locally as CloudFront runs it: the same source
// (lib/contract/rest-route.ts), in a context of its own, on the same event shape. The local
// gateway applies it to every request before routing, so `?rest_route=` URLs behave as they do
// behind CloudFront.
import { runInNewContext } from 'node:vm';
import { REST_ROUTE_FUNCTION } from '#lib/contract/rest-route.js';

interface EdgeValue {
  value: string;
  multiValue?: { value: string }[];
}
interface EdgeRequest {
  method: string;
  uri: string;
  querystring: Record<string, EdgeValue>;
}

type EdgeFunction = (event: { version: '1.0'; context: { eventType: 'viewer-request' }; request: EdgeRequest }) => EdgeRequest;

let compiled: EdgeFunction | undefined;
const edgeFunction = () => (compiled ??= runInNewContext(`${REST_ROUTE_FUNCTION}\nhandler;`, Object.create(null)) as EdgeFunction);

/** CloudFront's `querystring` object: names and values as sent, repeated names in `multiValue`. */
function querystring(raw: string): Record<string, EdgeValue> {
  const out: Record<string, EdgeValue> = Object.create(null);
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

/** The request target (path and query, as sent) after the viewer-request function. */
export function atTheEdge(method: string, target: string): string {
  const q = target.indexOf('?');
  const uri = q === -1 ? target : target.slice(0, q);
  const query = q === -1 ? '' : target.slice(q + 1);
  if (query === '') return target;
  const out = edgeFunction()({ version: '1.0', context: { eventType: 'viewer-request' }, request: { method, uri, querystring: querystring(query.replace(/#.*$/, '')) } });
  return out.uri === uri ? target : `${out.uri}?${query}`;
}
