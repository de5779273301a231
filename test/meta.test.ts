import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type TestServer } from './helpers/server.ts';
import { loadConfig } from '../server/config.ts';

let server: TestServer;
beforeAll(async () => {
  server = await startServer();
});
afterAll(() => server.close());

describe('OpenAPI document', () => {
  it('is OpenAPI 3.0.1, version 1.0.0, with the X-API-Key scheme and the three operations', async () => {
    const doc = await (await fetch(`${server.url}/api/openapi.json`)).json();
    expect(doc.openapi).toBe('3.0.1');
    expect(doc.info.version).toBe('1.0.0');
    expect(doc.info.title).toMatch(/browser automation, web scraping and workflow automation/);
    expect(doc.components.securitySchemes.ApiKeyAuth).toEqual({ type: 'apiKey', in: 'header', name: 'X-API-Key' });
    expect(doc.paths['/write'].post.requestBody.content['application/json'].schema.required).toEqual(['prompt']);
    expect(doc.paths['/write'].post.responses['200'].content['application/json'].schema.properties).toHaveProperty(
      'word_count',
    );
  });
});

describe('configuration', () => {
  it('names the bad variable in one line', () => {
    expect(() => loadConfig({ PORT: 'eighty' })).toThrow(/^Invalid environment variable PORT: /);
    expect(() => loadConfig({ WRITER_PROVIDER: 'gpt' })).toThrow(/^Invalid environment variable WRITER_PROVIDER: /);
  });
  it('reads the model from MODEL_*, and from the older WRITER_* names where a MODEL_* one is unset', () => {
    const older = loadConfig({ WRITER_PROVIDER: 'openai', WRITER_MODEL: 'gpt-x', WRITER_TIMEOUT_MS: '5000' });
    expect([older.MODEL_PROVIDER, older.MODEL_NAME, older.MODEL_TIMEOUT_MS]).toEqual(['openai', 'gpt-x', 5000]);
    const both = loadConfig({ MODEL_NAME: 'new', WRITER_MODEL: 'old', WRITER_MAX_RETRIES: '5' });
    expect([both.MODEL_NAME, both.MODEL_MAX_RETRIES]).toEqual(['new', 5]);
    // A bad value is named as it was set.
    expect(() => loadConfig({ MODEL_PROVIDER: 'gpt' })).toThrow(/^Invalid environment variable MODEL_PROVIDER: /);
  });
  it('has the documented defaults', () => {
    const c = loadConfig({});
    expect([c.PORT, c.HOST, c.DATA_DIR, c.WARM_POOL_SIZE]).toEqual([8080, '127.0.0.1', './data', 1]);
  });
});

describe('malformed requests', () => {
  it('answers unknown routes with 404 in the error shape', async () => {
    const res = await server.api('/api/nope');
    expect(res.status).toBe(404);
    expect(await res.json()).toMatchObject({ error: 'not_found' });
  });
});
