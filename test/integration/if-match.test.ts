// A write's `If-Match` carried by the write itself (lib/store/precondition.ts), against DynamoDB
// Local: every attempt of a write requires the version that was checked, also one that read the
// record again after losing a race, and only a changed record makes a failed write a 412.
import { expect, it } from 'vitest';
import { ApiError, ConflictError } from '#lib/contract/errors.js';
import { checked, writeChecked } from '#lib/store/precondition.js';
import { withRetry } from '#lib/store/retry.js';
import { put, putIfVersion, transact, type TransactItem } from '#lib/store/transactions.js';
import { useFreshTable } from '../support/table.js';
import { storedItem } from '../support/stored.js';

useFreshTable('if-match');

interface Row {
  pk: string;
  sk: string;
  id: number;
  version: number;
  title: string;
}

let ids = 0;
async function stored(): Promise<Row> {
  const id = ++ids;
  const row = { pk: `ROW#${id}`, sk: 'ROW', id, version: 1, title: 'first' };
  await transact([put(row)]);
  return row;
}

const tagOf = (r: Row) => `"${r.id}.${r.version}.AAAAAAAAAAAAAAAAAAAAAA"`;
const read = async (r: Row) => (await storedItem<Row>({ pk: r.pk, sk: r.sk }))!;
/** `r` with another title, on condition that it still has the version it was read at. */
const rewrite = (r: Row, title: string) => {
  const next: Row = { ...r, title, version: r.version + 1 };
  return putIfVersion(next, r.version);
};
/** Another request's write, made between this request's check and its write. */
const changeElsewhere = async (r: Row) => transact([rewrite(await read(r), 'elsewhere')]);
const written = (items: TransactItem[]) => writeChecked(items, undefined, () => transact(items));

const rejectsWith412 = async (p: Promise<unknown>) => {
  const err = await p.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(ApiError);
  expect((err as ApiError).status).toBe(412);
};

it('requires nothing without If-Match or for *, and the read version for a tag', async () => {
  const row = await stored();
  expect(checked(undefined, row)).toBeUndefined();
  expect(checked('*', row)).toBeUndefined();
  expect(checked(tagOf(row), row)).toEqual({ key: { pk: row.pk, sk: row.sk }, version: 1 });
  expect(await written([putIfVersion({ ...row, version: 2 }, 1)])).toBe(false);
});

it('fails with 412 a write made after another request changed the record, though its own condition holds', async () => {
  const row = await stored();
  const check = checked(tagOf(row), row);
  await changeElsewhere(row);
  const now = await read(row);
  const items = [rewrite(now, 'mine')];
  await rejectsWith412(writeChecked(items, check, () => transact(items)));
  expect((await read(row)).title).toBe('elsewhere');
});

it('keeps the checked version across retries: a retry that reads the changed record again is 412, not an overwrite', async () => {
  const row = await stored();
  const guard = { pk: `SLUG#row#${row.id}`, sk: 'SLUG', id: 0 };
  await transact([put(guard)]);
  const check = checked(tagOf(row), row);
  const previous: unknown[] = [];
  const attempt = withRetry(async (n, before) => {
    previous.push(before);
    const old = await read(row);
    const items = [rewrite(old, `attempt ${n}`)];
    // The first attempt also takes a slug guard another record holds: it fails on that, not on the record.
    if (n === 1) items.push(put(guard));
    try {
      await writeChecked(items, check, () => transact(items));
    } finally {
      if (n === 1) await changeElsewhere(row);
    }
  });
  await rejectsWith412(attempt);
  // The first failure was the write's own (the record still had the checked version): retried.
  expect(previous).toHaveLength(2);
  expect(previous[1]).toBeInstanceOf(ConflictError);
  expect(previous[1]).not.toBeInstanceOf(ApiError);
  expect((await read(row)).title).toBe('elsewhere');
});

it('carries the check on the write of the checked record only, and writes when the version held', async () => {
  const row = await stored();
  const other = { pk: `ROW#${row.id}`, sk: 'OTHER', id: row.id, version: 5, title: 'other' };
  const check = checked(tagOf(row), row);
  const first: TransactItem[] = [put(other)];
  expect(await writeChecked(first, check, () => transact(first))).toBe(false);
  expect(first[0]!.Put!.ConditionExpression).toBe('attribute_not_exists(pk)');
  const second = [rewrite(row, 'mine')];
  expect(await writeChecked(second, check, () => transact(second))).toBe(true);
  expect((await read(row)).title).toBe('mine');
});
