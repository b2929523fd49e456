// The EMF blob every request writes (lib/metrics.ts): real handlers called as Lambda calls them,
// stdout captured.
import { describe, expect, it, vi } from 'vitest';
import { handler as indexHandler } from '../../functions/root/index.js';
import { handler as noRouteHandler } from '../../functions/root/noRoute.js';
import { METRIC_NAMESPACE, METRICS, OPERATION_DIMENSION } from '../../lib/metric-names.js';
import { handle } from '../../lib/pipeline.js';
import { apiEvent, captureOutput, fakeContext, type Captured } from '../support/lambda.js';

vi.hoisted(() => {
  // Read when the metrics are made: the developer's shell must not turn them off or rename them.
  for (const name of ['POWERTOOLS_DEV', 'POWERTOOLS_METRICS_NAMESPACE', 'POWERTOOLS_SERVICE_NAME']) delete process.env[name];
  process.env.POWERTOOLS_METRICS_DISABLED = 'false';
});

const ROOT = '/en/tribe/events/v1';

function blob(c: Captured): Record<string, any> {
  const blobs = c.json.filter((l) => l._aws);
  expect(blobs).toHaveLength(1);
  return blobs[0]!;
}

describe('request metrics', () => {
  it('are one EMF blob in the namespace, with the operation as the only dimension', async () => {
    const out = await captureOutput(() => indexHandler(apiEvent('GET', ROOT), fakeContext()));
    expect(out.result.statusCode).toBe(200);
    const emf = blob(out);
    const [directive, ...more] = emf._aws.CloudWatchMetrics;
    expect(more).toEqual([]);
    expect(directive.Namespace).toBe(METRIC_NAMESPACE);
    expect(directive.Dimensions).toEqual([[OPERATION_DIMENSION]]);
    expect(directive.Metrics).toEqual([
      { Name: METRICS.requests, Unit: 'Count' },
      { Name: METRICS.latency, Unit: 'Milliseconds' },
      { Name: METRICS.clientErrors, Unit: 'Count' },
      { Name: METRICS.serverErrors, Unit: 'Count' },
      { Name: METRICS.readUnits, Unit: 'Count' },
      { Name: METRICS.writeUnits, Unit: 'Count' },
    ]);
    expect(emf[OPERATION_DIMENSION]).toBe('root.index');
    expect(emf).toMatchObject({ Requests: 1, Status4xx: 0, Status5xx: 0, ReadUnits: 0, WriteUnits: 0 });
    expect(emf.Latency).toBeTypeOf('number');
    // No default dimensions: each one would multiply the custom metrics billed.
    expect(emf.service).toBeUndefined();
    expect(emf._aws.Timestamp).toBeTypeOf('number');
  });

  it('count a 5xx in Status5xx', async () => {
    const failing = handle('root.index', async () => {
      throw new Error('kaput for the metrics test');
    });
    const out = await captureOutput(() => failing(apiEvent('GET', ROOT), fakeContext()));
    expect(out.result.statusCode).toBe(500);
    expect(blob(out)).toMatchObject({ [OPERATION_DIMENSION]: 'root.index', Requests: 1, Status4xx: 0, Status5xx: 1 });
  });

  it('count a 4xx in Status4xx, for the no-route fallback as root.noRoute', async () => {
    const out = await captureOutput(() => noRouteHandler(apiEvent('GET', '/nothing/here'), fakeContext()));
    expect(out.result.statusCode).toBe(404);
    expect(blob(out)).toMatchObject({ [OPERATION_DIMENSION]: 'root.noRoute', Requests: 1, Status4xx: 1, Status5xx: 0 });
  });

  it('flush per invocation: two requests, two blobs, each with its own operation', async () => {
    const out = await captureOutput(async () => {
      await indexHandler(apiEvent('GET', ROOT), fakeContext());
      await noRouteHandler(apiEvent('GET', '/nothing'), fakeContext());
    });
    const blobs = out.json.filter((l) => l._aws);
    expect(blobs.map((b) => [b[OPERATION_DIMENSION], b.Requests])).toEqual([
      ['root.index', 1],
      ['root.noRoute', 1],
    ]);
  });
});
