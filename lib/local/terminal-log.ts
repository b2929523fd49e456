// The local runtime's view of the handlers' log lines (lib/observe/log.ts, lib/observe/logger.ts): the JSON lines Lambda would
// print, or, in a terminal, one readable line per request (clock, status, method and path,
// duration, operation, caller, DynamoDB use) and errors with their stack.
import type { LogWriter } from '#lib/observe/logger.js';

export type LogFormat = 'pretty' | 'json';

/** LOG_FORMAT (`json` or `pretty`) when set, else pretty for a terminal and JSON otherwise. */
export function logFormat(env: NodeJS.ProcessEnv = process.env, isTTY = Boolean(process.stdout.isTTY)): LogFormat {
  const asked = env.LOG_FORMAT?.trim().toLowerCase();
  if (asked === 'json' || asked === 'pretty') return asked;
  return isTTY ? 'pretty' : 'json';
}

export interface TerminalLogOptions {
  format: LogFormat;
  /** No request lines (warnings and errors still show). */
  quiet?: boolean;
  /** ANSI colours (pretty only). */
  color?: boolean;
  /** Where request and other lines below WARN go; default console.log. */
  out?: (line: string) => void;
  /** Where WARN and ERROR lines go; default console.error. */
  err?: (line: string) => void;
}

const COLORS = { red: 31, green: 32, yellow: 33, cyan: 36, dim: 2 } as const;
const paint = (on: boolean, color: keyof typeof COLORS, text: string) => (on ? `\x1b[${COLORS[color]}m${text}\x1b[0m` : text);

function clock(timestamp: unknown): string {
  const d = typeof timestamp === 'string' ? new Date(timestamp) : new Date();
  return (Number.isNaN(d.getTime()) ? new Date() : d).toTimeString().slice(0, 8);
}

function statusColor(status: number): keyof typeof COLORS {
  return status >= 500 ? 'red' : status >= 400 ? 'yellow' : status >= 300 ? 'cyan' : 'green';
}

const units = (n: unknown) => String(typeof n === 'number' ? n : 0);

/** One request line as a terminal line: `12:03:04 200 GET /en/… 14ms events.list editor 2 calls 1.5 RCU 0 WCU`. */
export function renderRequest(r: Record<string, any>, color = false): string {
  const status = Number(r.status) || 0;
  const parts = [
    paint(color, 'dim', clock(r.timestamp)),
    paint(color, statusColor(status), String(status)),
    `${r.method ?? '?'} ${r.path ?? ''}`,
    `${r.duration_ms ?? '?'}ms`,
    r.operation ?? '-',
  ];
  if (r.role) parts.push(r.role);
  if (r.dynamodb) parts.push(paint(color, 'dim', `${r.dynamodb.requests ?? 0} calls ${units(r.dynamodb.read_units)} RCU ${units(r.dynamodb.write_units)} WCU`));
  // A correlation id the client chose is worth seeing; the gateway's own is noise.
  if (r.correlation_id && r.correlation_id !== r.request_id) parts.push(paint(color, 'dim', `id=${r.correlation_id}`));
  return parts.join(' ');
}

/** Any other line: clock, level, operation, message, then the error's stack or the remaining fields. */
export function renderOther(r: Record<string, any>, color = false): string {
  const level = String(r.level ?? 'INFO');
  const head = [paint(color, 'dim', clock(r.timestamp)), paint(color, level === 'ERROR' || level === 'CRITICAL' ? 'red' : 'yellow', level)];
  if (r.operation) head.push(r.operation);
  head.push(String(r.message ?? ''));
  if (r.correlation_id) head.push(paint(color, 'dim', `id=${r.correlation_id}`));
  const error = r.error as { stack?: string; message?: string } | undefined;
  if (error) return `${head.join(' ')}\n${error.stack ?? error.message ?? ''}`;
  const { level: _l, message: _m, timestamp: _t, service: _s, sampling_rate: _r, operation: _o, ...rest } = r;
  return Object.keys(rest).length ? `${head.join(' ')} ${JSON.stringify(rest)}` : head.join(' ');
}

const LOUD = new Set(['WARN', 'ERROR', 'CRITICAL']);

/**
 * A writer for lib/observe/log.ts's lines. `onRequestLine` is told when a request line passes (the
 * gateway then does not print a line of its own for that request).
 */
export function terminalLogWriter(opts: TerminalLogOptions, onRequestLine?: () => void): LogWriter {
  const out = opts.out ?? ((line: string) => console.log(line));
  const err = opts.err ?? ((line: string) => console.error(line));
  return (json, level, fields) => {
    let record: Record<string, any>;
    try {
      // JSON out needs only the line's message, which its fields hold; a readable line is made from what was printed.
      record = opts.format === 'json' && fields ? fields : (JSON.parse(json) as Record<string, any>);
    } catch {
      record = { level, message: json };
    }
    const loud = LOUD.has(level);
    const isRequest = !loud && record.message === 'request';
    if (isRequest) onRequestLine?.();
    if (opts.quiet && !loud) return;
    const line = opts.format === 'json' ? json : isRequest ? renderRequest(record, opts.color) : renderOther(record, opts.color);
    (loud ? err : out)(line);
  };
}
