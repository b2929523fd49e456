// Writes a payload-2.0 fixture event, as API Gateway would send it, like `sam local generate-event`:
//   npm run fixture -- <METHOD> <path> [--body '{"json":1}' | --body file.json] [--role editor] [--out file]
// The path is relative to the API base (`/events/7`) unless it is absolute (`//xx/tribe/...` is
// taken as `/xx/tribe/...`); a relative path that starts with a language is refused as a mistake. `--role` puts a
// `{{token:<role>}}` placeholder in the Authorization header, which `npm run invoke` fills in.
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { config, isLang } from '#lib/runtime/config.js';
import { ROUTE_PREFIXES } from '#lib/contract/operations.js';
import { matchRoute, toApiGatewayEvent } from '#lib/local/event.js';
import { cli } from './cli.js';

const c = cli(
  `Usage: npm run fixture -- <METHOD> <path> [--body JSON|file] [--role editor] [--lang en] [--out file]
Writes the payload-2.0 event API Gateway would send for the request (npm run invoke runs it).
  <path>    below the API base (/events/7), or a whole path starting with // (//ru/tribe/events/v1/events)
  --body    a JSON body, or a file holding one
  --role    puts a {{token:<role>}} placeholder in the Authorization header (npm run invoke fills it in)
  --lang    the language segment of the path (default en; wp-json for WordPress's URL, the default language)
  --out     the file to write (default: standard output)`,
  { body: { type: 'string' }, role: { type: 'string' }, out: { type: 'string' }, lang: { type: 'string', default: 'en' } },
  { positionals: true },
);
const values = c.values as { body?: string; role?: string; out?: string; lang: string };
const [method, rawPath] = c.positionals;
if (!method || rawPath === undefined) c.fail('A method and a path are needed.');
if (!ROUTE_PREFIXES.includes(values.lang)) c.fail(`--lang must be one of ${ROUTE_PREFIXES.join(', ')}, got "${values.lang}".`);
// A path that starts with a language belongs after //, or it would be taken as below the API base.
const langFirst = /^\/([a-z]{2})\//.exec(rawPath!);
if (langFirst && isLang(langFirst[1])) c.fail(`"${rawPath}" starts with a language: write //${rawPath!.slice(1)} for a whole path, or use --lang ${langFirst[1]}.`);
const path = rawPath!.startsWith('//') ? rawPath!.slice(1) : `/${values.lang}/${config().namespace}/events/v1${rawPath}`;
const body = values.body === undefined ? undefined : existsSync(values.body) ? readFileSync(values.body) : Buffer.from(values.body);
const headers: Record<string, string> = { host: '127.0.0.1:3000', 'user-agent': 'curl/8.5.0', accept: '*/*' };
if (body) headers['content-type'] = 'application/json';
if (values.role) headers.authorization = `Bearer {{token:${values.role}}}`;
const url = path;
const match = matchRoute(method, url.split('?')[0]!);
const event = toApiGatewayEvent({ method, url, headers, body, requestId: 'fixture-request', now: new Date('2026-11-22T10:00:00Z') }, match);
const text = `${JSON.stringify(event, null, 2)}\n`;
if (values.out) writeFileSync(values.out, text);
else process.stdout.write(text);
