// Deployment settings, read from CDK context (`cdk.json` or `npx cdk synth -c key=value`).
// Every context key the stack understands is read here, and only here, with its default.
import type { Node } from 'constructs';
import { RetentionDays } from 'aws-cdk-lib/aws-logs';

export interface AuthIssuerSettings {
  /** `AUTH_ISSUER`: the `iss` of accepted tokens. */
  issuer: string;
  /** `AUTH_AUDIENCE`: the `aud` of accepted tokens (optional: any audience). */
  audience?: string;
  /** `AUTH_JWKS_URI`: defaults, in the handlers, to `<issuer>/.well-known/jwks.json`. */
  jwksUri?: string;
  /** `AUTH_GROUPS_CLAIM`: defaults, in the handlers, to `cognito:groups`. */
  groupsClaim?: string;
}

export interface StackSettings {
  /** `dev=true`: the table and the user pool may be deleted with the stack. */
  dev: boolean;
  /** The namespace word of every route: `/{lang}/<namespace>/events/v1`. */
  namespace: string;
  /** Public site URL for `url`/`global_id`; undefined means "the API's own endpoint". */
  siteUrl?: string;
  siteTimezone: string;
  logRetention: RetentionDays;
  throttleRate: number;
  throttleBurst: number;
  /** Set: trust this issuer and create no user pool. Unset: the stack's own Cognito user pool. */
  authIssuer?: AuthIssuerSettings;
  /** `mfa=required` makes TOTP MFA mandatory in the user pool; default optional. */
  mfaRequired: boolean;
  /** `threatProtection=true` puts the user pool on the Plus feature plan (extra cost per MAU). */
  threatProtection: boolean;
}

/** Every context key the stack reads, for documentation and for the tests. */
export const CONTEXT_KEYS = [
  'dev',
  'namespace',
  'siteUrl',
  'siteTimezone',
  'logRetentionDays',
  'throttleRate',
  'throttleBurst',
  'authIssuer',
  'authAudience',
  'authJwksUri',
  'authGroupsClaim',
  'mfa',
  'threatProtection',
] as const;

type Key = (typeof CONTEXT_KEYS)[number];

function raw(node: Node, key: Key): unknown {
  const value: unknown = node.tryGetContext(key);
  return value === undefined || value === null || value === '' ? undefined : value;
}

function str(node: Node, key: Key): string | undefined {
  const value = raw(node, key);
  if (value === undefined) return undefined;
  if (typeof value !== 'string') throw new Error(`Context "${key}" must be a string, got ${JSON.stringify(value)}`);
  return value;
}

function bool(node: Node, key: Key): boolean {
  const value = raw(node, key);
  if (value === undefined) return false;
  if (typeof value === 'boolean') return value;
  if (value === 'true') return true;
  if (value === 'false') return false;
  throw new Error(`Context "${key}" must be true or false, got ${JSON.stringify(value)}`);
}

function positiveInt(node: Node, key: Key, fallback: number): number {
  const value = raw(node, key);
  if (value === undefined) return fallback;
  const n = typeof value === 'number' ? value : Number(value);
  if (!Number.isInteger(n) || n < 1) throw new Error(`Context "${key}" must be a positive integer, got ${JSON.stringify(value)}`);
  return n;
}

function retention(node: Node): RetentionDays {
  const days = positiveInt(node, 'logRetentionDays', 30);
  const allowed = Object.values(RetentionDays).filter((v): v is number => typeof v === 'number');
  if (!allowed.includes(days)) {
    throw new Error(`Context "logRetentionDays" must be one of CloudWatch's retention periods (${allowed.join(', ')}), got ${days}`);
  }
  return days as RetentionDays;
}

export function readSettings(node: Node): StackSettings {
  const namespace = str(node, 'namespace') ?? 'tribe';
  if (!/^[a-z0-9-]+$/i.test(namespace)) throw new Error(`Context "namespace" must be one path segment, got "${namespace}"`);
  const siteUrl = str(node, 'siteUrl')?.replace(/\/+$/, '');
  const issuer = str(node, 'authIssuer');
  const mfa = str(node, 'mfa') ?? 'optional';
  if (mfa !== 'optional' && mfa !== 'required') throw new Error(`Context "mfa" must be "optional" or "required", got "${mfa}"`);
  return {
    dev: bool(node, 'dev'),
    namespace,
    siteUrl,
    siteTimezone: str(node, 'siteTimezone') ?? 'UTC',
    logRetention: retention(node),
    throttleRate: positiveInt(node, 'throttleRate', 50),
    throttleBurst: positiveInt(node, 'throttleBurst', 100),
    authIssuer: issuer
      ? {
          issuer,
          audience: str(node, 'authAudience'),
          jwksUri: str(node, 'authJwksUri'),
          groupsClaim: str(node, 'authGroupsClaim'),
        }
      : undefined,
    mfaRequired: mfa === 'required',
    threatProtection: bool(node, 'threatProtection'),
  };
}
