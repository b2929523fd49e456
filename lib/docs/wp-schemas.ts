// The schemas of WordPress's own routes (users/me and application passwords), written down as
// WordPress answers them.
import { ROLES } from '#lib/contract/principal.js';
import { ref, type Json } from './json-schema.js';
import { links, url } from './fixed-schemas.js';

// --- WordPress's shapes: users/me and application passwords ---------------------------------------
// As lib/logic/users.ts answers them (WordPress's users and application-passwords controllers);
// the fuzzer (fuzz/) checks real answers against them, with every object closed.

/** WordPress's GMT time without a zone (mysql_to_rfc3339), e.g. 2027-01-02T10:00:00. */
const wpTime: Json = { type: 'string', pattern: '^\\d{4}-\\d{2}-\\d{2}T\\d{2}:\\d{2}:\\d{2}$' };
const wpLinks = (...names: string[]): Json => ({ type: 'object', properties: Object.fromEntries(names.map((n) => [n, links])), required: names });

const appPasswordFields: Record<string, Json> = {
  uuid: { type: 'string', format: 'uuid', description: "The application password's unique identifier" },
  app_id: { type: 'string', description: 'The UUID the application gave to identify itself, or ""' },
  name: { type: 'string', description: "The name of the application password, unique among its user's" },
  created: { ...wpTime, description: 'When it was made, in GMT (YYYY-MM-DDTHH:MM:SS)' },
  last_used: { type: ['string', 'null'], pattern: wpTime.pattern, description: 'When it last signed a request in, in GMT; null when never (noted at most once a day per address)' },
  last_ip: { type: ['string', 'null'], description: 'The address of the last request it signed in; null when never' },
};

/** A password as a list shows it, and the one made, which alone shows the password itself. */
function appPasswordSchema(created: boolean): Json {
  const properties: Record<string, Json> = {
    ...appPasswordFields,
    ...(created
      ? {
          password: {
            type: 'string',
            pattern: '^[A-Za-z0-9]{4}( [A-Za-z0-9]{4}){5}$',
            minLength: 29,
            maxLength: 29,
            description: 'The password, shown this once only (only a hash is kept): 24 letters and digits in six groups of four',
          },
        }
      : {}),
    _links: { ...wpLinks('self'), description: 'The REST URL of the password' },
  };
  return {
    type: 'object',
    description: created ? 'The application password just made, with the password itself.' : 'An application password (never the password itself).',
    properties,
    required: Object.keys(properties),
  };
}

const avatarSizes = ['24', '48', '96'];
const roleMap: Json = { type: 'object', additionalProperties: { type: 'boolean' } };

/** WordPress's user: the view context's keys, and (optional) those the edit context adds. */
const userSchema: Json = {
  type: 'object',
  description: 'A user, as WordPress shows one: with context=edit also username, names, email, locale, nickname, roles and capabilities.',
  properties: {
    id: { type: 'integer', minimum: 1, description: 'The user id' },
    username: { type: 'string', description: 'The login (context=edit)' },
    name: { type: 'string', description: 'The display name: the login' },
    first_name: { type: 'string', description: 'Always "" (context=edit)' },
    last_name: { type: 'string', description: 'Always "" (context=edit)' },
    email: { type: 'string', description: 'The e-mail address of the token, or "" (context=edit)' },
    url: { type: 'string', description: 'Always ""' },
    description: { type: 'string', description: 'Always ""' },
    link: { ...url, description: "The author's public page" },
    locale: { type: 'string', description: 'Always en_US (context=edit)' },
    nickname: { type: 'string', description: 'The login (context=edit)' },
    slug: { type: 'string', description: 'The slug of the login' },
    roles: { type: 'array', items: { type: 'string', enum: [...ROLES] }, description: "The user's role, or [] for none (context=edit)" },
    capabilities: { ...roleMap, description: 'The role, as a capability (context=edit)' },
    extra_capabilities: { ...roleMap, description: 'The role, as a capability (context=edit)' },
    avatar_urls: {
      type: 'object',
      description: 'Gravatar URLs by size in pixels',
      properties: Object.fromEntries(avatarSizes.map((s) => [s, url])),
      required: avatarSizes,
    },
    meta: { type: 'array', maxItems: 0, description: 'User meta; always empty' },
    _links: { ...wpLinks('self', 'collection'), description: 'The REST URLs of the user and of the users' },
  },
  required: ['id', 'name', 'url', 'description', 'link', 'slug', 'avatar_urls', 'meta', '_links'],
};

/** A term as WordPress's terms controller shows it (lib/present/wp-term.ts); `context=embed` shows fewer keys. */
function wpTermSchema(withLinks: boolean): Json {
  const properties: Record<string, Json> = {
    id: { type: 'integer', minimum: 1, description: 'Unique identifier for the term' },
    count: { type: 'integer', minimum: 0, description: 'Number of published events with the term' },
    description: { type: 'string', description: 'HTML description of the term' },
    link: { ...url, description: 'URL of the term' },
    name: { type: 'string', description: 'HTML title for the term' },
    slug: { type: 'string', description: 'An alphanumeric identifier for the term unique to its type' },
    taxonomy: { type: 'string', enum: ['post_tag', 'tribe_events_cat'], description: 'Type attribution for the term' },
    parent: { type: 'integer', minimum: 0, description: 'The parent term id (event categories only)' },
    meta: { type: 'array', maxItems: 0, description: 'Term meta; always empty' },
    ...(withLinks
      ? {
          _links: {
            type: 'object',
            description: 'The REST URLs of the term, its collection, its taxonomy, its parent (up) and the lists of posts with it',
            properties: {
              self: {
                type: 'array',
                items: {
                  type: 'object',
                  properties: {
                    href: url,
                    targetHints: {
                      type: 'object',
                      properties: { allow: { type: 'array', items: { type: 'string', enum: ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'] } } },
                      required: ['allow'],
                      description: 'The methods the caller may use on the term',
                    },
                  },
                  required: ['href', 'targetHints'],
                },
              },
              collection: links,
              about: links,
              up: { type: 'array', items: { type: 'object', properties: { embeddable: { const: true }, href: url }, required: ['embeddable', 'href'] } },
              'wp:post_type': links,
              curies: {
                type: 'array',
                items: { type: 'object', properties: { name: { type: 'string' }, href: { type: 'string' }, templated: { const: true } }, required: ['name', 'href', 'templated'] },
              },
            },
            required: ['self', 'collection', 'about', 'wp:post_type', 'curies'],
          },
        }
      : {}),
  };
  return {
    type: 'object',
    description: withLinks ? 'A term, as WordPress shows it (context=embed: id, link, name, slug, taxonomy and _links only).' : 'A term as it was.',
    properties,
    required: withLinks ? ['id', 'link', 'name', 'slug', 'taxonomy', '_links'] : ['id', 'count', 'description', 'link', 'name', 'slug', 'taxonomy', 'meta'],
  };
}

const rendered = (what: string, extra: Record<string, Json> = {}): Json => ({
  type: 'object',
  description: `${what}: rendered, and raw in the edit context`,
  properties: { raw: { type: 'string' }, rendered: { type: 'string' }, ...extra },
  required: ['rendered'],
});

/**
 * An event, venue or organizer as WordPress's posts controller shows it (lib/present/wp-post.ts).
 * The edit context adds password, generated_slug and permalink_template (events) and the raw
 * texts; embed shows id, date, slug, type, link, title, excerpt, author, featured_media, _links.
 */
const wpPostSchema: Json = {
  type: 'object',
  description: 'A record, as WordPress shows a post of its type',
  properties: {
    id: { type: 'integer', minimum: 1, description: 'Unique identifier for the post' },
    date: { ...wpTime, description: "The publish date, in the site's time zone" },
    date_gmt: { ...wpTime, description: 'The publish date, in GMT' },
    guid: rendered('The globally unique identifier'),
    modified: { ...wpTime, description: "The last change, in the site's time zone" },
    modified_gmt: { ...wpTime, description: 'The last change, in GMT' },
    password: { type: 'string', description: "The event's password (edit context); '' when none" },
    slug: { type: 'string', description: 'An alphanumeric identifier for the post unique to its type' },
    status: { type: 'string', enum: ['publish', 'future', 'draft', 'pending', 'private', 'trash'], description: 'A named status for the post' },
    type: { type: 'string', enum: ['tribe_events', 'tribe_venue', 'tribe_organizer'], description: 'Type of post' },
    link: { ...url, description: 'URL to the post' },
    title: rendered('The title'),
    content: rendered('The content, empty when password-protected and locked', { protected: { type: 'boolean' }, block_version: { type: 'integer' } }),
    excerpt: rendered('The excerpt, empty when password-protected and locked', { protected: { type: 'boolean' } }),
    author: { type: 'integer', minimum: 0, description: 'The id of the author' },
    featured_media: { type: 'integer', const: 0, description: 'Always 0: images are URLs here' },
    template: { type: 'string', const: '', description: 'Always empty' },
    meta: { type: 'object', additionalProperties: true, description: "TEC's meta keys, every one for every type, the record's own filled" },
    tags: { type: 'array', items: { type: 'integer' }, description: "The event's tag ids" },
    tribe_events_cat: { type: 'array', items: { type: 'integer' }, description: "The event's category ids" },
    permalink_template: { type: 'string', description: 'Permalink template for the event (edit context)' },
    generated_slug: { type: 'string', description: 'Slug automatically generated from the title (edit context)' },
    class_list: { type: 'array', items: { type: 'string' }, description: "The event's CSS classes, as get_post_class()" },
    _links: {
      type: 'object',
      additionalProperties: true,
      description: 'The REST URLs of the post, its collection, type, author, revisions, attachments, terms, and (edit context) the actions the caller may take',
    },
  },
  required: ['id', 'date', 'slug', 'type', 'link', 'title', 'excerpt', 'author', 'featured_media', '_links'],
};

export function wpSchemas(): Json {
  return {
    WpPost: wpPostSchema,
    WpPostList: { type: 'array', description: 'A page of records; X-WP-Total and X-WP-TotalPages count them all.', items: ref('WpPost') },
    WpTerm: wpTermSchema(true),
    WpTermList: { type: 'array', description: 'A page of terms; X-WP-Total and X-WP-TotalPages count them all.', items: ref('WpTerm') },
    WpTermDeleted: {
      type: 'object',
      description: 'A deleted term.',
      properties: { deleted: { const: true, description: 'Always true' }, previous: wpTermSchema(false) },
      required: ['deleted', 'previous'],
    },
    User: userSchema,
    AppPassword: appPasswordSchema(false),
    AppPasswordCreated: appPasswordSchema(true),
    AppPasswordList: { type: 'array', description: "A user's application passwords, oldest first.", items: ref('AppPassword') },
    AppPasswordDeleted: {
      type: 'object',
      description: 'A revoked application password.',
      properties: { deleted: { const: true, description: 'Always true' }, previous: { ...ref('AppPassword'), description: 'The password as it was' } },
      required: ['deleted', 'previous'],
    },
    AppPasswordsDeleted: {
      type: 'object',
      description: "A user's application passwords, all revoked.",
      properties: { deleted: { const: true, description: 'Always true' }, count: { type: 'integer', minimum: 0, description: 'How many there were' } },
      required: ['deleted', 'count'],
    },
  };
}
