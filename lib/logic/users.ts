// WordPress's own user routes: who the caller is (`users/me`) and their application passwords
// (create, list, read, introspect, revoke). Any signed-in user manages their own passwords; an
// editor may also list and revoke anyone's (WordPress's `edit_user`), which is how a role taken
// away in the identity provider is taken from passwords at once. A password is only ever made for
// the caller: its role is the caller's role.
import { createHash, randomUUID } from 'node:crypto';
import { config, restRoot } from '#lib/runtime/config.js';
import { ApiError } from '#lib/contract/errors.js';
import { formatPassword, generatePassword, hashPassword } from '#lib/auth/app-passwords.js';
import { passwordKey } from '#lib/auth/app-password-key.js';
import { json, type Reply } from '#lib/contract/reply.js';
import { isEditor } from '#lib/auth/permissions.js';
import type { ArgsOf } from '#lib/contract/operations.js';
import type { RequestContext } from '#lib/contract/request.js';
import { slugify } from '#lib/domain/slug.js';
import { MAX_LOGIN_BYTES } from '#lib/auth/sign-in.js';
import { sanitizeTextField } from '#lib/wp/text.js';
import { getItem } from '#lib/store/reads.js';
import { findUserId, userIdOf } from '#lib/store/users.js';
import { keys } from '#lib/store/keys.js';
import { createAppPassword, deleteAllAppPasswords, deleteAppPassword, readCredentials, roleOfNewPassword, type AppPasswordItem } from '#lib/store/credentials.js';

const notLoggedIn = () => new ApiError(401, 'rest_not_logged_in', 'You are not currently logged in.');
const invalidUser = () => new ApiError(404, 'rest_user_invalid_id', 'Invalid user ID.');
const notFound = () => new ApiError(404, 'rest_application_password_not_found', 'Application password not found.');

/** WordPress's refusals per action: 401 for anonymous callers, 403 for signed-in ones. */
const REFUSALS = {
  list: ['rest_cannot_list_application_passwords', 'Sorry, you are not allowed to list application passwords for this user.'],
  read: ['rest_cannot_read_application_password', 'Sorry, you are not allowed to read this application password.'],
  create: ['rest_cannot_create_application_passwords', 'Sorry, you are not allowed to create application passwords for this user.'],
  delete: ['rest_cannot_delete_application_password', 'Sorry, you are not allowed to delete this application password.'],
  deleteAll: ['rest_cannot_delete_application_passwords', 'Sorry, you are not allowed to delete application passwords for this user.'],
} as const;
type Action = keyof typeof REFUSALS;

const refuse = (ctx: RequestContext, action: Action) => {
  const [code, message] = REFUSALS[action];
  return new ApiError(ctx.principal ? 403 : 401, code, message);
};

const wpBase = (ctx: RequestContext) => `${restRoot(ctx.lang)}/wp/v2`;

interface Target {
  sub: string;
  userId: number;
  self: boolean;
}

/**
 * The user a request is about. `me` is the caller; a user id is the caller's own or, for an
 * editor (or to create: nobody), another user's.
 */
async function target(ctx: RequestContext, action: Action, register = false): Promise<Target> {
  const p = ctx.principal;
  const user = ctx.path.user!;
  if (!p) throw user === 'me' ? notLoggedIn() : refuse(ctx, action);
  const ownId = register ? await userIdOf(p.sub) : await findUserId(p.sub);
  if (user === 'me' || user === ownId) {
    if (ownId === undefined) return { sub: p.sub, userId: 0, self: true };
    return { sub: p.sub, userId: ownId, self: true };
  }
  const other = await getItem(keys.userById(user), false);
  if (!other) throw invalidUser();
  if (action === 'create' || !isEditor(p)) throw refuse(ctx, action);
  return { sub: other.sub, userId: user, self: false };
}

/** WordPress's `mysql_to_rfc3339` of a GMT time: no zone suffix. */
const wpTime = (seconds: number) => new Date(seconds * 1000).toISOString().slice(0, 19);

function present(ctx: RequestContext, t: Target, item: Omit<AppPasswordItem, 'pk' | 'sk'>): Record<string, unknown> {
  return {
    uuid: item.uuid,
    app_id: item.appId,
    name: item.name,
    created: wpTime(item.created),
    last_used: item.lastUsed === undefined ? null : wpTime(item.lastUsed),
    last_ip: item.lastIp ?? null,
    _links: { self: [{ href: `${wpBase(ctx)}/users/${t.userId}/application-passwords/${item.uuid}` }] },
  };
}

export async function listAppPasswords(ctx: RequestContext): Promise<Reply> {
  const t = await target(ctx, 'list');
  const { passwords } = await readCredentials(t.sub);
  return json(
    200,
    passwords.map((item) => present(ctx, t, item)),
  );
}

/** The form of the uuids this API makes; anything else names no password. */
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

async function findPassword(t: Target, uuid: string): Promise<AppPasswordItem> {
  if (!UUID.test(uuid)) throw notFound();
  const item = await getItem(keys.appPassword(t.sub, uuid));
  if (!item) throw notFound();
  return item;
}

export async function getAppPassword(ctx: RequestContext): Promise<Reply> {
  const t = await target(ctx, 'read');
  return json(200, present(ctx, t, await findPassword(t, ctx.path.uuid!)));
}

/** The password this very request signed in with. */
export async function introspectAppPassword(ctx: RequestContext): Promise<Reply> {
  const t = await target(ctx, 'read');
  if (!t.self) {
    throw new ApiError(
      403,
      'rest_cannot_introspect_app_password_for_non_authenticated_user',
      'The authenticated application password can only be introspected for the current user.',
    );
  }
  const via = ctx.principal?.via;
  if (via?.scheme !== 'basic') throw new ApiError(404, 'rest_no_authenticated_app_password', 'Cannot introspect application password.');
  return json(200, present(ctx, t, await findPassword(t, via.appPassword)));
}

export async function createAppPasswordFor(ctx: RequestContext<ArgsOf<'appPasswords.create'>>): Promise<Reply> {
  const t = await target(ctx, 'create', true);
  const p = ctx.principal!;
  const login = p.login ?? p.sub;
  // Such a login could never sign in (lib/auth/sign-in.ts).
  if (Buffer.byteLength(login) > MAX_LOGIN_BYTES || (p.email && Buffer.byteLength(p.email) > MAX_LOGIN_BYTES)) {
    throw new ApiError(400, 'rest_invalid_login', `A login or e-mail address longer than ${MAX_LOGIN_BYTES} bytes cannot sign in with an application password.`);
  }
  const name = sanitizeTextField(ctx.params.name);
  if (name === '') throw new ApiError(400, 'application_password_empty_name', 'An application name is required to create an application password.');
  // A token older than the one that set the user's stored role (or of its second, with a higher
  // role) cannot raise it, nor make a password above it (lib/store/credentials.ts standingRole).
  const stored = await getItem(keys.credentials(p.sub));
  const { password: role, record: recordRole } = roleOfNewPassword(stored, { role: p.role ?? 'none', issuedAt: p.issuedAt ?? 0 });
  const raw = generatePassword();
  const item = {
    uuid: randomUUID(),
    appId: ctx.params.app_id ?? '',
    name,
    created: Math.floor(ctx.now.getTime() / 1000),
    hash: hashPassword(await passwordKey(), raw),
    role,
  };
  await createAppPassword({ sub: p.sub, login, email: p.email, userId: t.userId, role: recordRole.role, roleIssuedAt: recordRole.issuedAt }, item);
  const body = present(ctx, t, item);
  // Shown once: only its hash is kept.
  const { _links, ...fields } = body;
  return json(201, { ...fields, password: formatPassword(raw), _links }, { location: `${wpBase(ctx)}/users/${t.userId}/application-passwords/${item.uuid}` });
}

export async function deleteAppPasswordOf(ctx: RequestContext): Promise<Reply> {
  const t = await target(ctx, 'delete');
  const previous = UUID.test(ctx.path.uuid!) ? await deleteAppPassword(t.sub, ctx.path.uuid!) : undefined;
  if (!previous) throw notFound();
  return json(200, { deleted: true, previous: present(ctx, t, previous) });
}

export async function deleteAllAppPasswordsOf(ctx: RequestContext): Promise<Reply> {
  const t = await target(ctx, 'deleteAll');
  return json(200, { deleted: true, count: await deleteAllAppPasswords(t.sub) });
}

/** Gravatar's address of an e-mail (its SHA-256 form), with WordPress's defaults. */
function avatar(email: string | undefined, size: number): string {
  const hash = createHash('sha256')
    .update((email ?? '').trim().toLowerCase())
    .digest('hex');
  return `https://secure.gravatar.com/avatar/${hash}?s=${size}&d=mm&r=g`;
}

export async function me(ctx: RequestContext): Promise<Reply> {
  const p = ctx.principal;
  if (!p) throw notLoggedIn();
  const id = await userIdOf(p.sub);
  const login = p.login ?? p.sub;
  const slug = slugify(login) || String(id);
  const base = wpBase(ctx);
  const view = {
    id,
    name: login,
    url: '',
    description: '',
    link: `${config().siteUrl}/author/${slug}/`,
    slug,
    avatar_urls: Object.fromEntries([24, 48, 96].map((s) => [String(s), avatar(p.email, s)])),
  };
  const meta: unknown[] = [];
  const links = { self: [{ href: `${base}/users/${id}` }], collection: [{ href: `${base}/users` }] };
  if (ctx.params.context !== 'edit') return json(200, { ...view, meta, _links: links });
  const roles = p.role ? [p.role] : [];
  return json(200, {
    id,
    username: login,
    name: login,
    first_name: '',
    last_name: '',
    email: p.email ?? '',
    url: '',
    description: '',
    link: view.link,
    locale: 'en_US',
    nickname: login,
    slug,
    roles,
    capabilities: Object.fromEntries(roles.map((r) => [r, true])),
    extra_capabilities: Object.fromEntries(roles.map((r) => [r, true])),
    avatar_urls: view.avatar_urls,
    meta,
    _links: links,
  });
}
