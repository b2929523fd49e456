// The local gateway of one checkout, for `npm run bench:handlers`: `tsx bench/serve.ts <root>`
// serves <root>'s handlers (a git worktree of another commit, or this one) on PORT against
// DYNAMODB_ENDPOINT and TABLE_NAME, quietly and without a stream consumer, and prints its URL.
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';

const root = resolve(process.argv[2] ?? '.');
const { startGateway } = (await import(pathToFileURL(resolve(root, 'lib/local/gateway.ts')).href)) as typeof import('#lib/local/gateway.js');
const gateway = await startGateway({ port: Number(process.env.PORT ?? 0), quiet: true });
console.log(gateway.url);
process.on('SIGTERM', () => void gateway.close().then(() => process.exit(0)));
