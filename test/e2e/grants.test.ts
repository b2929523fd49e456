// The local runtime allows exactly what each function's IAM policy allows (lib/contract/grants.ts, the
// same lists the stack grants), and applies each function's timeout: what AWS would refuse fails
// here the same way. Reads never write, so a user seen for the first time can read.
import { GetCommand, PutCommand, QueryCommand, TransactWriteCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import type { APIGatewayProxyEventV2, Context } from 'aws-lambda';
import { describe, expect, it } from 'vitest';
import { config } from '#lib/runtime/config.js';
import { db } from '#lib/store/db.js';
import { runWithGrants } from '#lib/local/grants.js';
import { LAMBDA_FAILED, runLambda } from '#lib/local/gateway.js';
import { operation, OPERATIONS } from '#lib/contract/operations.js';
import { INDEXES } from '#lib/store/table.js';
import { useGateway } from '../support/gateway.js';
import { createAsEditor } from '../support/expect.js';

/** A wall time `days` from now, inside the default list window. */
const at = (days: number, hour: number) => `${new Date(Date.now() + days * 86_400_000).toISOString().slice(0, 10)} ${hour}:00:00`;

const PROBE = { pk: 'PROBE', sk: 'grants' };
const table = () => config().tableName;
const put = () => db().send(new PutCommand({ TableName: table(), Item: { ...PROBE, at: Date.now() } }));
const stored = async () => (await db().send(new GetCommand({ TableName: table(), Key: PROBE }))).Item;

// Every write to the probe item is routed through a read operation's handler.
const writingReader = async () => {
  await put();
  return { statusCode: 200, body: '{}' };
};

const gw = useGateway({
  loadHandler: async (modulePath, match) => {
    if (match.op?.id === 'venues.get' && match.pathParameters?.id === '999999') return writingReader;
    const { loadHandler } = await import('#lib/local/gateway.js');
    return loadHandler(modulePath);
  },
});

describe('table grants enforced locally', () => {
  it('refuses a write from a read function as AWS does, with AccessDeniedException', async () => {
    await expect(runWithGrants(operation('events.get'), 'local-events-get', put)).rejects.toMatchObject({
      name: 'AccessDeniedException',
      message: expect.stringMatching(/is not authorized to perform: dynamodb:PutItem on resource: arn:aws:dynamodb:[^:]+:\d+:table\//),
    });
    expect(await stored()).toBeUndefined();
  });

  it('checks every item of a transaction and every resource', async () => {
    const reader = operation('events.list');
    const transaction = () =>
      db().send(new TransactWriteCommand({ TransactItems: [{ ConditionCheck: { TableName: table(), Key: PROBE, ConditionExpression: 'attribute_not_exists(pk)' } }] }));
    await expect(runWithGrants(reader, 'r', transaction)).rejects.toMatchObject({ name: 'AccessDeniedException' });
    // Another table is never granted, even for reads.
    await expect(runWithGrants(reader, 'r', () => db().send(new GetCommand({ TableName: 'another-table', Key: PROBE })))).rejects.toMatchObject({
      name: 'AccessDeniedException',
    });
    // An index query is allowed to a reader.
    const query = () =>
      db().send(
        new QueryCommand({
          TableName: table(),
          IndexName: INDEXES.bySlug.indexName,
          KeyConditionExpression: '#k = :k',
          ExpressionAttributeNames: { '#k': INDEXES.bySlug.partitionKey },
          ExpressionAttributeValues: { ':k': 'none' },
        }),
      );
    await expect(runWithGrants(reader, 'r', query)).resolves.toMatchObject({ Items: [] });
    // The root's operations and the fallback get no table access at all.
    for (const op of [operation('root.index'), operation('root.doc'), undefined]) {
      await expect(runWithGrants(op, 'n', () => db().send(new GetCommand({ TableName: table(), Key: PROBE })))).rejects.toMatchObject({
        name: 'AccessDeniedException',
      });
    }
    // A writer may do all of it.
    await runWithGrants(operation('events.create'), 'w', transaction);
  });

  it('turns a read function that writes into a 500 through the gateway, and writes nothing', async () => {
    const res = await gw.api('GET', '/venues/999999');
    expect(res.status).toBe(500);
    expect(res.body).toMatchObject({ code: 'rest_internal_error', data: { status: 500 } });
    expect(await stored()).toBeUndefined();
  });

  it('derives the grants from the operation table: readers read, writers write, the root reads nothing', () => {
    for (const op of OPERATIONS) {
      const writes = op.tableActions.some((a) => ['PutItem', 'UpdateItem', 'DeleteItem', 'ConditionCheckItem'].includes(a));
      expect(writes, op.id).toBe(op.access === 'write');
      if (op.id.startsWith('root.')) expect(op.tableActions, op.id).toEqual([]);
    }
  });
});

describe('users seen for the first time, on read functions', () => {
  it('read drafts, filtered lists and pages with protected events without a write (no 500)', async () => {
    const draft = await createAsEditor(gw, '/events', { title: 'Hidden draft', status: 'draft', start_date: at(30, 10), end_date: at(30, 11) });
    await createAsEditor(gw, '/events', { title: 'Protected', password: 'secret', start_date: at(31, 10), end_date: at(31, 11) });
    const venue = await createAsEditor(gw, '/venues', { venue: 'Draft hall', status: 'draft' });
    let n = 0;
    for (const role of ['contributor', 'author'] as const) {
      const fresh = () => gw.token(role, `first-seen-${role}-${++n}`);
      const single = await gw.api('GET', `/events/${draft.id}`, { token: await fresh() });
      expect(single.status, single.text).toBe(403);
      const drafts = await gw.api('GET', '/events', { token: await fresh(), query: { status: 'draft' } });
      expect(drafts.status, drafts.text).toBe(200);
      // An unknown user owns nothing: the editor's draft is not theirs to see.
      expect(drafts.body.events).toEqual([]);
      const page = await gw.api('GET', '/events', { token: await fresh() });
      expect(page.status, page.text).toBe(200);
      expect(page.body.events.map((e: { title: string }) => e.title)).toEqual(['Protected']);
      const bySlug = await gw.api('GET', `/events/by-slug/${draft.slug}`, { token: await fresh() });
      expect(bySlug.status, bySlug.text).toBe(403);
      const venues = await gw.api('GET', '/venues', { token: await fresh(), query: { status: 'draft' } });
      expect(venues.status, venues.text).toBe(200);
      expect(venues.body.venues ?? []).toEqual([]);
      const venueRead = await gw.api('GET', `/venues/${venue.id}`, { token: await fresh() });
      expect(venueRead.status, venueRead.text).toBe(403);
    }
  });

  it('still become users on their first write', async () => {
    const token = await gw.token('author', 'first-seen-writer');
    const created = await gw.api('POST', '/events', { token, body: { title: 'Mine', status: 'draft', start_date: at(32, 10), end_date: at(32, 11) } });
    expect(created.status, created.text).toBe(201);
    const mine = await gw.api('GET', '/events', { token, query: { status: 'draft' } });
    expect(mine.body.events.map((e: { title: string }) => e.title)).toEqual(['Mine']);
  });
});

describe('function timeouts', () => {
  const event = { requestContext: { http: { method: 'GET' } } } as unknown as APIGatewayProxyEventV2;

  it('gives the handler its function timeout and answers as API Gateway does when it is passed', async () => {
    const op = { ...operation('events.get'), timeoutSeconds: 0.2 };
    let remaining = Infinity;
    const slow = async (_e: APIGatewayProxyEventV2, context: Context) => {
      remaining = context.getRemainingTimeInMillis();
      await new Promise((r) => setTimeout(r, 1_000));
      return { statusCode: 200, body: '{}' };
    };
    const started = Date.now();
    expect(await runLambda(slow, event, op)).toEqual(LAMBDA_FAILED);
    expect(Date.now() - started).toBeLessThan(900);
    expect(remaining).toBeLessThanOrEqual(200);
  });

  it('uses the timeouts of the operation table, as the stack does', async () => {
    let remaining = 0;
    const quick = async (_e: APIGatewayProxyEventV2, context: Context) => {
      remaining = context.getRemainingTimeInMillis();
      return { statusCode: 204 };
    };
    for (const op of [operation('events.get'), operation('venues.update')]) {
      expect((await runLambda(quick, event, op)).statusCode).toBe(204);
      expect(remaining).toBeGreaterThan(op.timeoutSeconds * 1000 - 500);
      expect(remaining).toBeLessThanOrEqual(op.timeoutSeconds * 1000);
    }
  });
});

describe('grants scoped to sign-in data (dynamodb:LeadingKeys)', () => {
  const cred = { pk: 'CRED#grants-probe', sk: 'USER' };
  const touch = (key: { pk: string; sk: string }) => () =>
    db().send(new UpdateCommand({ TableName: table(), Key: key, UpdateExpression: 'SET seen = :t', ExpressionAttributeValues: { ':t': 1 } }));

  it("lets a read function update a user's credential record, and nothing else", async () => {
    const reader = operation('events.list');
    await runWithGrants(reader, 'r', touch(cred));
    expect((await db().send(new GetCommand({ TableName: table(), Key: cred }))).Item).toMatchObject({ seen: 1 });
    await expect(runWithGrants(reader, 'r', touch(PROBE))).rejects.toMatchObject({ name: 'AccessDeniedException' });
    await expect(runWithGrants(reader, 'r', touch({ pk: 'LOGIN#someone', sk: 'LOGIN' }))).rejects.toMatchObject({ name: 'AccessDeniedException' });
    // The scope covers updates only: no put, even in the credential partition.
    await expect(runWithGrants(reader, 'r', () => db().send(new PutCommand({ TableName: table(), Item: { ...cred, sk: 'APPPW#x' } })))).rejects.toMatchObject({
      name: 'AccessDeniedException',
    });
  });

  it('lets the table-less root functions read sign-in data only', async () => {
    const root = operation('root.index');
    const login = () => db().send(new GetCommand({ TableName: table(), Key: { pk: 'LOGIN#someone', sk: 'LOGIN' } }));
    const credentials = () => db().send(new QueryCommand({ TableName: table(), KeyConditionExpression: 'pk = :p', ExpressionAttributeValues: { ':p': cred.pk } }));
    await runWithGrants(root, 'root', login);
    await runWithGrants(root, 'root', credentials);
    await expect(runWithGrants(root, 'root', () => db().send(new GetCommand({ TableName: table(), Key: PROBE })))).rejects.toMatchObject({ name: 'AccessDeniedException' });
    const records = () => db().send(new QueryCommand({ TableName: table(), KeyConditionExpression: 'pk = :p', ExpressionAttributeValues: { ':p': 'POST#1' } }));
    await expect(runWithGrants(root, 'root', records)).rejects.toMatchObject({ name: 'AccessDeniedException' });
  });
});
