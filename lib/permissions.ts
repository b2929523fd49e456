// Who may do what. Anonymous callers read published records only; writes need the editor role.
import type { Principal } from './auth.js';
import { forbidden } from './errors.js';

export const isEditor = (p: Principal | undefined) => p?.role === 'editor';

/** Writes to any record and to terms. */
export function requireEditor(p: Principal | undefined): asserts p is Principal {
  if (!p) throw forbidden(false);
  if (!isEditor(p)) throw forbidden(true);
}

/** Whether the caller may read a record in this status (trash is handled by the callers). */
export const canRead = (p: Principal | undefined, status: string) => status === 'publish' || isEditor(p);

/** Statuses a list shows the caller: anonymous callers see published records only. */
export const listStatuses = (p: Principal | undefined): string[] =>
  isEditor(p) ? ['publish', 'future', 'draft', 'pending', 'private'] : ['publish'];
