// The EMF blob every request writes (lib/observe/metrics.ts): real handlers called as Lambda calls them,
// stdout captured.
import { describe, expect, it, vi } from 'vitest';
import { handler as indexHandler } from '../../functions/root/index.js';
import { handler as noRouteHandler } from '../../functions/root/noRoute.js';
import { METRIC_NAMESPACE, METRICS, OPERATION_DIMENSION } from '#lib/observe/metric-names.js';
import { handle } from '#lib/http/pipeline.js';
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

  it('are off when POWERTOOLS_METRICS_DISABLED says so, or POWERTOOLS_DEV without it, as Powertools reads them', async () => {
    const blobs = async (env: Record<string, string | undefined>) => {
      const saved = { POWERTOOLS_METRICS_DISABLED: process.env.POWERTOOLS_METRICS_DISABLED, POWERTOOLS_DEV: process.env.POWERTOOLS_DEV };
      for (const [k, v] of Object.entries(env))
        if (v === undefined) delete process.env[k];
        else process.env[k] = v;
      try {
        const out = await captureOutput(() => indexHandler(apiEvent('GET', ROOT), fakeContext()));
        return out.json.filter((l) => l._aws).length;
      } finally {
        for (const [k, v] of Object.entries(saved))
          if (v === undefined) delete process.env[k];
          else process.env[k] = v;
      }
    };
    expect(await blobs({ POWERTOOLS_METRICS_DISABLED: 'true', POWERTOOLS_DEV: undefined })).toBe(0);
    expect(await blobs({ POWERTOOLS_METRICS_DISABLED: 'Yes', POWERTOOLS_DEV: undefined })).toBe(0);
    expect(await blobs({ POWERTOOLS_METRICS_DISABLED: undefined, POWERTOOLS_DEV: 'true' })).toBe(0);
    expect(await blobs({ POWERTOOLS_METRICS_DISABLED: 'false', POWERTOOLS_DEV: 'true' })).toBe(1);
    expect(await blobs({ POWERTOOLS_METRICS_DISABLED: undefined, POWERTOOLS_DEV: undefined })).toBe(1);
  });

  it("use the stack's namespace, and each blob is one line", async () => {
    process.env.POWERTOOLS_METRICS_NAMESPACE = 'EventCalendar/Test';
    try {
      const out = await captureOutput(() => indexHandler(apiEvent('GET', ROOT), fakeContext()));
      expect(blob(out)._aws.CloudWatchMetrics[0].Namespace).toBe('EventCalendar/Test');
      const lines = out.stdout.split('\n').filter((l) => l.includes('"_aws"'));
      expect(lines).toHaveLength(1);
      expect(lines[0]!.startsWith('{') && lines[0]!.endsWith('}')).toBe(true);
    } finally {
      delete process.env.POWERTOOLS_METRICS_NAMESPACE;
    }
  });
});
