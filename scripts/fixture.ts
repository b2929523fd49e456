// Writes a payload-2.0 fixture event, as API Gateway would send it, like `sam local generate-event`:
//   npm run fixture -- <METHOD> <path> [--body '{"json":1}' | --body file.json] [--role editor] [--out file]
// The path is relative to the API base (`/events/7`) unless it starts with a language (`/ru/...`)
// or is absolute (`//xx/tribe/...` is taken as `/xx/tribe/...`). `--role` puts a
// `{{token:<role>}}` placeholder in the Authorization header, which `npm run invoke` fills in.
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { config } from '../lib/config.js';
import { matchRoute, toApiGatewayEvent } from '../lib/local/event.js';

const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: { body: { type: 'string' }, role: { type: 'string' }, out: { type: 'string' }, lang: { type: 'string', default: 'en' } },
});
const [method, rawPath] = positionals;
if (!method || rawPath === undefined) {
  console.error('Usage: npm run fixture -- <METHOD> <path> [--body JSON|file] [--role editor] [--out file]');
  process.exit(2);
}
const path = rawPath.startsWith('//') ? rawPath.slice(1) : `/${values.lang}/${config().namespace}/events/v1${rawPath}`;
const body = values.body === undefined ? undefined : existsSync(values.body) ? readFileSync(values.body) : Buffer.from(values.body);
const headers: Record<string, string> = { host: '127.0.0.1:3000', 'user-agent': 'curl/8.5.0', accept: '*/*' };
if (body) headers['content-type'] = 'application/json';
if (values.role) headers.authorization = `Bearer {{token:${values.role}}}`;
const url = path;
const match = matchRoute(method, url.split('?')[0]!);
const event = toApiGatewayEvent(
  { method, url, headers, body, requestId: 'fixture-request', now: new Date('2026-11-22T10:00:00Z') },
  match,
);
const text = `${JSON.stringify(event, null, 2)}\n`;
if (values.out) writeFileSync(values.out, text);
else process.stdout.write(text);
