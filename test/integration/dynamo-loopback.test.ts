// DynamoDB Local holds the development data without any credentials checked: it must not be
// reachable from other machines. This file starts one of its own and reads the kernel's socket
// tables for its listening port: the socket is bound to the loopback address only.
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startDynamoLocal, waitForDynamo, type DynamoLocal } from '#lib/local/dynamo.js';

let dynamo: DynamoLocal;

beforeAll(async () => {
  dynamo = await startDynamoLocal();
}, 120_000);

afterAll(async () => {
  await dynamo?.stop();
});

/** The local addresses (hex, as the kernel writes them) of the sockets listening on `port`. */
function listeningAddresses(port: number): string[] {
  const hexPort = port.toString(16).toUpperCase().padStart(4, '0');
  return ['/proc/net/tcp', '/proc/net/tcp6'].flatMap((file) =>
    readFileSync(file, 'utf8')
      .split('\n')
      .slice(1)
      .map((line) => line.trim().split(/\s+/))
      // Columns: sl, local_address (ADDR:PORT), rem_address, st (0A: LISTEN), ...
      .filter((cols) => cols[3] === '0A' && cols[1]?.endsWith(`:${hexPort}`))
      .map((cols) => cols[1]!.split(':')[0]!),
  );
}

/** 127.0.0.1 as /proc/net/tcp writes it, and as an IPv4-mapped address in /proc/net/tcp6. */
const LOOPBACK = new Set(['0100007F', '0000000000000000FFFF00000100007F']);

describe.runIf(process.platform === 'linux')('DynamoDB Local', () => {
  it('listens on the loopback address only', async () => {
    await waitForDynamo(dynamo.endpoint);
    const addresses = listeningAddresses(dynamo.port);
    expect(addresses.length).toBeGreaterThan(0);
    for (const address of addresses) expect(LOOPBACK.has(address), `listening on ${address}`).toBe(true);
  });
});
