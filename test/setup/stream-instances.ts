// The DynamoDB Locals of the test files whose table has a stream, handed out by the global setup
// over loopback HTTP. DynamoDB Local keeps every stream record it was given, deleted tables' too,
// and each request to a table with a stream reads over them, so one instance slows with every
// file that writes to a stream. Each instance here serves a few such files, then the next one
// does and the old one stops once its last file is done: no file meets more than a few files'
// records, and the run starts a JVM (and warms its compiler) only every few files, not per file.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { type DynamoLocal, startDynamoLocal } from '#lib/local/dynamo.js';

/** Files an instance serves before the next one takes over. */
const FILES_PER_INSTANCE = 4;

interface Instance {
  dynamo: DynamoLocal;
  /** Files given it so far, and those not yet done. */
  given: number;
  open: number;
}

/** The pool: `lease()` an endpoint for a file, `release(endpoint)` when the file ends. */
export class StreamInstances {
  private current: Instance | undefined;
  private next: Promise<Instance> | undefined;
  private readonly all = new Set<Instance>();
  /** Leases one after another: two at once must not both start the next instance. */
  private queue: Promise<unknown> = Promise.resolve();

  private async start(): Promise<Instance> {
    const instance = { dynamo: await startDynamoLocal({ wait: false, shortLived: true }), given: 0, open: 0 };
    this.all.add(instance);
    return instance;
  }

  lease(): Promise<string> {
    const leased = this.queue.then(() => this.take());
    this.queue = leased.catch(() => undefined);
    return leased;
  }

  /**
   * An instance that answers: `pending` (the one started ahead) or a new one. One that fails to come
   * up (a port taken between its choice and the JVM's bind, a start slowed past its timeout by a busy
   * machine) is stopped and replaced once; a second failure is the lease's.
   */
  private async answering(pending: Promise<Instance> | undefined): Promise<Instance> {
    let instance: Instance | undefined;
    try {
      instance = await (pending ?? this.start());
      await instance.dynamo.ready();
      return instance;
    } catch (err) {
      console.error(`A DynamoDB Local for tables with a stream did not start (${err instanceof Error ? err.message : String(err)}); starting another.`);
      if (instance) await this.stop(instance).catch(() => undefined);
      const again = await this.start();
      await again.dynamo.ready();
      return again;
    }
  }

  private async take(): Promise<string> {
    if (!this.current || this.current.given >= FILES_PER_INSTANCE) {
      const old = this.current;
      const pending = this.next;
      this.next = undefined;
      this.current = await this.answering(pending);
      if (old && old.open === 0) await this.stop(old);
    }
    const instance = this.current;
    instance.given++;
    instance.open++;
    // The next instance starts while this one serves its last file.
    if (instance.given === FILES_PER_INSTANCE && !this.next) {
      this.next = this.start();
      // A failed start is reported to the lease that waits for it, not as an unhandled rejection.
      this.next.catch(() => undefined);
    }
    await instance.dynamo.ready();
    return instance.dynamo.endpoint;
  }

  async release(endpoint: string): Promise<void> {
    const instance = [...this.all].find((i) => i.dynamo.endpoint === endpoint);
    if (!instance) return;
    instance.open = Math.max(0, instance.open - 1);
    if (instance !== this.current && instance.open === 0) await this.stop(instance);
  }

  private async stop(instance: Instance): Promise<void> {
    this.all.delete(instance);
    await instance.dynamo.stop();
  }

  async close(): Promise<void> {
    await this.next?.catch(() => undefined);
    await Promise.all([...this.all].map((i) => this.stop(i)));
  }
}

/** Serves the pool on 127.0.0.1: POST /lease answers `{ endpoint }`, POST /release takes one. */
export async function servePool(pool: StreamInstances): Promise<{ url: string; close(): Promise<void> }> {
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', async () => {
      try {
        if (req.method === 'POST' && req.url === '/lease') {
          // Leased before the head is written: a failed lease is answered 500 with its reason.
          const endpoint = await pool.lease();
          res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ endpoint }));
        } else if (req.method === 'POST' && req.url === '/release') {
          await pool.release(String(JSON.parse(Buffer.concat(chunks).toString('utf8')).endpoint));
          res.writeHead(204).end();
        } else res.writeHead(404).end();
      } catch (err) {
        if (!res.headersSent) res.writeHead(500, { 'content-type': 'text/plain' });
        res.end(err instanceof Error ? err.message : String(err));
      }
    });
  });
  await new Promise<void>((ok) => server.listen(0, '127.0.0.1', ok));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: async () => {
      await new Promise((ok) => server.close(ok));
      await pool.close();
    },
  };
}
