// The functions' JSON log lines, one per call: `level`, `message`, `timestamp`, `service`, the X-Ray
// trace id when Lambda gives one, then the caller's fields; errors anywhere in them are written with
// their name, location, message, stack and cause. The shape is Powertools Logger's, written here
// because that library costs every cold start about 6 ms to load and 3 ms for its first line
// (measured beside the SDK's own modules), and only this much of it is used.
//
// INFO and DEBUG go to stdout, WARN and ERROR to stderr, as Lambda's console does; the local
// runtime may take the lines instead (withLogWriter). Level: POWERTOOLS_LOG_LEVEL, else LOG_LEVEL
// (DEBUG, INFO, WARN, ERROR or SILENT, any case; default INFO), read when a logger is made; with
// Lambda's own log-level control (AWS_LAMBDA_LOG_LEVEL) the stricter of the two applies.
import { scopedValue } from '#lib/runtime/scope.js';

/**
 * Receives each log line instead of stdout: `json` is the line exactly as Lambda prints it, and
 * `fields` what it was written from (a writer that looks into the line need not parse it again).
 */
export type LogWriter = (json: string, level: string, fields?: Readonly<Record<string, unknown>>) => void;

const writers = scopedValue<LogWriter>('log-writer');

/** Runs `fn` with its log lines handed to `writer` (the local runtime, per request). */
export function withLogWriter<T>(writer: LogWriter, fn: () => T): T {
  return writers.run(writer, fn);
}

// Lambda's log-level control may also say FATAL, Powertools' CRITICAL: the same level.
const LEVELS = { TRACE: 6, DEBUG: 8, INFO: 12, WARN: 16, ERROR: 20, CRITICAL: 24, FATAL: 24, SILENT: 28 } as const;
type LevelName = keyof typeof LEVELS;

function levelOf(value: string | undefined): number | undefined {
  const name = value?.trim().toUpperCase();
  return name && name in LEVELS ? LEVELS[name as LevelName] : undefined;
}

/** The least severe level printed, from the environment. */
export function logThreshold(env: NodeJS.ProcessEnv = process.env): number {
  const own = levelOf(env.POWERTOOLS_LOG_LEVEL) ?? levelOf(env.LOG_LEVEL) ?? LEVELS.INFO;
  return Math.max(own, levelOf(env.AWS_LAMBDA_LOG_LEVEL) ?? 0);
}

/** `file:line` of the first frame of a stack. */
function location(stack: string | undefined): string {
  const frame = stack?.split('\n').find((l) => /^\s+at /.test(l));
  const m = frame ? /\(?([^()\s]+):(\d+):\d+\)?$/.exec(frame) : null;
  return m ? `${m[1]}:${m[2]}` : '';
}

/**
 * An error as a plain object: its name, location, message and stack, its own fields (the SDK's
 * `$metadata` and `CancellationReasons`, Node's `code`), and its cause, once (a cause may loop).
 */
function formatError(err: Error, seen = new WeakSet<Error>()): Record<string, unknown> {
  seen.add(err);
  const own: Record<string, unknown> = {};
  for (const key of Object.keys(err)) if (!['name', 'message', 'stack', 'cause'].includes(key)) own[key] = (err as unknown as Record<string, unknown>)[key];
  const cause = err.cause instanceof Error ? (seen.has(err.cause) ? '[Circular]' : formatError(err.cause, seen)) : err.cause;
  return { name: err.name, location: location(err.stack), message: err.message, stack: err.stack, ...own, ...(cause === undefined ? {} : { cause }) };
}

/** Errors as objects, BigInts as strings; with `seen`, an object met again is left out (cycles). */
function replacer(seen?: WeakSet<object>) {
  return (_key: string, value: unknown): unknown => {
    if (typeof value === 'bigint') return value.toString();
    if (value instanceof Error) value = formatError(value);
    if (seen && typeof value === 'object' && value !== null) {
      if (seen.has(value)) return undefined;
      seen.add(value);
    }
    return value;
  };
}

/**
 * Whether JSON.stringify alone writes `value` as the replacer would: no Error and no BigInt in it,
 * and not deeper than a log line's fields go (a cycle is deep). A request's line always is, and a
 * replacer makes JSON.stringify call back into JavaScript for every key.
 */
function plainJson(value: unknown, depth = 0): boolean {
  if (typeof value === 'bigint' || value instanceof Error) return false;
  if (typeof value !== 'object' || value === null) return true;
  if (depth > 8) return false;
  if (Array.isArray(value)) return value.every((v) => plainJson(v, depth + 1));
  for (const key in value) if (Object.hasOwn(value, key) && !plainJson((value as Record<string, unknown>)[key], depth + 1)) return false;
  return true;
}

function serialize(line: Record<string, unknown>): string {
  try {
    return plainJson(line) ? JSON.stringify(line) : JSON.stringify(line, replacer());
  } catch {
    // A cycle: leave out what repeats. A field that throws when read: keep the line's head.
    try {
      return JSON.stringify(line, replacer(new WeakSet()));
    } catch (err) {
      const { level, message, timestamp, service } = line;
      return JSON.stringify({ level, message, timestamp, service, log_error: `The fields could not be written: ${String(err)}` });
    }
  }
}

let traceHeader: string | undefined;
let traceRoot: string | undefined;
/** The X-Ray trace id of Lambda's `_X_AMZN_TRACE_ID` (set anew for each invocation), parsed once per value. */
function traceId(): string | undefined {
  const header = process.env._X_AMZN_TRACE_ID;
  if (header !== traceHeader) {
    traceHeader = header;
    traceRoot = /Root=([^;]+)/.exec(header ?? '')?.[1];
  }
  return traceRoot;
}

export interface LogFields {
  message: string;
  [key: string]: unknown;
}

export class JsonLogger {
  private readonly threshold: number;

  constructor(
    private readonly service: string,
    env: NodeJS.ProcessEnv = process.env,
  ) {
    this.threshold = logThreshold(env);
  }

  debug(fields: LogFields): void {
    this.print('DEBUG', fields);
  }
  info(fields: LogFields): void {
    this.print('INFO', fields);
  }
  warn(fields: LogFields): void {
    this.print('WARN', fields);
  }
  error(fields: LogFields): void {
    this.print('ERROR', fields);
  }

  private print(level: 'DEBUG' | 'INFO' | 'WARN' | 'ERROR', fields: LogFields): void {
    if (LEVELS[level] < this.threshold) return;
    const line: Record<string, unknown> = { level, message: fields.message, timestamp: new Date().toISOString(), service: this.service };
    const trace = traceId();
    if (trace) line.xray_trace_id = trace;
    // As Powertools Logger did: a field without a value is left out, not written empty.
    for (const key of Object.keys(fields)) {
      const v = fields[key];
      if (key !== 'message' && v !== undefined && v !== null && v !== '') line[key] = v;
    }
    const json = serialize(line);
    const write = writers.get();
    if (write) write(json, level, line);
    else (LEVELS[level] >= LEVELS.WARN ? process.stderr : process.stdout).write(`${json}\n`);
  }
}
