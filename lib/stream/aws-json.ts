// A minimal client of AWS's JSON protocol (as SQS speaks it: `X-Amz-Target` and an
// `application/x-amz-json-1.0` body), signed with Signature Version 4 and the function's role
// credentials from its environment. The webhook queue needs two calls of SQS, SendMessageBatch
// and ChangeMessageVisibility; this keeps them without a further SDK client in the bundles.
import { createHash, createHmac } from 'node:crypto';

export interface AwsCredentials {
  accessKeyId: string;
  secretAccessKey: string;
  sessionToken?: string;
}

const sha256 = (data: string) => createHash('sha256').update(data, 'utf8').digest('hex');
const hmac = (key: string | Buffer, data: string) => createHmac('sha256', key).update(data, 'utf8').digest();

export interface SignInput {
  method: string;
  url: URL;
  /** Lower-case names; `host` and `x-amz-date` are added. */
  headers: Record<string, string>;
  body: string;
  region: string;
  service: string;
  credentials: AwsCredentials;
  /** `YYYYMMDD'T'HHMMSS'Z'`. */
  amzDate: string;
}

/** The request's headers with SigV4's `authorization` (and `x-amz-date`, `x-amz-security-token`). */
export function signV4(input: SignInput): Record<string, string> {
  const { credentials: c, amzDate } = input;
  const headers: Record<string, string> = { ...input.headers, host: input.url.host, 'x-amz-date': amzDate };
  if (c.sessionToken) headers['x-amz-security-token'] = c.sessionToken;
  const names = Object.keys(headers)
    .map((n) => n.toLowerCase())
    .sort();
  const lower = Object.fromEntries(Object.entries(headers).map(([k, v]) => [k.toLowerCase(), v]));
  const canonicalHeaders = names.map((n) => `${n}:${lower[n]!.trim().replace(/\s+/g, ' ')}\n`).join('');
  const signedHeaders = names.join(';');
  const query = [...input.url.searchParams.entries()]
    .map(([k, v]) => [encodeURIComponent(k), encodeURIComponent(v)])
    .sort(([a, x], [b, y]) => (a! < b! ? -1 : a! > b! ? 1 : x! < y! ? -1 : x! > y! ? 1 : 0))
    .map(([k, v]) => `${k}=${v}`)
    .join('&');
  const canonicalRequest = [input.method, input.url.pathname || '/', query, canonicalHeaders, signedHeaders, sha256(input.body)].join('\n');
  const day = amzDate.slice(0, 8);
  const scope = `${day}/${input.region}/${input.service}/aws4_request`;
  const toSign = ['AWS4-HMAC-SHA256', amzDate, scope, sha256(canonicalRequest)].join('\n');
  const key = hmac(hmac(hmac(hmac(`AWS4${c.secretAccessKey}`, day), input.region), input.service), 'aws4_request');
  const signature = createHmac('sha256', key).update(toSign, 'utf8').digest('hex');
  return { ...headers, authorization: `AWS4-HMAC-SHA256 Credential=${c.accessKeyId}/${scope}, SignedHeaders=${signedHeaders}, Signature=${signature}` };
}

export class AwsJsonError extends Error {
  constructor(
    readonly status: number,
    readonly type: string,
    message: string,
  ) {
    super(`${type} (${status}): ${message}`);
    this.name = 'AwsJsonError';
  }
}

/** The role's credentials, as Lambda hands them to a function. */
export function environmentCredentials(env: NodeJS.ProcessEnv = process.env): AwsCredentials {
  const accessKeyId = env.AWS_ACCESS_KEY_ID;
  const secretAccessKey = env.AWS_SECRET_ACCESS_KEY;
  if (!accessKeyId || !secretAccessKey) throw new Error('No AWS credentials in the environment (AWS_ACCESS_KEY_ID, AWS_SECRET_ACCESS_KEY)');
  return { accessKeyId, secretAccessKey, ...(env.AWS_SESSION_TOKEN ? { sessionToken: env.AWS_SESSION_TOKEN } : {}) };
}

/** One call: `target` is e.g. `AmazonSQS.SendMessageBatch`. Throws AwsJsonError for an error answer. */
export async function callAwsJson<T>(service: string, target: string, payload: unknown, opts: { region?: string; endpoint?: string; timeoutMs?: number } = {}): Promise<T> {
  const region = opts.region ?? (process.env.AWS_REGION || 'us-east-1');
  // The SDK's own override (AWS_ENDPOINT_URL_<SERVICE>), for an emulator or a test double.
  const url = new URL(opts.endpoint ?? (process.env[`AWS_ENDPOINT_URL_${service.toUpperCase()}`] || `https://${service}.${region}.amazonaws.com/`));
  const body = JSON.stringify(payload);
  const amzDate = new Date()
    .toISOString()
    .replace(/[-:]/g, '')
    .replace(/\.\d{3}/, '');
  const headers = signV4({
    method: 'POST',
    url,
    headers: { 'content-type': 'application/x-amz-json-1.0', 'x-amz-target': target },
    body,
    region,
    service,
    credentials: environmentCredentials(),
    amzDate,
  });
  const { host: _, ...sent } = headers;
  const res = await fetch(url, { method: 'POST', headers: sent, body, signal: AbortSignal.timeout(opts.timeoutMs ?? 10_000) });
  const text = await res.text();
  const parsed = text ? (JSON.parse(text) as Record<string, unknown>) : {};
  if (!res.ok) {
    const type = String(parsed.__type ?? 'Unknown').replace(/^.*#/, '');
    throw new AwsJsonError(res.status, type, String(parsed.message ?? parsed.Message ?? text));
  }
  return parsed as T;
}
