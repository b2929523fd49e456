// Per-request metrics in CloudWatch's embedded metric format (Powertools Metrics): one EMF line per
// invocation, in METRIC_NAMESPACE, with the operation as the only dimension. Every dimension
// combination is a custom metric CloudWatch bills by itself, so Powertools' default `service`
// dimension is dropped, and there is no cold-start metric (Powertools writes it as a second EMF
// line with its own dimensions; the request log line carries `cold_start` instead).
// POWERTOOLS_METRICS_DISABLED=true turns the output off (the local runtime does).
import { Metrics, MetricUnit } from '@aws-lambda-powertools/metrics';
import { METRIC_NAMESPACE, METRICS, OPERATION_DIMENSION } from './metric-names.js';

let metrics: Metrics | undefined;

/** Made on first use, so that the environment (POWERTOOLS_METRICS_DISABLED) is read as the runtime set it. */
function instance(): Metrics {
  if (!metrics) {
    // The stack names its own namespace (stackMetricNamespace); local runs use the plain one.
    metrics = new Metrics({ namespace: process.env.POWERTOOLS_METRICS_NAMESPACE || METRIC_NAMESPACE });
    metrics.clearDefaultDimensions();
  }
  return metrics;
}

export interface RequestMetrics {
  operation: string;
  status: number;
  durationMs: number;
  readUnits: number;
  writeUnits: number;
}

/**
 * Writes the request's metrics. Errors are 0 or 1 on every request, so that their average is the
 * error rate. Adding and flushing happen in one synchronous step, so concurrent requests of one
 * process (the local server) never share a blob.
 */
export function publishRequestMetrics(m: RequestMetrics): void {
  const out = instance();
  out.addDimension(OPERATION_DIMENSION, m.operation);
  out.addMetric(METRICS.requests, MetricUnit.Count, 1);
  out.addMetric(METRICS.latency, MetricUnit.Milliseconds, Math.round(m.durationMs * 10) / 10);
  out.addMetric(METRICS.clientErrors, MetricUnit.Count, m.status >= 400 && m.status < 500 ? 1 : 0);
  out.addMetric(METRICS.serverErrors, MetricUnit.Count, m.status >= 500 ? 1 : 0);
  out.addMetric(METRICS.readUnits, MetricUnit.Count, m.readUnits);
  out.addMetric(METRICS.writeUnits, MetricUnit.Count, m.writeUnits);
  out.publishStoredMetrics();
}
