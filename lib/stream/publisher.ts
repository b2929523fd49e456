// Where the change feed goes: an EventBridge bus (CHANGE_BUS_NAME) by default. The local runtime
// installs its in-process bus instead (lib/local/bus.ts, installed at start-up), so that
// production code never imports lib/local.
import { EventBridgeClient, PutEventsCommand, type PutEventsCommandOutput } from '@aws-sdk/client-eventbridge';
import type { Change } from './change.js';

/** The `source` of every feed event. */
export const FEED_SOURCE = 'event-calendar';

/** What a feed event's `detail` carries. `changeId` is the stream record's id: consumers dedupe on it. */
export type FeedDetail = Pick<Change, 'kind' | 'id' | 'lang' | 'action' | 'revision' | 'at'> & { changeId: string };

export interface FeedMessage {
  source: typeof FEED_SOURCE;
  /** `event.created`, `venue.trashed`, `tag.deleted`… */
  detailType: string;
  detail: FeedDetail;
}

export interface FeedPublisher {
  /** Publishes every message, or throws (nothing is known to be published then). Returns the bus's ids. */
  publish(messages: readonly FeedMessage[]): Promise<string[]>;
}

/** A PutEvents entry the bus refused (PutEvents answers 200 with per-entry errors). */
export class FeedPublishError extends Error {
  constructor(readonly failed: { detailType: string; code?: string; message?: string }[]) {
    super(`EventBridge refused ${failed.length} event(s): ${failed.map((f) => `${f.detailType} ${f.code ?? '?'} ${f.message ?? ''}`.trim()).join('; ')}`);
    this.name = 'FeedPublishError';
  }
}

/** The part of the EventBridge client used here (a test hands in its own). */
export interface PutEventsClient {
  send(command: PutEventsCommand): Promise<Pick<PutEventsCommandOutput, 'FailedEntryCount' | 'Entries'>>;
}

export class EventBridgePublisher implements FeedPublisher {
  constructor(
    readonly busName: string,
    private readonly client: PutEventsClient = new EventBridgeClient({ region: process.env.AWS_REGION || 'us-east-1' }),
  ) {}

  async publish(messages: readonly FeedMessage[]): Promise<string[]> {
    if (messages.length === 0) return [];
    const out = await this.client.send(
      new PutEventsCommand({
        Entries: messages.map((m) => ({
          EventBusName: this.busName,
          Source: m.source,
          DetailType: m.detailType,
          Detail: JSON.stringify(m.detail),
          Time: new Date(m.detail.at),
        })),
      }),
    );
    const entries = out.Entries ?? [];
    if ((out.FailedEntryCount ?? 0) > 0 || entries.length !== messages.length || entries.some((e) => e.ErrorCode)) {
      const failed = messages
        .map((m, i) => ({ detailType: m.detailType, code: entries[i]?.ErrorCode, message: entries[i]?.ErrorMessage }))
        .filter((_, i) => !entries[i] || entries[i]!.ErrorCode || !entries[i]!.EventId);
      throw new FeedPublishError(failed.length ? failed : messages.map((m) => ({ detailType: m.detailType, code: 'Unknown' })));
    }
    return entries.map((e) => e.EventId!);
  }
}

let installed: FeedPublisher | undefined;
let fromEnvironment: EventBridgePublisher | undefined;

/** Replaces the publisher for this process (the local runtime's bus); undefined restores EventBridge. */
export function installPublisher(publisher: FeedPublisher | undefined): void {
  installed = publisher;
}

/** The installed publisher, else EventBridge on CHANGE_BUS_NAME (made once per process). */
export function feedPublisher(): FeedPublisher {
  if (installed) return installed;
  const busName = process.env.CHANGE_BUS_NAME;
  // A missing bus fails the record (retried, then dead-lettered) instead of dropping changes.
  if (!busName) throw new Error('CHANGE_BUS_NAME is not set: there is no bus to publish changes to.');
  if (fromEnvironment?.busName !== busName) fromEnvironment = new EventBridgePublisher(busName);
  return fromEnvironment;
}
