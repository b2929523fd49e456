// A stall of the database must not leave the write path refusing. This file runs a DynamoDB Local
// of its own, stops its JVM (SIGSTOP) for longer than a request may wait while creates are in
// flight, and resumes it (SIGCONT): within seconds the same process writes again, and every create
// that was answered 201 is stored.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { resetConfig } from '#lib/runtime/config.js';
import { ensureTable, startDynamoLocal, type DynamoLocal } from '#lib/local/dynamo.js';
import { roleToken } from '../support/tokens.js';
import { invoke } from '#lib/local/invoke.js';
import { TRANSACT_TIMES_MAX_AGE_MS } from '#lib/store/transactions.js';

const TABLE = 'stall-test';
/** Longer than a request's time to write (10 s less the answer margin): every write in flight outlives its request. */
const STALL_MS = 9_000;

let dynamo: DynamoLocal;
let token: string;

beforeAll(async () => {
  dynamo = await startDynamoLocal();
  process.env.DYNAMODB_ENDPOINT = dynamo.endpoint;
  process.env.TABLE_NAME = TABLE;
  resetConfig();
  await ensureTable(TABLE, dynamo.endpoint);
  token = await roleToken('editor', 'stall-editor');
}, 120_000);

afterAll(async () => {
  if (dynamo?.pid) {
    try {
      process.kill(dynamo.pid, 'SIGCONT');
    } catch {
      /* already gone */
    }
  }
  await dynamo?.stop();
});

const createTag = (name: string) => invoke('POST', 'en', '/tags', { token, body: { name } });
const sleep = (ms: number) => new Promise((ok) => setTimeout(ok, ms));

describe('a database stall in the middle of a burst of writes', () => {
  it('leaves no refusal behind: writes succeed again within seconds, and what was answered 201 is stored', async () => {
    expect((await createTag('before the stall')).status).toBe(201);
    const pid = dynamo.pid!;
    expect(pid).toBeGreaterThan(0);

    // Eight writers create tags one after another, so that transactions are in flight when the
    // database stops, as they are in any busy container.
    let writing = true;
    const answers: Awaited<ReturnType<typeof createTag>>[] = [];
    const writers = Array.from({ length: 8 }, async (_, w) => {
      for (let i = 0; writing; i++) answers.push(await createTag(`burst ${w}-${i}`));
    });
    await sleep(4_000);
    process.kill(pid, 'SIGSTOP');
    await sleep(STALL_MS);
    process.kill(pid, 'SIGCONT');
    const resumed = Date.now();
    writing = false;
    await Promise.all(writers);
    // Whatever each one answered, it answered: no request hung past its function's timeout.
    expect(answers.length).toBeGreaterThan(8);
    expect(answers.every((a) => a.status > 0)).toBe(true);

    // One create at a time until one succeeds: the process must not refuse for good.
    let healedAfter: number | undefined;
    while (Date.now() - resumed < 30_000) {
      const res = await createTag(`after the stall ${Date.now()}`);
      if (res.status === 201) {
        healedAfter = Date.now() - resumed;
        break;
      }
      expect([409, 500, 503]).toContain(res.status);
      await sleep(250);
    }
    expect(healedAfter, 'writes never succeeded again after the stall').toBeDefined();
    // Slow transactions are forgotten once they are older than the age limit.
    expect(healedAfter!).toBeLessThan(TRANSACT_TIMES_MAX_AGE_MS + 10_000);
    for (let i = 0; i < 5; i++) expect((await createTag(`steady ${i}`)).status).toBe(201);

    // Every tag answered 201 can be read back.
    const created = answers.filter((a) => a.status === 201).map((a) => a.body.id as number);
    for (const id of created) expect((await invoke('GET', 'en', `/tags/${id}`, { token })).status).toBe(200);
  }, 90_000);
});
