import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { ErrorBody } from '../contract/index.ts';
import { startFakeModel, type FakeModel } from './helpers/fakeModel.ts';
import { startServer, type TestServer } from './helpers/server.ts';

let fake: FakeModel;
let server: TestServer;

beforeAll(async () => {
  fake = await startFakeModel();
  server = await startServer(fake.env());
});
afterAll(async () => {
  await server?.close();
  await fake?.close();
});
beforeEach(() => fake.reset());

const post = (body: BodyInit, contentType?: string) =>
  server.api('/api/write', { method: 'POST', body, headers: contentType ? { 'content-type': contentType } : {} });

/** The error shape and nothing else: no stack, no file path, no 500. */
async function expectErrorShape(res: Response, status: number, error: string): Promise<ErrorBody> {
  expect(res.status).toBe(status);
  expect(res.headers.get('content-type')).toMatch(/^application\/json/);
  const text = await res.text();
  const body = JSON.parse(text) as Record<string, unknown>;
  expect(Object.keys(body).every((k) => ['error', 'message', 'issues'].includes(k))).toBe(true);
  expect(text).not.toMatch(/stack|\bat .+:\d+:\d+|node_modules|\/work\/|\.ts\b/);
  const parsed = ErrorBody.parse(body);
  expect(parsed.error).toBe(error);
  expect(parsed.message.length).toBeGreaterThan(10);
  return parsed;
}

describe('malformed requests to POST /api/write', () => {
  it('400 for malformed JSON', async () => {
    await expectErrorShape(await post('{"prompt": "unterminated', 'application/json'), 400, 'bad_request');
    await expectErrorShape(await post('', 'application/json'), 400, 'bad_request');
  });

  it('415 for a body that is not JSON (text/plain, form-encoded, no content type)', async () => {
    await expectErrorShape(await post('{"prompt":"hi"}', 'text/plain'), 415, 'unsupported_media_type');
    await expectErrorShape(await post('prompt=hi', 'application/x-www-form-urlencoded'), 415, 'unsupported_media_type');
    await expectErrorShape(await post(new Blob(['{"prompt":"hi"}'])), 415, 'unsupported_media_type');
  });

  it('422 naming an unknown field', async () => {
    const err = await expectErrorShape(
      await post(JSON.stringify({ prompt: 'hi', temperature: 2 }), 'application/json'),
      422,
      'invalid_request',
    );
    expect(err.issues).toEqual([{ path: 'temperature', message: expect.stringContaining('temperature') }]);
    expect(err.message).toContain('temperature');
  });

  it('422 for JSON that is not an object', async () => {
    const err = await expectErrorShape(await post('["prompt"]', 'application/json'), 422, 'invalid_request');
    expect(err.issues?.length).toBeGreaterThan(0);
  });

  it('413 for a body over 1 MiB', async () => {
    const body = JSON.stringify({ prompt: 'x'.repeat(1024 * 1024) });
    await expectErrorShape(await post(body, 'application/json'), 413, 'payload_too_large');
  });

  it('never reaches the model for any of these', async () => {
    await post('{', 'application/json');
    await post('prompt=hi', 'text/plain');
    await post(JSON.stringify({ prompt: 'hi', extra: 1 }), 'application/json');
    expect(fake.requests).toHaveLength(0);
  });

  it('the stream endpoint answers the same errors the same way', async () => {
    const s = (body: string, type: string) =>
      server.api('/api/write/stream', { method: 'POST', body, headers: { 'content-type': type } });
    await expectErrorShape(await s('{', 'application/json'), 400, 'bad_request');
    await expectErrorShape(await s('{"prompt":"hi"}', 'text/plain'), 415, 'unsupported_media_type');
    await expectErrorShape(await s('{"prompt":"hi","x":1}', 'application/json'), 422, 'invalid_request');
  });
});
