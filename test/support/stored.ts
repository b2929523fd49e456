// Reads of stored items by any key, as tests look at them: a test knows what it wrote under a key
// (production code reads through the typed keys of lib/store/keys.ts).
import { batchGet, getItem, itemKey, type Found, type Key } from '#lib/store/reads.js';

export const storedItem = <T = Record<string, unknown>>(key: Key, consistent = true): Promise<T | undefined> => getItem(itemKey<T>(key.pk, key.sk), consistent);

export const storedItems = <T = Record<string, unknown>>(list: readonly Key[], consistent = false): Promise<Found<T>> =>
  batchGet(
    list.map((k) => itemKey<T>(k.pk, k.sk)),
    consistent,
  );
