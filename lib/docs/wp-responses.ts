// The responses of WordPress's own routes (users/me and application passwords), and the
// descriptions of those operations.
import type { Operation } from '#lib/contract/operations.js';
import { pathNames } from '#lib/contract/arg-docs.js';
import { ref, type Json } from './json-schema.js';
import { fail, ok, shared } from './shared-responses.js';

// --- responses of WordPress's own routes --------------------------------------------------------------
// Their codes are WordPress's, from lib/logic/users.ts and the pipeline: every one 400 (its
// arguments), 401 (anonymous callers are refused by the operation itself, with WordPress's words;
// bad credentials by the sign-in) and 500; a `{user}` in the path 403 (another user's passwords
// without the editor role) and 404 (no such user, or no route for a `{user}` that is neither "me"
// nor digits); writes 409 and 503; methods with a body (POST, DELETE) 413 and 415.

interface WpDoc {
  description: string;
  ok: { status: 200 | 201; description: string; schema: string };
  /** The 403 code (signed-in callers refused), for operations on a `{user}`. */
  refused?: string;
  /** More reasons for a 404, besides an unknown user. */
  notFound?: string;
  /** More reasons for a 400. */
  invalid?: string;
  /** The 409 description, when it is not just a lost race. */
  conflict?: string;
  /** A Location header on success. */
  location?: string;
  /** More statuses, by code. */
  more?: Record<number, string>;
  /** Who is refused with a 403, when it is not "signed in without the editor role". */
  refusedWho?: string;
}

const TERM_MISSING = 'no term of the taxonomy has this id (rest_term_invalid), or no route: the id is not digits (rest_no_route)';

/** WordPress's term routes: each taxonomy's the same. */
function termDocs(kind: 'wpTags' | 'wpCategories', many: string): Record<string, WpDoc> {
  const editors = 'Editors only (WordPress checks manage_categories)';
  return {
    [`${kind}.list`]: {
      description: `The ${many}, as WordPress lists them: hide_empty is false unless asked, per_page up to 100, X-WP-Total, X-WP-TotalPages and Link headers; context=edit for editors.`,
      ok: { status: 200, description: `A page of ${many}`, schema: 'WpTermList' },
      refused: 'rest_forbidden_context',
      invalid: 'the post does not exist (rest_post_invalid_id)',
    },
    [`${kind}.create`]: {
      description: `${editors}. The slug comes from the name unless given; a taken one gets WordPress's next free one (\`-2\`, …).`,
      ok: { status: 201, description: 'The term made', schema: 'WpTerm' },
      refused: 'rest_cannot_create',
      invalid: 'a term of the name exists (term_exists), or the parent does not exist (rest_term_invalid) or is set on a tag (rest_taxonomy_not_hierarchical)',
      location: 'The REST URL of the term made',
    },
    [`${kind}.get`]: {
      description: 'One term; context=edit for editors.',
      ok: { status: 200, description: 'The term', schema: 'WpTerm' },
      refused: 'rest_forbidden_context',
      notFound: TERM_MISSING,
    },
    [`${kind}.update`]: {
      description: `${editors}. Only the fields sent change.`,
      ok: { status: 200, description: 'The term as it now is', schema: 'WpTerm' },
      refused: 'rest_cannot_update',
      notFound: TERM_MISSING,
      invalid: 'the slug is taken (duplicate_term_slug), or the parent does not exist (rest_term_invalid) or is set on a tag (rest_taxonomy_not_hierarchical)',
    },
    [`${kind}.delete`]: {
      description: `${editors}. Terms have no trash: force=true is required. The term's events lose it.`,
      ok: { status: 200, description: 'The term as it was', schema: 'WpTermDeleted' },
      refused: 'rest_cannot_delete',
      notFound: TERM_MISSING,
      more: { 501: 'force is not true: terms do not support trashing (rest_trash_not_supported)' },
    },
  };
}

const POST_MISSING = 'no record of the post type has this id (rest_post_invalid_id), or no route: the id is not digits (rest_no_route)';

/** WordPress's post-type routes: each type's the same. */
function postDocs(kind: 'wpEvents' | 'wpVenues' | 'wpOrganizers', many: string, filters: string): Record<string, WpDoc> {
  return {
    [`${kind}.list`]: {
      description: `The ${many}, as WordPress's posts controller lists them: published ones unless a status is asked for by a signed-in user (editors see everyone's, others their own), newest first, per_page up to 100, search, include, exclude, author, slug${filters}, X-WP-Total, X-WP-TotalPages and Link headers; context=edit for signed-in users. An order or search that needs the records themselves reads at most 1,000 of them (else rest_request_over_budget).`,
      ok: { status: 200, description: `A page of ${many}`, schema: 'WpPostList' },
      refused: 'rest_forbidden_context, for context=edit',
      refusedWho: 'Signed in without a role, asking for context=edit (rest_forbidden_context)',
      invalid:
        'the page is past the last (rest_post_invalid_page_number), orderby=relevance without a search (rest_no_search_term_defined), orderby=include without include (rest_orderby_include_missing_include), a status other than publish without a role (rest_forbidden_status), or the request needs more than its budget (rest_request_over_budget)',
    },
    [`${kind}.get`]: {
      description: `One of the ${many}; context=edit for those who may edit it. A password-protected event shows its content only with its password.`,
      ok: { status: 200, description: 'The record', schema: 'WpPost' },
      refused: 'rest_forbidden for an unpublished record, rest_forbidden_context for context=edit',
      refusedWho:
        "Signed in, and the record is unpublished and not the caller's (rest_forbidden) or the caller may not edit it and asked for context=edit (rest_forbidden_context); or a wrong password (rest_post_incorrect_password)",
      notFound: POST_MISSING,
    },
  };
}

const WP_DOCS: Record<string, WpDoc> = {
  'users.me': {
    description: 'Who the caller is, signed in with a bearer token or an application password. The first request of a user gives them their user id.',
    ok: { status: 200, description: 'The signed-in user', schema: 'User' },
  },
  'appPasswords.list': {
    description: 'Any signed-in user lists their own ("me" or their id); an editor also anyone\'s.',
    ok: { status: 200, description: "The user's application passwords", schema: 'AppPasswordList' },
    refused: 'rest_cannot_list_application_passwords',
  },
  'appPasswords.create': {
    description: 'Makes a password for the caller only ("me" or their own id), with the caller\'s role; the answer shows the password this once.',
    ok: { status: 201, description: 'The password made, with the password itself', schema: 'AppPasswordCreated' },
    refused: 'rest_cannot_create_application_passwords',
    invalid: 'the name is empty once sanitized (application_password_empty_name)',
    conflict:
      'The user already has a password of this name (application_password_duplicate_name), the login belongs to another user (rest_login_taken), or another request changed the same records at the same time (rest_conflict)',
    location: 'The REST URL of the password made',
  },
  'appPasswords.deleteAll': {
    description: "Revokes every password of the user: the caller's own, or (editors) anyone's.",
    ok: { status: 200, description: 'How many passwords were revoked', schema: 'AppPasswordsDeleted' },
    refused: 'rest_cannot_delete_application_passwords',
  },
  'appPasswords.introspect': {
    description: 'The application password the request signed in with: only with HTTP Basic, and only for the caller.',
    ok: { status: 200, description: 'The password this request signed in with', schema: 'AppPassword' },
    refused: 'rest_cannot_introspect_app_password_for_non_authenticated_user',
    notFound: 'the request did not sign in with an application password (rest_no_authenticated_app_password), or it was revoked meanwhile (rest_application_password_not_found)',
  },
  'appPasswords.get': {
    description: "One of the user's passwords: the caller's own, or (editors) anyone's.",
    ok: { status: 200, description: 'The application password', schema: 'AppPassword' },
    refused: 'rest_cannot_read_application_password',
    notFound: 'the user has no password with this uuid (rest_application_password_not_found)',
  },
  'appPasswords.delete': {
    description: "Revokes one of the user's passwords: the caller's own, or (editors) anyone's. Requests signed in with it fail from then on.",
    ok: { status: 200, description: 'The revoked password, as it was', schema: 'AppPasswordDeleted' },
    refused: 'rest_cannot_delete_application_password',
    notFound: 'the user has no password with this uuid (rest_application_password_not_found)',
  },
  ...termDocs('wpTags', 'tags'),
  ...termDocs('wpCategories', 'event categories'),
  ...postDocs('wpEvents', 'events', ', tribe_events_cat, tags (and their _exclude)'),
  ...postDocs('wpVenues', 'venues', ''),
  ...postDocs('wpOrganizers', 'organizers', ''),
};

export function wpDoc(op: Operation): WpDoc {
  const d = WP_DOCS[op.id];
  if (!d) throw new Error(`No documentation for the WordPress route ${op.id}`);
  return d;
}

export function wpResponses(op: Operation): Record<string, Json> {
  const d = wpDoc(op);
  const onUser = pathNames(op.path).includes('user');
  const body = op.methods.some((m) => m !== 'GET');
  const out: Record<string, Json> = {};
  out[d.ok.status] = {
    ...ok(d.ok.description, ref(d.ok.schema)),
    ...(d.location ? { headers: { Location: { description: d.location, schema: { type: 'string', format: 'uri' } } } } : {}),
  };
  out[400] = fail(
    `A parameter is missing (rest_missing_callback_param) or invalid (rest_invalid_param)${body ? ', or the body is not valid JSON (rest_invalid_json)' : ''}${d.invalid ? `, or ${d.invalid}` : ''}`,
  );
  const onTerm = /^wp(?:Tags|Categories|Events|Venues|Organizers)\./.test(op.id);
  out[401] = fail(
    `Not signed in (${onTerm ? d.refused : `rest_not_logged_in${onUser ? `; for a user id, ${d.refused}` : ''}`}), HTTP Basic with an unknown login (invalid_username) or a wrong application password (incorrect_password), or an invalid bearer token or a malformed Authorization header (rest_forbidden)`,
  );
  if (onUser) {
    out[403] = fail(`The user is another one, and the caller may not do this to their passwords (${d.refused})`);
    out[404] = fail(
      `No user has this id (rest_user_invalid_id)${d.notFound ? `, ${d.notFound}` : ''}, or no route: the user is neither "me" nor digits${pathNames(op.path).includes('uuid') ? ', or the uuid contains a "/"' : ''} (rest_no_route)`,
    );
  }
  if (onTerm && !onUser) {
    out[403] = fail(d.refusedWho ?? `Signed in without the editor role (${d.refused})`);
    if (d.notFound) out[404] = fail(`${d.notFound[0]!.toUpperCase()}${d.notFound.slice(1)}`);
  }
  if (op.access === 'write') out[409] = d.conflict ? fail(d.conflict) : shared('Conflict');
  if (body) {
    out[413] = shared('PayloadTooLarge');
    out[415] = shared('UnsupportedMediaType');
  }
  out[500] = shared('InternalError');
  for (const [status, description] of Object.entries(d.more ?? {})) out[status] = fail(description);
  // Reading the caller may register them, which is not the operation's own write: a GET is only busy.
  out[503] = shared(op.access === 'write' && !op.methods.includes('GET') ? 'OutcomeUnknown' : 'Busy');
  return out;
}
