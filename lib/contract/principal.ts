// Who a caller is: the roles this API knows (WordPress's, highest last) and the signed-in principal.
export const ROLES = ['contributor', 'author', 'editor'] as const;
export type Role = (typeof ROLES)[number];

export interface Principal {
  /** The token subject: one subject is one user. */
  sub: string;
  /** The highest role among the token's groups, or undefined for a user with none of them. */
  role: Role | undefined;
  /** The user's login name: the token's `username` (Cognito access tokens), else the subject. */
  login?: string;
  /** The token's `email` claim, when it has one (Cognito id tokens). */
  email?: string;
  /** A bearer token's `iat` (Unix seconds): an older token cannot raise its user's stored role. */
  issuedAt?: number;
  /** How the caller signed in; for an application password, its uuid. */
  via?: { scheme: 'bearer' } | { scheme: 'basic'; appPassword: string };
}
