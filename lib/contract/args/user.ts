// The arguments of WordPress's own user routes: `users/me` and the application passwords.
import { oneOf, str, checked, type Arg, type Args } from '#lib/contract/params.js';

const context = (values: readonly ('view' | 'embed' | 'edit')[], dflt: string) =>
  ({
    schema: oneOf(values),
    type: 'string',
    enum: values,
    default: dflt,
    description: 'Scope under which the request is made; determines fields present in response.',
  }) satisfies Arg;

const pathUser = {
  schema: str(),
  type: 'string',
  required: true,
  path: true,
  description: 'The user: "me" for the caller, or a user id',
} satisfies Arg;

const pathUuid = {
  schema: str(),
  type: 'string',
  required: true,
  path: true,
  description: "The application password's unique identifier",
} satisfies Arg;

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export const userArgs = {
  me: { context: context(['view', 'embed', 'edit'], 'view') },
} satisfies Record<string, Args>;

export const appPasswordArgs = {
  list: { user: pathUser, context: context(['view', 'embed', 'edit'], 'view') },
  get: { user: pathUser, uuid: pathUuid, context: context(['view', 'embed', 'edit'], 'view') },
  create: {
    user: pathUser,
    name: {
      schema: str({ max: 200 }),
      type: 'string',
      required: true,
      description: 'The name of the application password.',
    },
    app_id: {
      schema: checked<string>((v) => (typeof v === 'string' && (v === '' || UUID.test(v)) ? undefined : 'is not a valid UUID.')),
      type: 'string',
      format: 'uuid',
      description: 'A UUID provided by the application to uniquely identify it. It is recommended to use an UUID v5 with the URL or DNS namespace.',
    },
  },
  delete: { user: pathUser, uuid: pathUuid },
  deleteAll: { user: pathUser },
} satisfies Record<string, Args>;
