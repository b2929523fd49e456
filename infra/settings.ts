// Deployment settings, read from CDK context (`cdk.json` or `npx cdk synth -c key=value`).
// Every context key the stack understands is read here, and only here, with its default.
import type { Node } from 'constructs';
import { RetentionDays } from 'aws-cdk-lib/aws-logs';
import { isLang, LANGUAGES, type Lang } from '#lib/runtime/config.js';

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
  /** `DEFAULT_LANGUAGE`: what `/wp-json/…` and `?rest_route=…` serve, and the language whose pages have no prefix. */
  defaultLanguage: Lang;
  /** `SITE_NAME`, `SITE_DESCRIPTION`: the site's title (calendar feeds, the REST index `/wp-json/`) and tagline; unset: the functions' defaults. */
  siteName?: string;
  siteDescription?: string;
  logRetention: RetentionDays;
  throttleRate: number;
  throttleBurst: number;
  /** Set: trust this issuer and create no user pool. Unset: the stack's own Cognito user pool. */
  authIssuer?: AuthIssuerSettings;
  /** `mfa=required` makes TOTP MFA mandatory in the user pool; default optional. */
  mfaRequired: boolean;
  /** `threatProtection=true` puts the user pool on the Plus feature plan (extra cost per MAU). */
  threatProtection: boolean;
  /** The table's on-demand ceiling (request units per second), for the table and each of its indexes. */
  maxReadRequestUnits: number;
  maxWriteRequestUnits: number;
  monitoring: MonitoringSettings;
  /** `cdn=true`: CloudFront in front of the API (infra/cdn.ts). */
  cdn: boolean;
  /** Seconds shared caches keep an anonymous read (`CACHE_MAX_AGE`), and may serve it stale while refreshing. */
  cacheMaxAge: number;
  cacheStaleWhileRevalidate: number;
}

/** The alarms of infra/monitoring.ts. */
export interface MonitoringSettings {
  /** `alarmEmail`: subscribed to the alarm topic (the address must confirm the subscription). */
  alarmEmail?: string;
  /** The period of every alarm, in minutes. */
  periodMinutes: number;
  /** An alarm fires when `datapointsToAlarm` of the last `evaluationPeriods` periods breach. */
  evaluationPeriods: number;
  datapointsToAlarm: number;
  /** Percentage of a function's requests answered with a 5xx status. */
  serverErrorPercent: number;
  /** p99 of the handler's latency (ms); `fanOutLatencyMs` for operations that rewrite linked events. */
  latencyMs: number;
  fanOutLatencyMs: number;
  /** Lambda `Errors` of one function, and DynamoDB `SystemErrors`, per period. */
  errorCount: number;
  /** Lambda `Throttles` of one function, and DynamoDB read or write throttle events, per period. */
  throttleCount: number;
}

/** Every context key the stack reads, for documentation and for the tests. */
export const CONTEXT_KEYS = [
  'dev',
  'namespace',
  'siteUrl',
  'siteTimezone',
  'defaultLanguage',
  'siteName',
  'siteDescription',
  'logRetentionDays',
  'throttleRate',
  'throttleBurst',
  'authIssuer',
  'authAudience',
  'authJwksUri',
  'authGroupsClaim',
  'mfa',
  'threatProtection',
  'maxReadRequestUnits',
  'maxWriteRequestUnits',
  'alarmEmail',
  'alarmPeriodMinutes',
  'alarmEvaluationPeriods',
  'alarmDatapointsToAlarm',
  'alarm5xxPercent',
  'alarmLatencyMs',
  'alarmFanOutLatencyMs',
  'alarmErrorCount',
  'alarmThrottleCount',
  'cdn',
  'cacheMaxAge',
  'cacheStaleWhileRevalidate',
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

function positiveNumber(node: Node, key: Key, fallback: number, max: number): number {
  const value = raw(node, key);
  if (value === undefined) return fallback;
  const n = typeof value === 'number' ? value : Number(value);
  if (!Number.isFinite(n) || n <= 0 || n > max) throw new Error(`Context "${key}" must be a number above 0 and at most ${max}, got ${JSON.stringify(value)}`);
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

function monitoring(node: Node): MonitoringSettings {
  const alarmEmail = str(node, 'alarmEmail');
  if (alarmEmail !== undefined && !/^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(alarmEmail)) {
    throw new Error(`Context "alarmEmail" must be an e-mail address, got "${alarmEmail}"`);
  }
  const periodMinutes = positiveInt(node, 'alarmPeriodMinutes', 5);
  const evaluationPeriods = positiveInt(node, 'alarmEvaluationPeriods', 3);
  const datapointsToAlarm = positiveInt(node, 'alarmDatapointsToAlarm', 2);
  // CloudWatch evaluates at most one day of periods.
  if (periodMinutes * evaluationPeriods > 24 * 60) {
    throw new Error(`Context "alarmPeriodMinutes" × "alarmEvaluationPeriods" must be at most one day (1440 minutes), got ${periodMinutes * evaluationPeriods}`);
  }
  if (datapointsToAlarm > evaluationPeriods) {
    throw new Error(`Context "alarmDatapointsToAlarm" (${datapointsToAlarm}) must not exceed "alarmEvaluationPeriods" (${evaluationPeriods})`);
  }
  return {
    alarmEmail,
    periodMinutes,
    evaluationPeriods,
    datapointsToAlarm,
    serverErrorPercent: positiveNumber(node, 'alarm5xxPercent', 5, 100),
    // Requests normally take tens of milliseconds; 3 s is far from that and far from the 10 s timeout.
    latencyMs: positiveInt(node, 'alarmLatencyMs', 3000),
    // Rewriting every event linked to a venue or organizer legitimately takes seconds (timeout 29 s).
    fanOutLatencyMs: positiveInt(node, 'alarmFanOutLatencyMs', 15000),
    errorCount: positiveInt(node, 'alarmErrorCount', 1),
    throttleCount: positiveInt(node, 'alarmThrottleCount', 1),
  };
}

export function readSettings(node: Node): StackSettings {
  const namespace = str(node, 'namespace') ?? 'tribe';
  if (!/^[a-z0-9-]+$/i.test(namespace)) throw new Error(`Context "namespace" must be one path segment, got "${namespace}"`);
  const siteUrl = str(node, 'siteUrl')?.replace(/\/+$/, '');
  const issuer = str(node, 'authIssuer');
  const mfa = str(node, 'mfa') ?? 'optional';
  const defaultLanguage = str(node, 'defaultLanguage') ?? 'en';
  if (!isLang(defaultLanguage)) throw new Error(`Context "defaultLanguage" must be one of ${LANGUAGES.join(', ')}, got "${defaultLanguage}"`);
  if (mfa !== 'optional' && mfa !== 'required') throw new Error(`Context "mfa" must be "optional" or "required", got "${mfa}"`);
  return {
    dev: bool(node, 'dev'),
    namespace,
    siteUrl,
    siteTimezone: str(node, 'siteTimezone') ?? 'UTC',
    defaultLanguage,
    siteName: str(node, 'siteName'),
    siteDescription: str(node, 'siteDescription'),
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
    // A ceiling against runaway cost, not a capacity plan: below it on-demand still scales freely.
    // A list page reads about 8 units and a search about 180 at 1,000 events (bench/README.md), and
    // the stage admits 50 requests/s: 1000 read units/s serve that rate in pages, or a few searches a
    // second. A write costs a few units with its index, slug and count items (a venue edit one more per
    // linked event): 200 write units/s. At on-demand prices (us-east-1) either ceiling bounds a runaway
    // to about $0.45 an hour, for the table and for each index.
    maxReadRequestUnits: positiveInt(node, 'maxReadRequestUnits', 1000),
    maxWriteRequestUnits: positiveInt(node, 'maxWriteRequestUnits', 200),
    monitoring: monitoring(node),
    cdn: bool(node, 'cdn'),
    // A few seconds: long enough to absorb a burst of identical anonymous reads, short enough
    // that an edit shows without invalidations.
    cacheMaxAge: positiveInt(node, 'cacheMaxAge', 5),
    cacheStaleWhileRevalidate: positiveInt(node, 'cacheStaleWhileRevalidate', 10),
  };
}
