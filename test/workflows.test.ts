import fs from 'node:fs';
import path from 'node:path';
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { postJson, startServer, type TestServer } from './helpers/server.ts';

let server: TestServer;
beforeAll(async () => {
  server = await startServer();
});
afterAll(() => server.close());

const recorderExport = JSON.parse(
  fs.readFileSync(path.join(import.meta.dirname, 'fixtures/recorder-export.json'), 'utf8'),
);

const formFlow = {
  title: 'Fill the form',
  steps: [
    { type: 'navigate', url: '{{site}}/form' },
    { type: 'change', selectors: [['#name']], value: '{{name}}' },
    { type: 'customStep', name: 'uploadFile', parameters: { selectors: [['#file']], file: 'report.txt' } },
    { type: 'customStep', name: 'extract', parameters: { selectors: [['#result-name']], as: 'shown' } },
  ],
};
const formVariables = [
  { name: 'site', type: 'string', required: true },
  { name: 'name', type: 'string', required: false, default: 'Ada' },
];

describe('workflow CRUD', () => {
  it('imports a Chrome Recorder export unchanged and reads it back', async () => {
    const res = await postJson(server, '/api/workflows', { name: 'recorded', flow: recorderExport });
    expect(res.status).toBe(201);
    const created = await res.json();
    expect(created.id).toMatch(/^[0-9a-f-]{36}$/);
    expect(created.flow).toEqual(recorderExport);
    expect(created.variables).toEqual([]);
    const got = await (await server.api(`/api/workflows/${created.id}`)).json();
    expect(got).toEqual(created);
  });

  it("keeps the flow's keys in the order they were sent, on create, update and read", async () => {
    // toEqual ignores key order; the text does not. The Recorder puts "type" first, the schema does not.
    const text = (flow: unknown) => JSON.stringify(flow, null, 2);
    const created = await (await postJson(server, '/api/workflows', { name: 'in order', flow: recorderExport })).json();
    expect(text(created.flow)).toBe(text(recorderExport));
    const reordered = {
      steps: [{ offsetY: 1, offsetX: 2, selectors: [['#b']], type: 'click', zz: true }],
      title: 'last',
    };
    const put = await server.api(`/api/workflows/${created.id}`, {
      method: 'PUT',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'in order', flow: reordered }),
    });
    expect(text((await put.json()).flow)).toBe(text(reordered));
    expect(text((await (await server.api(`/api/workflows/${created.id}`)).json()).flow)).toBe(text(reordered));
    await server.api(`/api/workflows/${created.id}`, { method: 'DELETE' });
  });

  it("gives a hand-written click the Recorder's offsets, after its own keys", async () => {
    const flow = {
      title: 'by hand',
      steps: [
        { type: 'click', selectors: [['#a']] },
        { type: 'doubleClick', selectors: [['#b']], offsetX: 7 },
        { type: 'click', selectors: [['#c']], offsetX: 3, offsetY: 4 },
      ],
    };
    const res = await postJson(server, '/api/workflows', { name: `clicks ${randomUUID()}`, flow });
    expect(res.status).toBe(201);
    const created = await res.json();
    const expected = {
      title: 'by hand',
      steps: [
        { type: 'click', selectors: [['#a']], offsetX: 1, offsetY: 1 },
        { type: 'doubleClick', selectors: [['#b']], offsetX: 7, offsetY: 1 },
        { type: 'click', selectors: [['#c']], offsetX: 3, offsetY: 4 },
      ],
    };
    expect(JSON.stringify(created.flow)).toBe(JSON.stringify(expected));
    const got = await (await server.api(`/api/workflows/${created.id}`)).json();
    expect(JSON.stringify(got.flow)).toBe(JSON.stringify(expected));
    await server.api(`/api/workflows/${created.id}`, { method: 'DELETE' });
  });

  it('creates, lists, updates and deletes', async () => {
    const created = await (
      await postJson(server, '/api/workflows', { name: 'form', flow: formFlow, variables: formVariables })
    ).json();
    // Answered with defaultValue beside default, for Simplex's CLI.
    expect(created.variables).toEqual([formVariables[0], { ...formVariables[1], defaultValue: 'Ada' }]);
    expect(created.flow.steps[2]).toEqual(formFlow.steps[2]);

    const list = await (await server.api('/api/workflows?limit=1')).json();
    expect(list.items).toHaveLength(1);
    expect(list.next_cursor).toEqual(expect.any(String));
    const rest = await (await server.api(`/api/workflows?limit=10&cursor=${list.next_cursor}`)).json();
    const names = [...list.items, ...rest.items].map((w: { name: string }) => w.name);
    expect(names.sort()).toEqual(['form', 'recorded']);

    const put = await server.api(`/api/workflows/${created.id}`, {
      method: 'PUT',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'form v2', flow: { title: 'empty', steps: [] } }),
    });
    expect(put.status).toBe(200);
    const updated = await put.json();
    expect(updated).toMatchObject({
      id: created.id,
      name: 'form v2',
      flow: { title: 'empty', steps: [] },
      variables: [],
    });
    expect(updated.created_at).toBe(created.created_at);

    expect((await server.api(`/api/workflows/${created.id}`, { method: 'DELETE' })).status).toBe(204);
    expect((await server.api(`/api/workflows/${created.id}`)).status).toBe(404);
    expect((await server.api(`/api/workflows/${created.id}`, { method: 'DELETE' })).status).toBe(404);
  });

  it('refuses a duplicate name with 409', async () => {
    await postJson(server, '/api/workflows', { name: 'twice', flow: { title: 't', steps: [] } });
    const res = await postJson(server, '/api/workflows', { name: 'twice', flow: { title: 't', steps: [] } });
    expect(res.status).toBe(409);
    expect(await res.json()).toMatchObject({ error: 'conflict', issues: [{ path: 'name' }] });
  });

  it('404s an unknown id and 422s a malformed one', async () => {
    expect((await server.api(`/api/workflows/${randomUUID()}`)).status).toBe(404);
    const res = await server.api('/api/workflows/not-a-uuid');
    expect(res.status).toBe(422);
    expect((await res.json()).issues[0].path).toBe('id');
  });
});

describe('workflow validation: 422 naming the step and field', () => {
  async function issuesFor(body: unknown) {
    const res = await postJson(server, '/api/workflows', body);
    expect(res.status).toBe(422);
    const json = await res.json();
    expect(json.error).toBe('invalid_request');
    return json.issues as { path: string; message: string }[];
  }
  const withStep = (step: unknown, variables: unknown[] = []) => ({
    name: `bad ${randomUUID()}`,
    flow: {
      title: 'bad',
      steps: [{ type: 'navigate', url: 'http://example.org' }, { type: 'close' }, { type: 'close' }, step],
    },
    variables,
  });

  it('an unknown step type', async () => {
    const issues = await issuesFor(withStep({ type: 'teleport', selectors: [['#a']] }));
    expect(issues).toEqual([{ path: 'flow.steps.3.type', message: expect.stringContaining('click') }]);
  });

  it('an unknown custom step', async () => {
    const issues = await issuesFor(withStep({ type: 'customStep', name: 'launchRocket', parameters: {} }));
    expect(issues[0]!.path).toBe('flow.steps.3.name');
  });

  it('a placeholder with no variable', async () => {
    const issues = await issuesFor(
      withStep({ type: 'change', selectors: ['#q'], value: 'hello {{who}}' }, [{ name: 'other', type: 'string' }]),
    );
    expect(issues).toEqual([{ path: 'flow.steps.3.value', message: expect.stringContaining('{{who}}') }]);
    expect(issues[0]!.message).toContain('step 4 (change)');
  });

  it('bad selectors', async () => {
    for (const selectors of [[], [[]], [''], 'div', [['#a', 3]], ['aria/']]) {
      const issues = await issuesFor(withStep({ type: 'click', selectors, offsetX: 1, offsetY: 1 }));
      expect(issues).toEqual([{ path: 'flow.steps.3.selectors', message: expect.stringContaining('selectors') }]);
    }
  });

  it('a timeout of more than a day, or none at all', async () => {
    for (const timeout of [86_400_001, 0, 1.5, '5000']) {
      const issues = await issuesFor(withStep({ type: 'waitForExpression', expression: 'true', timeout }));
      expect(issues).toEqual([{ path: 'flow.steps.3.timeout', message: expect.stringMatching(/^timeout must be /) }]);
    }
    const aDay = await postJson(
      server,
      '/api/workflows',
      withStep({ type: 'waitForExpression', expression: 'true', timeout: 86_400_000 }),
    );
    expect(aDay.status).toBe(201);
    // A flow saved before the cap, with a longer timeout, is still read as it was written.
    const { id } = (await aDay.json()) as { id: string };
    const stored = (await (await server.api(`/api/workflows/${id}`)).json()) as {
      flow: { steps: { timeout?: number }[] };
    };
    stored.flow.steps[3]!.timeout = 172_800_000;
    await server.app.db.run('UPDATE workflows SET flow = ? WHERE id = ?', [JSON.stringify(stored.flow), id]);
    const read = await server.api(`/api/workflows/${id}`);
    expect(read.status).toBe(200);
    expect(((await read.json()) as typeof stored).flow.steps[3]!.timeout).toBe(172_800_000);
  });

  it('bad custom step parameters and variables', async () => {
    const issues = await issuesFor(
      withStep({ type: 'customStep', name: 'extract', parameters: { selectors: [['#a']], as: '1bad' } }, [
        { name: 'n', type: 'number', default: 'seven' },
      ]),
    );
    expect(issues.map((i) => i.path).sort()).toEqual(['flow.steps.3.parameters.as', 'variables.0.default']);
  });

  it('nothing is saved after a 422', async () => {
    const before = (await (await server.api('/api/workflows?limit=100')).json()).items.length;
    await issuesFor(withStep({ type: 'teleport' }));
    const after = (await (await server.api('/api/workflows?limit=100')).json()).items.length;
    expect(after).toBe(before);
  });
});

// Last: it adds workflows that the exact lists above do not expect.
describe('workflows made by sessions', () => {
  it("lists a workflow a session's workflow_name made only once it is saved or given metadata", async () => {
    const listed = async () =>
      ((await (await server.api('/api/workflows?limit=100')).json()) as { items: { id: string }[] }).items.map(
        (w) => w.id,
      );
    const made = (await server.app.store.workflows.ensureByName(`by a session ${randomUUID()}`)).row;
    const other = (await server.app.store.workflows.ensureByName(`by a session ${randomUUID()}`)).row;
    const deliberate = await postJson(server, '/api/workflows', {
      name: `on purpose ${randomUUID()}`,
      flow: { title: 'empty on purpose', steps: [] },
      variables: [],
    });
    expect(deliberate.status).toBe(201);
    const deliberateId = ((await deliberate.json()) as { id: string }).id;
    let ids = await listed();
    expect(ids).toContain(deliberateId);
    expect(ids).not.toContain(made.id);
    expect(ids).not.toContain(other.id);

    const saved = await server.api(`/api/workflows/${made.id}`, {
      method: 'PUT',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ name: made.name, flow: formFlow, variables: formVariables }),
    });
    expect(saved.status).toBe(200);
    await server.app.store.workflows.setMetadata(other.id, 'adopted');
    ids = await listed();
    expect(ids).toContain(made.id);
    expect(ids).toContain(other.id);
  });
});
