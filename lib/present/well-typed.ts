// Records as the presenters expect them. A manual edit of the table, an import or an older version
// may leave a field of another type (a numeric title, a lone id where a list belongs); one such item
// must not fail every page that shows it. Text fields are shown as text, as WordPress would show
// the value, lists that are not lists as empty, and each malformed revision is logged once.
import { logger } from '#lib/observe/log.js';

const TEXT = [
  'title',
  'description',
  'excerpt',
  'slug',
  'status',
  'image',
  'website',
  'timezone',
  'address',
  'city',
  'country',
  'province',
  'state',
  'zip',
  'phone',
  'stateprovince',
  'email',
  'name',
] as const;
const LISTS = ['venues', 'organizers', 'categories', 'tags'] as const;

/** Revisions already logged (bounded: a process may present many). */
const logged = new Set<string>();

function report(item: Record<string, unknown>, fields: string[]): void {
  const at = `${String(item.pk)}|${String(item.sk)}|${String(item.version)}`;
  if (logged.has(at)) return;
  if (logged.size > 1_000) logged.clear();
  logged.add(at);
  logger.warn({ message: 'A stored item has fields of the wrong type; they are shown as text or empty lists', pk: item.pk, sk: item.sk, fields });
}

/** `item` itself when every field has its type, else a copy with the wrong ones made right. */
export function wellTyped<T extends object>(item: T): T {
  const record = item as Record<string, unknown>;
  let fixed: Record<string, unknown> | undefined;
  const wrong: string[] = [];
  for (const field of TEXT) {
    const v = record[field];
    if (v === undefined || v === null || typeof v === 'string') continue;
    fixed ??= { ...record };
    fixed[field] = typeof v === 'number' || typeof v === 'boolean' || typeof v === 'bigint' ? String(v) : '';
    wrong.push(field);
  }
  for (const field of LISTS) {
    const v = record[field];
    if (v === undefined || Array.isArray(v)) continue;
    fixed ??= { ...record };
    fixed[field] = [];
    wrong.push(field);
  }
  if (!fixed) return item;
  report(record, wrong);
  return fixed as T;
}
