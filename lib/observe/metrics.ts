// Metrics in CloudWatch's embedded metric format (EMF): one JSON line per invocation on stdout, in
// the stack's namespace (POWERTOOLS_METRICS_NAMESPACE, else METRIC_NAMESPACE), with the operation
// as the only dimension. Every dimension combination is a custom metric CloudWatch bills by itself,
// so there is no `service` dimension and no cold-start metric (the request log line carries
// `cold_start`). The blob is fixed, so it is written here: a metrics library's set-up and
// validation were a tenth of a function's first call.
// POWERTOOLS_METRICS_DISABLED turns the output off (the local runtime sets it), and so does
// POWERTOOLS_DEV when the former is unset, as Powertools reads them.
import { METRIC_NAMESPACE, METRICS, OPERATION_DIMENSION } from './metric-names.js';

export interface Metric {
  name: string;
  unit: 'Count' | 'Milliseconds';
  value: number;
}

const TRUE = new Set(['1', 'y', 'yes', 't', 'true', 'on']);
const flag = (name: string) => TRUE.has((process.env[name] ?? '').trim().toLowerCase());

/** Read on every write, so that the environment counts as the runtime set it. */
function disabled(): boolean {
  return process.env.POWERTOOLS_METRICS_DISABLED !== undefined ? flag('POWERTOOLS_METRICS_DISABLED') : flag('POWERTOOLS_DEV');
}

/**
 * Writes one EMF blob for `operation`. A single `write` of one line, so that concurrent requests
 * of one process (the local server) never interleave.
 */
export function publishMetrics(operation: string, metrics: readonly Metric[], now = Date.now()): void {
  if (disabled()) return;
  const blob: Record<string, unknown> = {
    _aws: {
      Timestamp: now,
      CloudWatchMetrics: [
        {
          Namespace: process.env.POWERTOOLS_METRICS_NAMESPACE || METRIC_NAMESPACE,
          Dimensions: [[OPERATION_DIMENSION]],
          Metrics: metrics.map((m) => ({ Name: m.name, Unit: m.unit })),
        },
      ],
    },
    [OPERATION_DIMENSION]: operation,
  };
  for (const m of metrics) blob[m.name] = m.value;
  process.stdout.write(`${JSON.stringify(blob)}\n`);
}

export interface RequestMetrics {
  operation: string;
  status: number;
  durationMs: number;
  readUnits: number;
  writeUnits: number;
}

/** The request's metrics. Errors are 0 or 1 on every request, so that their average is the error rate. */
export function publishRequestMetrics(m: RequestMetrics): void {
  publishMetrics(m.operation, [
    { name: METRICS.requests, unit: 'Count', value: 1 },
    { name: METRICS.latency, unit: 'Milliseconds', value: Math.round(m.durationMs * 10) / 10 },
    { name: METRICS.clientErrors, unit: 'Count', value: m.status >= 400 && m.status < 500 ? 1 : 0 },
    { name: METRICS.serverErrors, unit: 'Count', value: m.status >= 500 ? 1 : 0 },
    { name: METRICS.readUnits, unit: 'Count', value: m.readUnits },
    { name: METRICS.writeUnits, unit: 'Count', value: m.writeUnits },
  ]);
}
