// How requests sign in, as the OpenAPI document declares it: the security schemes of its
// components, and the requirement of the operations that take credentials.
import type { Json } from './json-schema.js';

/** The two ways to sign in, in components.securitySchemes. */
export const SECURITY_SCHEMES: Json = {
  bearerAuth: {
    type: 'http',
    scheme: 'bearer',
    bearerFormat: 'JWT',
    description: 'A JWT from the configured issuer. Writes need one (or an application password, basicAuth); reads accept one (editors and authors then see unpublished records).',
  },
  basicAuth: {
    type: 'http',
    scheme: 'basic',
    description:
      "A login and an application password (WordPress's HTTP Basic for REST clients): the user name is the login of the password's user, the password one made with POST /users/me/application-passwords (spaces in it do not matter). It acts with its user's role, as long as the user still has it.",
  },
};

/** Bearer tokens and application passwords: either one signs a request in. */
export const SIGN_IN: Json[] = [{ bearerAuth: [] }, { basicAuth: [] }];
