// The local runtime's stand-in for the EventBridge bus of the change feed: an in-process bus that
// keeps what was published (tests read it, and so can a REPL), prints one readable line per change
// and, given a file, appends each event to it as a JSON line (`tail -f .local/feed.jsonl` from
// another terminal). Installed at start-up by the local runtime (lib/stream/publisher.ts).
import { randomUUID } from 'node:crypto';
import { appendFileSync, mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import { FeedPublishError, installPublisher, type FeedDetail, type FeedMessage, type FeedPublisher } from '#lib/stream/publisher.js';

/** One published event, as an EventBridge rule target would receive it (trimmed to what we set). */
export interface LocalBusEvent {
  id: string;
  time: string;
  'event-bus-name': string;
  source: string;
  'detail-type': string;
  detail: FeedDetail;
}

export interface LocalBusOptions {
  /** One readable line per event; default none. */
  log?: (line: string) => void;
  /** A file to append each event to as a JSON line. */
  file?: string;
  /** How many events are kept in memory, default 10,000 (the oldest go first). */
  keep?: number;
}

/** `12:03:04 feed event.created event 12 (en) rev 1 change 3bb0cf37…`, at the time it was published. */
export function feedLine(e: LocalBusEvent, now = new Date()): string {
  const d = e.detail;
  return `${now.toTimeString().slice(0, 8)} feed ${e['detail-type']} ${d.kind} ${d.id} (${d.lang}) rev ${d.revision} change ${d.changeId}`;
}

export class LocalBus implements FeedPublisher {
  readonly busName = 'local';
  private published: LocalBusEvent[] = [];
  private failures: Error[] = [];
  private opts: LocalBusOptions = {};

  configure(opts: LocalBusOptions): this {
    this.opts = { ...opts };
    if (opts.file) mkdirSync(dirname(opts.file), { recursive: true });
    return this;
  }

  /** Everything published, oldest first. */
  get events(): readonly LocalBusEvent[] {
    return this.published;
  }

  /** The next `count` publishes fail (as a PutEvents with FailedEntryCount would). */
  failNext(count = 1): void {
    for (let i = 0; i < count; i++) this.failures.push(new FeedPublishError([{ detailType: '*', code: 'InternalFailure', message: 'failure injected by the local bus' }]));
  }

  clear(): void {
    this.published = [];
    this.failures = [];
  }

  async publish(messages: readonly FeedMessage[]): Promise<string[]> {
    const failure = this.failures.shift();
    if (failure) throw failure;
    const ids: string[] = [];
    for (const m of messages) {
      const event: LocalBusEvent = {
        id: randomUUID(),
        time: m.detail.at,
        'event-bus-name': this.busName,
        source: m.source,
        'detail-type': m.detailType,
        detail: { ...m.detail },
      };
      this.published.push(event);
      ids.push(event.id);
      this.opts.log?.(feedLine(event));
      if (this.opts.file) appendFileSync(this.opts.file, `${JSON.stringify(event)}\n`);
    }
    const keep = this.opts.keep ?? 10_000;
    if (this.published.length > keep) this.published.splice(0, this.published.length - keep);
    return ids;
  }
}

/** The process's local bus. */
export const localBus = new LocalBus();

/**
 * Sends the change feed to the local bus when CHANGE_BUS_NAME is unset or `local`, and returns
 * it; any other name is a real bus, published to with EventBridge (returns undefined).
 */
export function installLocalBus(opts: LocalBusOptions = {}): LocalBus | undefined {
  const name = process.env.CHANGE_BUS_NAME;
  if (name && name !== 'local') {
    installPublisher(undefined);
    return undefined;
  }
  installPublisher(localBus.configure(opts));
  return localBus;
}
