// Where webhooks may go: the address checks (every spelling of a private, loopback, link-local,
// shared, unique-local, multicast, unspecified or metadata address is refused, however it is
// written or embedded), the URL rules with and without the local runtime's exception, and the
// connection-time lookup that refuses a name once it resolves to such an address (DNS rebinding).
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { ipv4Bytes, refusalOf } from '#lib/domain/public-address.js';
import { guardedLookup, targetError } from '#lib/logic/webhook-targets.js';
import { loadConfig, resetConfig } from '#lib/runtime/config.js';
import { post } from '#lib/stream/webhook-sender.js';

const aws = { ...loadConfig(), webhookLocalTargets: false };
const local = { ...aws, webhookLocalTargets: true };

describe('refusalOf', () => {
  it.each([
    ['127.0.0.1', 'loopback'],
    ['127.255.0.9', 'loopback'],
    ['2130706433', 'loopback'],
    ['0x7f000001', 'loopback'],
    ['0177.0.0.1', 'loopback'],
    ['127.1', 'loopback'],
    ['0.0.0.0', 'unspecified'],
    ['0', 'unspecified'],
    ['10.0.0.1', 'private'],
    ['172.16.5.4', 'private'],
    ['172.31.255.255', 'private'],
    ['192.168.1.1', 'private'],
    ['100.64.0.1', 'shared'],
    ['100.127.255.254', 'shared'],
    ['169.254.169.254', 'metadata'],
    ['0xa9fea9fe', 'metadata'],
    ['2852039166', 'metadata'],
    ['169.254.1.1', 'link-local'],
    ['224.0.0.1', 'multicast'],
    ['239.255.255.250', 'multicast'],
    ['240.0.0.1', 'reserved'],
    ['255.255.255.255', 'reserved'],
    ['198.18.0.1', 'reserved'],
    ['::', 'unspecified'],
    ['::1', 'loopback'],
    ['[::1]', 'loopback'],
    ['0:0:0:0:0:0:0:1', 'loopback'],
    ['::ffff:127.0.0.1', 'loopback'],
    ['::ffff:7f00:1', 'loopback'],
    ['[::ffff:a9fe:a9fe]', 'metadata'],
    ['::ffff:10.1.2.3', 'private'],
    ['::10.1.2.3', 'private'],
    ['64:ff9b::a9fe:a9fe', 'metadata'],
    ['2002:c0a8:0101::1', 'private'],
    ['fd00:ec2::254', 'metadata'],
    ['fd12:3456::1', 'unique-local'],
    ['fc00::1', 'unique-local'],
    ['fe80::1', 'link-local'],
    ['fe80::1%eth0', 'link-local'],
    ['ff02::1', 'multicast'],
    ['2001:db8::1', 'reserved'],
  ])('refuses %s (%s)', (address, why) => {
    expect(refusalOf(address)).toBe(why);
  });

  it.each([
    '8.8.8.8',
    '1.1.1.1',
    '93.184.216.34',
    '172.32.0.1',
    '100.128.0.1',
    '169.255.0.1',
    '2606:4700:4700::1111',
    '2a00:1450:4001::200e',
    '::ffff:8.8.8.8',
    '64:ff9b::808:808',
  ])('lets the public address %s through', (address) => {
    expect(refusalOf(address)).toBeUndefined();
  });

  it('reads IPv4 as inet_aton does, and refuses to guess at anything else', () => {
    expect(ipv4Bytes('1.2.3.4')).toEqual([1, 2, 3, 4]);
    expect(ipv4Bytes('1.0x10.0300')).toEqual([1, 16, 0, 192]);
    expect(ipv4Bytes('4294967295')).toEqual([255, 255, 255, 255]);
    expect(ipv4Bytes('4294967296')).toBeUndefined();
    expect(ipv4Bytes('1.2.3.256')).toBeUndefined();
    expect(ipv4Bytes('08.1.1.1')).toBeUndefined();
    expect(() => refusalOf('example.com')).toThrow(/not an IP address/);
  });
});

describe('targetError', () => {
  it('takes https URLs to public addresses only on AWS', async () => {
    expect(await targetError('https://8.8.8.8/hook', aws)).toBeUndefined();
    expect(await targetError('https://[2606:4700:4700::1111]/hook', aws)).toBeUndefined();
    expect(await targetError('http://8.8.8.8/hook', aws)).toBe('must be an https URL');
    expect(await targetError('https://127.0.0.1/hook', aws)).toContain('loopback');
    expect(await targetError('http://127.0.0.1:3000/hook', aws)).toBe('must be an https URL');
    expect(await targetError('https://localhost/hook', aws)).toContain('localhost');
    expect(await targetError('https://api.localhost/hook', aws)).toContain('localhost');
    expect(await targetError('https://2130706433/', aws)).toContain('loopback');
    expect(await targetError('https://0x7f.1/', aws)).toContain('loopback');
    expect(await targetError('https://[::ffff:169.254.169.254]/', aws)).toContain('metadata');
    expect(await targetError('https://[fd00:ec2::254]/', aws)).toContain('metadata');
    expect(await targetError('https://u:p@8.8.8.8/', aws)).toBe('must not carry credentials');
    expect(await targetError(`https://8.8.8.8/${'a'.repeat(2000)}`, aws)).toContain('at most');
    expect(await targetError('https://no-such-host.invalid/', aws)).toContain('could not be resolved');
  });

  it('lets the local runtime send to its own loopback addresses, over http too, and nowhere else private', async () => {
    expect(await targetError('http://127.0.0.1:3000/hook', local)).toBeUndefined();
    expect(await targetError('http://[::1]:3000/hook', local)).toBeUndefined();
    expect(await targetError('http://localhost:3000/hook', local)).toBeUndefined();
    expect(await targetError('http://10.0.0.1/hook', local)).toContain('https');
    expect(await targetError('https://10.0.0.1/hook', local)).toContain('private');
    expect(await targetError('https://169.254.169.254/', local)).toContain('metadata');
  });
});

describe('the connection-time lookup', () => {
  const lookup = (cfg: typeof aws, host: string) =>
    new Promise<{ err: Error | null; addresses: unknown }>((ok) => guardedLookup(cfg)(host, { all: true }, (err, addresses) => ok({ err, addresses })));

  it('refuses a name that resolves to a private address when connecting, and passes a public resolution on', async () => {
    const refused = await lookup(aws, 'localhost');
    expect(refused.err?.message).toMatch(/refused to connect: .* is a loopback address/);
    const allowed = await lookup(local, 'localhost');
    expect(allowed.err).toBeNull();
    expect(allowed.addresses).toEqual(expect.arrayContaining([expect.objectContaining({ address: expect.stringMatching(/^(127\.0\.0\.1|::1)$/) })]));
  });

  afterEach(() => {
    delete process.env.WEBHOOK_LOCAL_TARGETS;
    resetConfig();
  });

  it('keeps a delivery from reaching this machine by name unless the local runtime allows it', async () => {
    let hits = 0;
    const server = createServer((_, res) => {
      hits++;
      res.writeHead(204).end();
    });
    await new Promise<void>((ok) => server.listen(0, '127.0.0.1', ok));
    const url = `http://localhost:${(server.address() as AddressInfo).port}/`;
    try {
      delete process.env.WEBHOOK_LOCAL_TARGETS;
      resetConfig();
      const refused = await post(url, {}, '{}', 2_000);
      expect(refused.status).toBeUndefined();
      expect(refused.error).toMatch(/refused to connect/);
      expect(hits).toBe(0);
      process.env.WEBHOOK_LOCAL_TARGETS = '1';
      resetConfig();
      const sent = await post(url, {}, '{}', 2_000);
      expect(sent.status).toBe(204);
      expect(hits).toBe(1);
    } finally {
      await new Promise<void>((ok) => server.close(() => ok()));
    }
  });
});
