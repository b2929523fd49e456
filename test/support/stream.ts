// The table stream in tests: the local poller (lib/local/stream.ts) running the real consumer
// against this file's table in DynamoDB Local, with the change feed on the local bus. Call it
// after useFreshTable, so that the poller starts once the table exists and stops before it goes.
import { afterAll, beforeAll } from 'vitest';
import { installLocalBus, localBus, type LocalBus } from '#lib/local/bus.js';
import { startStreamPoller, type StreamPoller, type StreamPollerOptions } from '#lib/local/stream.js';
import { dynamoEndpoint } from './table.js';

export interface StreamHarness {
  /** Available from beforeAll on. */
  readonly poller: StreamPoller;
  readonly bus: LocalBus;
  /** The consumer's log lines, parsed. */
  readonly logs: Record<string, any>[];
  /** The poller's own lines (dead letters, errors). */
  readonly lines: string[];
  /** Until every change written so far has been handled (at most `timeoutMs`, default 30 s). */
  drain(timeoutMs?: number): Promise<void>;
}

export function useStreamPoller(opts: Omit<StreamPollerOptions, 'tableName' | 'endpoint' | 'logWriter' | 'log'> = {}): StreamHarness {
  let poller: StreamPoller | undefined;
  const logs: Record<string, any>[] = [];
  const lines: string[] = [];
  let previousBus: string | undefined;
  beforeAll(async () => {
    previousBus = process.env.CHANGE_BUS_NAME;
    process.env.CHANGE_BUS_NAME = 'local';
    installLocalBus();
    localBus.clear();
    poller = await startStreamPoller({
      idleMs: 50,
      ...opts,
      endpoint: await dynamoEndpoint(),
      logWriter: (json) => logs.push(JSON.parse(json) as Record<string, any>),
      log: (line) => lines.push(line),
    });
  });
  afterAll(async () => {
    await poller?.stop();
    if (previousBus === undefined) delete process.env.CHANGE_BUS_NAME;
    else process.env.CHANGE_BUS_NAME = previousBus;
  });
  return {
    get poller() {
      if (!poller) throw new Error('The stream poller starts in beforeAll.');
      return poller;
    },
    bus: localBus,
    logs,
    lines,
    drain: (timeoutMs?: number) => {
      if (!poller) throw new Error('The stream poller starts in beforeAll.');
      return poller.drain(timeoutMs);
    },
  };
}

/** Polls `condition` until it holds; throws `message` after `timeoutMs` (no timing is asserted). */
export async function waitFor(condition: () => boolean | Promise<boolean>, message: string, timeoutMs = 15_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (await condition()) return;
    if (Date.now() > deadline) throw new Error(`Timed out: ${message}`);
    await new Promise((ok) => setTimeout(ok, 25));
  }
}
