import fs from 'node:fs';
import path from 'node:path';
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { postJson, startServer, type TestServer } from './helpers/server.ts';
import { formWorkflow } from './fixtures/flows.ts';

// Every bad run_workflow input: its status, a message naming the field, and nothing started.
let server: TestServer;
let workflowId: string;
beforeAll(async () => {
  server = await startServer({ MAX_FILES: '2', MAX_FILE_BYTES: '1000', WEBHOOK_ALLOW_PRIVATE: '0' });
  const res = await postJson(server, '/api/workflows', formWorkflow());
  workflowId = (await res.json()).id;
});
afterAll(() => server.close());

function form(
  fields: Record<string, string>,
  files: { name: string; bytes: Buffer | string; field?: string }[] = [],
): FormData {
  const fd = new FormData();
  for (const [k, v] of Object.entries(fields)) fd.append(k, v);
  for (const f of files)
    fd.append(f.field ?? 'files', new Blob([typeof f.bytes === 'string' ? f.bytes : new Uint8Array(f.bytes)]), f.name);
  return fd;
}

const good = () => ({
  workflow_id: workflowId,
  variables: JSON.stringify({ site: 'http://127.0.0.1:9', name: 'Ada' }),
});
const report = { name: 'report.txt', bytes: 'hello' };

async function expectRefused(body: FormData | string, status: number, path?: string, contentType?: string) {
  const res = await server.api('/api/run_workflow', {
    method: 'POST',
    body,
    ...(contentType ? { headers: { 'content-type': contentType } } : {}),
  });
  const json = await res.json();
  expect(res.status, JSON.stringify(json)).toBe(status);
  expect(json.error).toEqual(expect.any(String));
  expect(json.message).toEqual(expect.any(String));
  if (path) expect(json.issues.map((i: { path: string }) => i.path)).toContain(path);
  // Nothing started: no run recorded, no upload folder left behind.
  expect(await server.app.db.get('SELECT count(*) AS n FROM runs')).toEqual({ n: 0 });
  const sessions = await (await server.api('/api/sessions')).json();
  expect(sessions.items).toEqual([]);
  const dir = `${server.dataDir}/runs`;
  expect(fs.existsSync(dir) ? fs.readdirSync(dir) : []).toEqual([]);
  return json;
}

describe('POST /api/run_workflow refuses bad input before starting anything', () => {
  it('needs the key', async () => {
    expect(
      (await fetch(`${server.url}/api/run_workflow`, { method: 'POST', body: form(good(), [report]) })).status,
    ).toBe(401);
  });

  it('workflow_id missing or not a UUID: 422', async () => {
    await expectRefused(form({ variables: '{}' }), 422, 'workflow_id');
    const json = await expectRefused(form({ ...good(), workflow_id: 'nope' }, [report]), 422, 'workflow_id');
    expect(json.message).toContain('workflow_id must be the id of a saved workflow, a UUID such as');
  });

  it('unknown workflow: 404 naming workflow_id', async () => {
    const json = await expectRefused(form({ ...good(), workflow_id: randomUUID() }, [report]), 404, 'workflow_id');
    expect(json.error).toBe('not_found');
  });

  it('metadata over 50,000 characters or holding NUL, variables not JSON or not an object: 422', async () => {
    // Metadata is any string (Simplex's clients send ids like "req-789"): only its length and NUL are refused.
    await expectRefused(form({ ...good(), metadata: 'x'.repeat(50_001) }, [report]), 422, 'metadata');
    await expectRefused(form({ ...good(), metadata: 'a\u0000b' }, [report]), 422, 'metadata');
    await expectRefused(form({ ...good(), variables: 'not json' }, [report]), 422, 'variables');
    const json = await expectRefused(form({ ...good(), variables: '[1,2]' }, [report]), 422, 'variables');
    expect(json.message).toContain('JSON object');
  });

  it('a variable missing, of the wrong type or undeclared: 422 naming it', async () => {
    await expectRefused(
      form({ ...good(), variables: JSON.stringify({ site: 'http://x' }) }, [report]),
      422,
      'variables.name',
    );
    const json = await expectRefused(
      form({ ...good(), variables: JSON.stringify({ site: 'http://x', name: 42 }) }, [report]),
      422,
      'variables.name',
    );
    expect(json.message).toContain('name must be a string, got number');
    await expectRefused(
      form({ ...good(), variables: JSON.stringify({ site: 'http://x', name: 'A', shoe: 1 }) }, [report]),
      422,
      'variables.shoe',
    );
  });

  it('a file the flow uploads is missing: 422 naming files and the step', async () => {
    const json = await expectRefused(form(good(), [{ name: 'other.txt', bytes: 'x' }]), 422, 'files');
    expect(json.message).toContain('step 6 (uploadFile) needs a file named report.txt');
  });

  it('webhook_url not a URL, or private without WEBHOOK_ALLOW_PRIVATE: 422', async () => {
    await expectRefused(form({ ...good(), webhook_url: 'not a url' }, [report]), 422, 'webhook_url');
    const json = await expectRefused(
      form({ ...good(), webhook_url: 'http://127.0.0.1:9/hook' }, [report]),
      422,
      'webhook_url',
    );
    expect(json.message).toContain('private, loopback or link-local');
  });

  it('heal neither true nor false (a JSON boolean, or the text in any encoding): 422', async () => {
    await expectRefused(form({ ...good(), heal: 'yes' }, [report]), 422, 'heal');
    const json = await expectRefused(JSON.stringify({ ...good(), heal: 1 }), 422, 'heal', 'application/json');
    expect(json.message).toContain('heal must be true or false');
  });

  it('unknown fields and files under another name: 422', async () => {
    await expectRefused(form({ ...good(), colour: 'red' }, [report]), 422, 'colour');
    await expectRefused(form(good(), [{ ...report, field: 'attachment' }]), 422, 'attachment');
  });

  it('not multipart: 415', async () => {
    await expectRefused(JSON.stringify(good()), 415, undefined, 'text/plain');
  });

  it('more than MAX_FILES files: 413', async () => {
    const json = await expectRefused(form(good(), [report, { name: 'b', bytes: 'b' }, { name: 'c', bytes: 'c' }]), 413);
    expect(json).toMatchObject({ error: 'payload_too_large', message: expect.stringContaining('MAX_FILES') });
  });

  it('a file over MAX_FILE_BYTES: 413, and the part already written is removed', async () => {
    const json = await expectRefused(
      form(good(), [report, { name: 'big.bin', bytes: Buffer.alloc(64 * 1024, 7) }]),
      413,
    );
    expect(json).toMatchObject({ error: 'payload_too_large', message: expect.stringContaining('MAX_FILE_BYTES') });
  });
});

describe('GET /api/run_workflow_status', () => {
  it('422 for a bad session_id, 404 for an unknown one', async () => {
    const bad = await server.api('/api/run_workflow_status?session_id=x');
    expect(bad.status).toBe(422);
    expect((await bad.json()).issues[0].path).toBe('session_id');
    expect((await server.api(`/api/run_workflow_status?session_id=${randomUUID()}`)).status).toBe(404);
    expect(path.isAbsolute(server.dataDir)).toBe(true);
  });
});
