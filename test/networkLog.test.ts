import { describe, expect, it } from 'vitest';
import { Har } from '../contract/har.ts';
import { harOf } from '../server/network/har.ts';
import { NetworkLog, type NetworkEntry } from '../server/network/networkLog.ts';
import { headerList, REDACTED } from '../server/network/observeNetwork.ts';
import { MAX_REQUEST_EVENTS, REQUEST_EVENTS_PER_SECOND, RequestEventGate } from '../server/network/requestEvents.ts';

/** The record's bounds, without a browser: the ring by bytes, the live log's rate, header redaction. */
const request = (url: string, body = ''): Omit<NetworkEntry, 'index'> => ({
  targetId: 'T1',
  method: 'GET',
  url,
  resourceType: 'Fetch',
  startedAt: Date.now(),
  requestHeaders: [],
  status: 200,
  statusText: 'OK',
  mimeType: 'text/plain',
  duration: 3,
  ...(body ? { responseBody: { text: body, size: body.length, truncated: false } } : {}),
});

describe('NetworkLog', () => {
  it('keeps the newest requests within its bytes, and their indexes', async () => {
    const log = new NetworkLog(64 * 1024);
    for (let i = 1; i <= 100; i++) log.add(request(`http://x/${i}`, 'b'.repeat(4096)));
    expect(log.dropped).toBeGreaterThan(80);
    expect(log.list().length + log.dropped).toBe(100);
    expect(log.byIndex(100)?.url).toBe('http://x/100');
    expect(log.byIndex(1)).toBeUndefined();
    expect(log.lastIndex).toBe(100);
    // What was dropped is said in the HAR, and what is kept still validates.
    const har = Har.parse(await harOf(log.list(), log.dropped, (s) => s));
    expect(har.log.comment).toMatch(/earlier requests are not here/);
  });
});

describe('RequestEventGate', () => {
  it('tells at most its rate a second and its total, and the next one told counts the rest', () => {
    let now = 0;
    const gate = new RequestEventGate(() => now);
    const told = Array.from({ length: 5000 }, (_, i) => gate.pass({ ...request(`http://x/${i}`), index: i + 1 }));
    expect(told.filter(Boolean)).toHaveLength(REQUEST_EVENTS_PER_SECOND);
    now += 1000;
    const next = gate.pass({ ...request('http://x/next'), index: 5001 });
    expect(next?.unlogged).toBe(5000 - REQUEST_EVENTS_PER_SECOND);
    let total = REQUEST_EVENTS_PER_SECOND + 1;
    for (let s = 0; s < 200; s++) {
      now += 1000;
      for (let i = 0; i < 50; i++) if (gate.pass({ ...request('http://x/y'), index: 1 })) total++;
    }
    expect(total).toBe(MAX_REQUEST_EVENTS);
  });

  it('cuts a long URL to 2000 characters', () => {
    const event = new RequestEventGate().pass({ ...request(`http://x/${'a'.repeat(5000)}`), index: 1 });
    expect(event?.url.length).toBe(2000);
  });
});

describe('headerList', () => {
  it('keeps credential headers by name only, one Set-Cookie line each', () => {
    const headers = headerList({
      Authorization: 'Bearer abc',
      cookie: 'a=b',
      'set-cookie': 'x=1\ny=2',
      'Proxy-Authorization': 'Basic zzz',
      accept: 'text/html',
    });
    expect(headers).toEqual([
      { name: 'Authorization', value: REDACTED },
      { name: 'cookie', value: REDACTED },
      { name: 'set-cookie', value: REDACTED },
      { name: 'set-cookie', value: REDACTED },
      { name: 'Proxy-Authorization', value: REDACTED },
      { name: 'accept', value: 'text/html' },
    ]);
  });
});
