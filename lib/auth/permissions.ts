// Who may do what (docs/design.md §5, TEC's matrix in docs/tec-behaviour.md §8):
// - anonymous callers read published records only;
// - contributors create drafts or pending records and edit or delete their own unpublished ones;
// - authors publish, and edit and delete their own records;
// - editors do everything, including terms and permanent deletes.
// A caller may read what it may edit, and published records; lists show exactly that.
import { createHash, timingSafeEqual } from 'node:crypto';
import type { Principal, Role } from '#lib/contract/principal.js';
import { forbidden } from '#lib/contract/errors.js';
import type { RequestContext, RequestWith } from '#lib/contract/request.js';
import { findUserId } from '#lib/store/users.js';
import type { PostItem } from '#lib/store/items.js';

const RANK: Record<Role, number> = { contributor: 1, author: 2, editor: 3 };

export const isEditor = (p: Principal | undefined) => p?.role === 'editor';

/** 401 without a token; 403 for a caller below `min`. */
export function requireRole(p: Principal | undefined, min: Role): asserts p is Principal {
  if (!p) throw forbidden(false);
  if (!p.role || RANK[p.role] < RANK[min]) throw forbidden(true);
}

/** Terms and permanent deletes. */
export function requireEditor(p: Principal | undefined): asserts p is Principal {
  requireRole(p, 'editor');
}

const ids = new WeakMap<RequestContext, Promise<number | undefined>>();
/**
 * The caller's integer user id, or undefined for anonymous callers and users never seen before
 * (who own nothing yet). It never allocates one: permission checks also run in read functions.
 */
export function callerId(ctx: RequestContext): Promise<number | undefined> {
  if (!ctx.principal) return Promise.resolve(undefined);
  let id = ids.get(ctx);
  if (!id) ids.set(ctx, (id = findUserId(ctx.principal.sub)));
  return id;
}

const UNPUBLISHED = new Set(['draft', 'pending']);

/** Whether the caller may read a record in its current state (trash is the callers' concern). */
export async function canRead(ctx: RequestContext, post: Pick<PostItem, 'status' | 'author'>): Promise<boolean> {
  if (post.status === 'publish' || isEditor(ctx.principal)) return true;
  return !!ctx.principal?.role && post.author === (await callerId(ctx));
}

/** Whether the caller may update or delete a record. */
export async function canWrite(ctx: RequestContext, post: Pick<PostItem, 'status' | 'author' | 'trashedFrom'>): Promise<boolean> {
  const role = ctx.principal?.role;
  if (!role) return false;
  if (role === 'editor') return true;
  if (post.author !== (await callerId(ctx))) return false;
  // As WordPress, a trashed record is judged by the status it had before the trash.
  return role === 'author' || UNPUBLISHED.has(post.status === 'trash' ? (post.trashedFrom ?? 'trash') : post.status);
}

export async function requireWrite(ctx: RequestContext, post: Pick<PostItem, 'status' | 'author' | 'trashedFrom'>): Promise<void> {
  if (!(await canWrite(ctx, post))) throw forbidden(true);
}

/**
 * The status a write stores: without the right to publish, `publish`, `future` and `private`
 * become `pending` and no status becomes `draft` (TEC scales requests back the same way).
 */
export function scaleStatus(p: Principal, requested: string | undefined, current: string | undefined): string {
  if (p.role === 'contributor') {
    if (requested === undefined) return current !== undefined && UNPUBLISHED.has(current) ? current : 'draft';
    return UNPUBLISHED.has(requested) ? requested : 'pending';
  }
  return requested ?? current ?? 'publish';
}

/** Equal passwords, compared in constant time (digests first, so lengths do not leak). */
export function samePassword(given: unknown, stored: string): boolean {
  if (typeof given !== 'string') return false;
  const digest = (s: string) => createHash('sha256').update(s, 'utf8').digest();
  return timingSafeEqual(digest(given), digest(stored));
}

/**
 * Whether the caller sees a password-protected event in full: with its password, or with
 * `context=edit` when the caller may edit it (TEC's rule, WordPress's for protected posts: an
 * editor or the author reading without either is refused like anyone else).
 */
export async function unlocked(
  ctx: RequestWith<{ password?: string; context?: string }>,
  event: Pick<PostItem, 'author' | 'status' | 'trashedFrom'> & { password?: string },
): Promise<boolean> {
  if (!event.password) return true;
  if (ctx.params.context === 'edit' && (await canWrite(ctx, event))) return true;
  return samePassword(ctx.params.password, event.password);
}

/** Only editors may name another user as the author. */
export async function checkAuthor(ctx: RequestWith<{ author?: number }>): Promise<void> {
  const wanted = ctx.params.author;
  if (wanted === undefined || isEditor(ctx.principal)) return;
  if (wanted !== (await callerId(ctx))) throw forbidden(true);
}
