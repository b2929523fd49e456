// The floor of `npm run bench:handlers`' local server measurements: `tsx bench/floor-serve.ts
// <plan.json>` serves, for each path of the plan, the DynamoDB requests that this checkout's
// handler made for it, stage by stage (a stage's requests at once), with the SDK's client and
// nothing else (its document commands, or its plain commands with their middleware resolved once per
// command type, as the handler sent each), then answers the body that handler answered. No implementation that
// makes these requests can serve them faster on the same machine; it prints its URL.
import { readFileSync } from 'node:fs';
import { createServer } from 'node:http';
import * as plainCommands from '@aws-sdk/client-dynamodb';
import * as commands from '@aws-sdk/lib-dynamodb';
import { plainSender } from '#lib/store/db.js';
import { client } from './cold-client.js';

/**
 * A path's requests as the handler sent them (the command names the SDK reports and their inputs,
 * `plain` when sent as the plain client's command with marshalled values), and its answer.
 */
export interface FloorPlan {
  [path: string]: { stages: { command: string; input: object; plain?: boolean }[][]; body: string };
}

// The same client as lib/store/db.ts: the SDK's, less the logger middleware that lib/store/db.ts drops.
client.middlewareStack.remove('loggerMiddleware');

type Command = new (input: object) => Parameters<typeof client.send>[0];
/** The command for a command name the SDK reports (`QueryCommand`, `BatchGetItemCommand`): the plain client's, or the document client's. */
const commandOf = (name: string, plain: boolean): Command => {
  const doc = name
    .replace(/^BatchGetItem/, 'BatchGet')
    .replace(/^GetItem/, 'Get')
    .replace(/^PutItem/, 'Put');
  const found = plain ? (plainCommands as Record<string, unknown>)[name] : (commands as Record<string, unknown>)[doc];
  if (typeof found !== 'function') throw new Error(`bench/floor-serve.ts has no command for ${name}`);
  return found as Command;
};

/** Plain commands sent as lib/store/db.ts sends the reads': their middleware resolved once per command type. */
const sendResolved = plainSender(client);

const plan = JSON.parse(readFileSync(process.argv[2]!, 'utf8')) as FloorPlan;
const prepared = new Map(
  Object.entries(plan).map(([path, p]) => [
    path,
    { stages: p.stages.map((stage) => stage.map((c) => ({ Command: commandOf(c.command, c.plain === true), plain: c.plain === true, input: c.input }))), body: p.body },
  ]),
);

const server = createServer((req, res) => {
  const p = prepared.get(req.url ?? '');
  if (!p) {
    res.writeHead(404).end();
    return;
  }
  void (async () => {
    for (const stage of p.stages) {
      await Promise.all(stage.map((c) => (c.plain ? sendResolved(new c.Command(structuredClone(c.input)) as never) : client.send(new c.Command(structuredClone(c.input))))));
    }
    res.writeHead(200, { 'content-type': 'application/json; charset=UTF-8' }).end(p.body);
  })().catch((err: Error) => res.writeHead(500).end(err.message));
});
server.listen(Number(process.env.PORT ?? 0), '127.0.0.1', () => {
  const addr = server.address();
  console.log(`http://127.0.0.1:${typeof addr === 'object' && addr ? addr.port : 0}`);
});
process.on('SIGTERM', () => server.close(() => process.exit(0)));
