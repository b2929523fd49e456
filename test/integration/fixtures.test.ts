// Every fixture in events-fixtures/ runs through its operation's handler, in the manifest's order,
// against DynamoDB Local, and answers the status recorded for it.
import { readFileSync } from 'node:fs';
import type { APIGatewayProxyEventV2, APIGatewayProxyStructuredResultV2 } from 'aws-lambda';
import { describe, expect, it } from 'vitest';
import { roleToken } from '../support/tokens.js';
import { lambdaContext, loadHandler } from '#lib/local/gateway.js';
import { OPERATIONS, operation } from '#lib/contract/operations.js';
import { useFreshTable } from '../support/table.js';

const dir = new URL('../../events-fixtures/', import.meta.url);
const manifest = JSON.parse(readFileSync(new URL('manifest.json', dir), 'utf8')) as {
  fixtures: { fixture: string; operation: string; status: number }[];
};

describe('events-fixtures', () => {
  useFreshTable('fixtures');

  it('has a fixture for every operation in the table', () => {
    const covered = new Set(manifest.fixtures.map((f) => f.operation));
    expect(OPERATIONS.filter((op) => !covered.has(op.id)).map((op) => op.id)).toEqual([]);
  });

  it('answers each fixture with its expected status, in order', async () => {
    const editor = await roleToken('editor', 'fixture-editor');
    const seen: string[] = [];
    for (const f of manifest.fixtures) {
      const event = JSON.parse(readFileSync(new URL(f.fixture, dir), 'utf8').replaceAll('{{token:editor}}', editor)) as APIGatewayProxyEventV2;
      const handler = await loadHandler(operation(f.operation).handler);
      const result = (await handler(event, lambdaContext(f.operation))) as APIGatewayProxyStructuredResultV2;
      seen.push(`${f.fixture} ${result.statusCode}`);
      expect(JSON.parse(result.body ?? 'null')).not.toBeNull();
    }
    expect(seen).toEqual(manifest.fixtures.map((f) => `${f.fixture} ${f.status}`));
  }, 60_000);
});
