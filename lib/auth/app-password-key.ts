// The key of the application-password hashes. On AWS it is a Secrets Manager secret the stack
// creates (APP_PASSWORD_SECRET_ARN), read once per container and only by a request that needs
// it; the local runtime derives one from its development key (APP_PASSWORD_KEY). Without a key
// no password can be made or checked, which is a configuration error, not a wrong password.
// The client is imported statically, so that the bundle keeps only GetSecretValue (a dynamic
// import would keep every command of the client), and made on first use.
import { GetSecretValueCommand, SecretsManagerClient } from '@aws-sdk/client-secrets-manager';

let cached: Promise<Buffer> | undefined;
let cachedFor: string | undefined;

async function fromSecret(arn: string): Promise<Buffer> {
  // Made on first use only: most requests carry no Basic credentials.
  const client = new SecretsManagerClient({ region: process.env.AWS_REGION });
  const out = await client.send(new GetSecretValueCommand({ SecretId: arn }));
  if (!out.SecretString) throw new Error('The application-password key secret has no string value');
  return Buffer.from(out.SecretString, 'utf8');
}

export function passwordKey(): Promise<Buffer> {
  const direct = process.env.APP_PASSWORD_KEY;
  const arn = process.env.APP_PASSWORD_SECRET_ARN;
  const source = direct ? `key:${direct}` : arn ? `arn:${arn}` : '';
  if (cached && cachedFor === source) return cached;
  cachedFor = source;
  if (direct) cached = Promise.resolve(Buffer.from(direct, 'utf8'));
  else if (arn) {
    cached = fromSecret(arn);
    // A failed read is tried again by the next request rather than cached.
    cached.catch(() => {
      if (cachedFor === source) cached = undefined;
    });
  } else cached = Promise.reject(new Error('No application-password key: set APP_PASSWORD_SECRET_ARN or APP_PASSWORD_KEY'));
  return cached;
}
