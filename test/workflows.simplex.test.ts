import { randomUUID } from 'node:crypto';
import { SimplexClient } from 'simplex-ts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Flow } from '../contract/steps.ts';
import { credentialNamesOf } from '../contract/placeholders.ts';
import { fillPlaceholders } from '../server/runs/variables.ts';
import { postJson, startServer, type TestServer } from './helpers/server.ts';

/**
 * The workflow calls of Simplex's official clients, sent exactly as they send them: search as a
 * query, update_workflow_metadata urlencoded, the Python client's /workflow as JSON; and the
 * metadata, pause step and credential placeholders they bring to our own workflows.
 */

let server: TestServer;
beforeAll(async () => {
  server = await startServer();
});
afterAll(() => server.close());

const emptyFlow = { title: 't', steps: [] };
/** So that an update lands in a later millisecond than the create (updated_at must move). */
const tick = () => new Promise((resolve) => setTimeout(resolve, 5));
const uniq = (prefix: string) => `${prefix} ${randomUUID().slice(0, 8)}`;

async function create(name: string, extra: Record<string, unknown> = {}) {
  const res = await postJson(server, '/api/workflows', { name, flow: emptyFlow, ...extra });
  expect(res.status).toBe(201);
  return (await res.json()) as {
    id: string;
    name: string;
    metadata: string | null;
    updated_at: string;
    structured_output: unknown;
  };
}

const search = async (params: Record<string, string>) => {
  const res = await server.api(`/api/search_workflows?${new URLSearchParams(params)}`);
  expect(res.status).toBe(200);
  return (await res.json()) as {
    succeeded: boolean;
    workflows: { workflow_id: string; workflow_name: string; variables: unknown; metadata: string | null }[];
    count: number;
  };
};

const form = (pathname: string, fields: Record<string, string>) =>
  server.api(pathname, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams(fields).toString(),
  });

const jsonCall = (method: string, pathname: string, body: unknown) =>
  server.api(pathname, { method, headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });

async function expect422(res: Response) {
  expect(res.status).toBe(422);
  const json = await res.json();
  expect(json.error).toBe('invalid_request');
  return json.issues as { path: string; message: string }[];
}

describe('workflow metadata', () => {
  it('round-trips through create, get, list and is kept by a PUT without it', async () => {
    const meta = 'customer=ACME; {not json} ✓ 𝄞';
    const created = await create(uniq('meta'), { metadata: meta });
    expect(created.metadata).toBe(meta);
    expect(created.structured_output).toBeNull();
    const got = await (await server.api(`/api/workflows/${created.id}`)).json();
    expect(got.metadata).toBe(meta);

    const put = await jsonCall('PUT', `/api/workflows/${created.id}`, { name: created.name, flow: emptyFlow });
    expect(put.status).toBe(200);
    expect((await put.json()).metadata).toBe(meta);

    const cleared = await jsonCall('PUT', `/api/workflows/${created.id}`, {
      name: created.name,
      flow: emptyFlow,
      metadata: '',
    });
    expect((await cleared.json()).metadata).toBeNull();
    expect((await create(uniq('none'))).metadata).toBeNull();
  });

  it('refuses metadata over 10,000 characters, counting code points, and lone surrogates', async () => {
    expect((await create(uniq('long'), { metadata: '𝄞'.repeat(10_000) })).metadata).toHaveLength(20_000);
    const issues = await expect422(
      await postJson(server, '/api/workflows', { name: uniq('x'), flow: emptyFlow, metadata: 'a'.repeat(10_001) }),
    );
    expect(issues).toEqual([{ path: 'metadata', message: expect.stringContaining('10000') }]);
    const lone = await expect422(
      await postJson(server, '/api/workflows', { name: uniq('x'), flow: emptyFlow, metadata: 'a\ud800' }),
    );
    expect(lone[0]!.path).toBe('metadata');
  });
});

describe('GET /search_workflows', () => {
  const tag = randomUUID();
  let ids: Record<string, string>;
  beforeAll(async () => {
    ids = {};
    // Created in this order: newest last, so it comes first.
    for (const [key, name, metadata] of [
      ['alpha', `Invoice Run ${tag}`, 'team-a'],
      ['beta', `invoice export ${tag}`, 'team-b'],
      ['gamma', `Straße ÉTÉ ${tag}`, 'team-a'],
      ['pct', `100% done_ok ${tag}`, 'team-b'],
      ['plain', `100x doneXok ${tag}`, `${tag}-plain`],
      ['slash', `back\\slash ${tag}`, null],
    ] as const) {
      ids[key] = (await create(name, metadata === null ? {} : { metadata })).id;
    }
  });
  const idsOf = (r: Awaited<ReturnType<typeof search>>) => r.workflows.map((w) => w.workflow_id);

  it('matches part of the name in any case, newest first, with the Simplex shape', async () => {
    const r = await search({ workflow_name: `INVOICE` });
    const mine = r.workflows.filter((w) => w.workflow_name.endsWith(tag));
    expect(mine.map((w) => w.workflow_id)).toEqual([ids.beta, ids.alpha]);
    expect(r).toMatchObject({ succeeded: true, count: r.workflows.length });
    expect(mine[0]).toEqual({
      workflow_id: ids.beta,
      workflow_name: `invoice export ${tag}`,
      variables: [],
      metadata: 'team-b',
    });
  });

  it('folds case beyond ASCII', async () => {
    expect(idsOf(await search({ workflow_name: `strasse été ${tag}` }))).toEqual([ids.gamma]);
    expect(idsOf(await search({ workflow_name: `STRASSE` })).filter((id) => id === ids.gamma)).toEqual([ids.gamma]);
  });

  it('treats %, _ and \\ as plain characters', async () => {
    expect(idsOf(await search({ workflow_name: `100% done_ok ${tag}` }))).toEqual([ids.pct]);
    expect(idsOf(await search({ workflow_name: `% done_` })).filter((id) => Object.values(ids).includes(id))).toEqual([
      ids.pct,
    ]);
    expect(idsOf(await search({ workflow_name: `back\\slash ${tag}` }))).toEqual([ids.slash]);
    expect(idsOf(await search({ workflow_name: `k\\s` }))).toEqual([ids.slash]);
  });

  it('matches metadata exactly, and both filters together', async () => {
    expect(idsOf(await search({ metadata: `${tag}-plain` }))).toEqual([ids.plain]);
    expect(idsOf(await search({ metadata: `${tag}-PLAIN` }))).toEqual([]);
    expect(idsOf(await search({ metadata: tag }))).toEqual([]);
    const teamA = idsOf(await search({ metadata: 'team-a', workflow_name: tag }));
    expect(teamA).toEqual([ids.gamma, ids.alpha]);
    expect(idsOf(await search({ metadata: 'team-b', workflow_name: `invoice ${tag}` }))).toEqual([]);
    expect(
      idsOf(await search({ metadata: 'team-b', workflow_name: `invoice` })).filter((id) =>
        Object.values(ids).includes(id),
      ),
    ).toEqual([ids.beta]);
  });

  it('lists everything when both are omitted or empty', async () => {
    const all = await search({});
    expect(all.count).toBe(all.workflows.length);
    expect(idsOf(all).filter((id) => Object.values(ids).includes(id))).toEqual([
      ids.slash,
      ids.plain,
      ids.pct,
      ids.gamma,
      ids.beta,
      ids.alpha,
    ]);
    expect(idsOf(await search({ workflow_name: '', metadata: '' }))).toEqual(idsOf(all));
  });

  it('answers 401 without the key and 422 for a name too long', async () => {
    expect((await fetch(`${server.url}/api/search_workflows`)).status).toBe(401);
    const issues = await expect422(await server.api(`/api/search_workflows?workflow_name=${'a'.repeat(201)}`));
    expect(issues[0]!.path).toBe('workflow_name');
  });
});

describe('POST /update_workflow_metadata', () => {
  it('sets metadata from a urlencoded form, moves updated_at, and is searchable', async () => {
    const w = await create(uniq('form meta'));
    await tick();
    const meta = `{"owner": "ops", "n": ${Date.now()}}`;
    const res = await form('/api/update_workflow_metadata', { workflow_id: w.id, metadata: meta });
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({
      succeeded: true,
      message: expect.any(String),
      workflow_id: w.id,
      metadata: meta,
    });
    const got = await (await server.api(`/api/workflows/${w.id}`)).json();
    expect(got.metadata).toBe(meta);
    expect(got.updated_at > w.updated_at).toBe(true);
    expect((await search({ metadata: meta })).workflows.map((x) => x.workflow_id)).toEqual([w.id]);
  });

  it('takes JSON too, and "" or null clears', async () => {
    const w = await create(uniq('json meta'), { metadata: 'before' });
    const set = await postJson(server, '/api/update_workflow_metadata', { workflow_id: w.id, metadata: 'after' });
    expect(await set.json()).toMatchObject({ succeeded: true, workflow_id: w.id, metadata: 'after' });
    const cleared = await form('/api/update_workflow_metadata', { workflow_id: w.id, metadata: '' });
    expect(await cleared.json()).toMatchObject({ succeeded: true, metadata: null });
    await postJson(server, '/api/update_workflow_metadata', { workflow_id: w.id, metadata: 'again' });
    const nulled = await postJson(server, '/api/update_workflow_metadata', { workflow_id: w.id, metadata: null });
    expect(await nulled.json()).toMatchObject({ metadata: null });
  });

  it('404s an unknown workflow, 422s bad fields, 415s other encodings', async () => {
    const missing = await form('/api/update_workflow_metadata', { workflow_id: randomUUID(), metadata: 'x' });
    expect(missing.status).toBe(404);
    expect(
      (await expect422(await form('/api/update_workflow_metadata', { workflow_id: 'nope', metadata: 'x' })))[0]!.path,
    ).toBe('workflow_id');
    const w = await create(uniq('bad meta'));
    expect((await expect422(await form('/api/update_workflow_metadata', { workflow_id: w.id })))[0]!.path).toBe(
      'metadata',
    );
    expect(
      (
        await expect422(
          await form('/api/update_workflow_metadata', { workflow_id: w.id, metadata: 'a'.repeat(10_001) }),
        )
      )[0]!.path,
    ).toBe('metadata');
    const extra = await expect422(
      await form('/api/update_workflow_metadata', { workflow_id: w.id, metadata: 'x', colour: 'red' }),
    );
    expect(extra[0]!.path).toBe('colour');
    const text = await server.api('/api/update_workflow_metadata', {
      method: 'POST',
      headers: { 'content-type': 'text/plain' },
      body: 'x',
    });
    expect(text.status).toBe(415);
  });
});

describe("simplex-ts's own workflow calls", () => {
  const client = () => new SimplexClient({ apiKey: server.apiKey, baseURL: `${server.url}/api`, maxRetries: 0 });

  it('workflows.updateMetadata and workflows.search', async () => {
    const name = uniq('SDK Workflow');
    const w = await create(name);
    const meta = `sdk-${randomUUID()}`;
    const updated = await client().workflows.updateMetadata(w.id, meta);
    expect(updated).toEqual({ succeeded: true, message: expect.any(String), workflow_id: w.id, metadata: meta });

    const byMeta = await client().workflows.search({ metadata: meta });
    expect(byMeta).toEqual({
      succeeded: true,
      count: 1,
      workflows: [{ workflow_id: w.id, workflow_name: name, variables: [], metadata: meta }],
    });
    const byName = await client().workflows.search({ workflowName: name.slice(4).toUpperCase() });
    expect(byName.workflows.map((x) => x.workflow_id)).toEqual([w.id]);
    const both = await client().workflows.search({ workflowName: 'sdk workflow', metadata: meta });
    expect(both.count).toBe(1);
  });

  it('updateMetadata of an unknown workflow fails', async () => {
    await expect(client().workflows.updateMetadata(randomUUID(), 'x')).rejects.toThrow(/not found/i);
  });
});

describe("the Python client's /workflow calls", () => {
  const actions = [
    { type: 'change', selectors: [['#city']], value: '{{city}}' },
    { type: 'click', selectors: [['#go']], offsetX: 1, offsetY: 2 },
  ];

  it('creates from url, actions, a variables object, structured_output and metadata; gets it back', async () => {
    const name = uniq('python');
    const structured = { type: 'object', properties: { price: { type: 'number' } }, nested: [[{ a: null }]] };
    const res = await jsonCall('POST', '/api/workflow', {
      name,
      url: 'https://shop.example/{{city}}',
      actions,
      variables: { city: 'Paris', count: 3, express: false, note: null },
      structured_output: structured,
      metadata: 'py',
    });
    expect(res.status).toBe(200);
    const body = await res.json();
    expect(body).toMatchObject({ succeeded: true, message: expect.any(String) });
    const w = body.workflow;
    expect(Object.keys(w).sort()).toEqual([
      'created_at',
      'flow',
      'id',
      'metadata',
      'name',
      'structured_output',
      'updated_at',
      'variables',
    ]);
    expect(w).toMatchObject({ name, metadata: 'py', structured_output: structured });
    expect(w.flow).toEqual({
      title: name,
      steps: [{ type: 'navigate', url: 'https://shop.example/{{city}}' }, ...actions],
    });
    // defaultValue beside default: the name Simplex's CLI reads.
    expect(w.variables).toEqual([
      { name: 'city', type: 'string', required: false, default: 'Paris', defaultValue: 'Paris' },
      { name: 'count', type: 'number', required: false, default: 3, defaultValue: 3 },
      { name: 'express', type: 'boolean', required: false, default: false, defaultValue: false },
      { name: 'note', type: 'string', required: false },
    ]);

    const got = await server.api(`/api/workflow/${w.id}`);
    expect(got.status).toBe(200);
    expect(await got.json()).toEqual({ succeeded: true, workflow: w });
    // The same workflow through our own API.
    expect(await (await server.api(`/api/workflows/${w.id}`)).json()).toEqual(w);
  });

  it('creates with just a name, and with a variables list', async () => {
    const bare = await (await jsonCall('POST', '/api/workflow', { name: uniq('bare') })).json();
    expect(bare.workflow).toMatchObject({
      flow: { steps: [] },
      variables: [],
      metadata: null,
      structured_output: null,
    });
    const listed = await jsonCall('POST', '/api/workflow', {
      name: uniq('listed'),
      actions: [{ type: 'change', selectors: ['#q'], value: '{{q}}' }],
      variables: [{ name: 'q', type: 'string', required: true }],
      url: null,
    });
    expect(listed.status).toBe(200);
    expect((await listed.json()).workflow.flow.steps).toEqual([{ type: 'change', selectors: ['#q'], value: '{{q}}' }]);
  });

  it('patches any subset: url replaces the first navigate, actions the steps after it', async () => {
    const name = uniq('patch');
    const recorded = {
      title: 'recorded',
      steps: [
        {
          type: 'setViewport',
          width: 800,
          height: 600,
          deviceScaleFactor: 1,
          isMobile: false,
          hasTouch: false,
          isLandscape: false,
        },
        { type: 'navigate', url: 'https://old.example/' },
        { type: 'click', selectors: [['#old']], offsetX: 1, offsetY: 1 },
      ],
    };
    const w = await create(name, { flow: recorded, metadata: 'keep me', structured_output: { keep: true } });
    await tick();

    const onlyMeta = await jsonCall('PATCH', `/api/workflow/${w.id}`, { metadata: 'changed' });
    expect(onlyMeta.status).toBe(200);
    const one = (await onlyMeta.json()).workflow;
    expect(one).toMatchObject({ name, metadata: 'changed', structured_output: { keep: true }, flow: recorded });
    expect(one.updated_at > w.updated_at).toBe(true);

    const r = await jsonCall('PATCH', `/api/workflow/${w.id}`, {
      url: 'https://new.example/{{city}}',
      actions,
      variables: { city: 'Oslo' },
      structured_output: null,
    });
    expect(r.status).toBe(200);
    const two = (await r.json()).workflow;
    expect(two.flow).toEqual({
      title: 'recorded',
      steps: [recorded.steps[0], { type: 'navigate', url: 'https://new.example/{{city}}' }, ...actions],
    });
    expect(two).toMatchObject({
      name,
      metadata: 'changed',
      structured_output: null,
      variables: [{ name: 'city', type: 'string', default: 'Oslo' }],
    });

    const renamed = await jsonCall('PATCH', `/api/workflow/${w.id}`, { name: `${name} v2` });
    expect((await renamed.json()).workflow).toMatchObject({
      name: `${name} v2`,
      flow: two.flow,
      variables: two.variables,
    });
  });

  it('patching a url into a flow without a navigate puts one in front', async () => {
    const w = await create(uniq('no nav'), {
      flow: { title: 'x', steps: [{ type: 'click', selectors: [['#a']], offsetX: 0, offsetY: 0 }] },
    });
    const r = await (await jsonCall('PATCH', `/api/workflow/${w.id}`, { url: 'https://start.example/' })).json();
    expect(r.workflow.flow.steps.map((s: { type: string }) => s.type)).toEqual(['navigate', 'click']);
    const a = await (await jsonCall('PATCH', `/api/workflow/${w.id}`, { actions: [{ type: 'close' }] })).json();
    expect(a.workflow.flow.steps).toEqual([{ type: 'navigate', url: 'https://start.example/' }, { type: 'close' }]);
  });

  it('404s, 409s and 422s naming the field the caller sent', async () => {
    expect((await server.api(`/api/workflow/${randomUUID()}`)).status).toBe(404);
    expect((await jsonCall('PATCH', `/api/workflow/${randomUUID()}`, { name: 'x' })).status).toBe(404);
    expect((await expect422(await server.api('/api/workflow/nope')))[0]!.path).toBe('id');

    const taken = await create(uniq('taken'));
    const dup = await jsonCall('POST', '/api/workflow', { name: taken.name });
    expect(dup.status).toBe(409);
    expect(await dup.json()).toMatchObject({ error: 'conflict', issues: [{ path: 'name' }] });
    const other = await create(uniq('other'));
    expect((await jsonCall('PATCH', `/api/workflow/${other.id}`, { name: taken.name })).status).toBe(409);

    const paths = async (method: string, pathname: string, body: unknown) =>
      (await expect422(await jsonCall(method, pathname, body))).map((i) => i.path).sort();
    expect(await paths('POST', '/api/workflow', { url: 'https://x.example/' })).toEqual(['name']);
    // Undeclared placeholders: in the url, in the second action, in a variable's default type.
    expect(
      await paths('POST', '/api/workflow', { name: uniq('bad'), url: 'https://x.example/{{who}}', actions }),
    ).toEqual(['actions.0.value', 'url']);
    expect(await paths('POST', '/api/workflow', { name: uniq('bad'), actions: [{ type: 'teleport' }] })).toEqual([
      'actions.0.type',
    ]);
    expect(await paths('POST', '/api/workflow', { name: uniq('bad'), variables: { '1st': 'x' } })).toEqual([
      'variables.1st.name',
    ]);
    expect(await paths('POST', '/api/workflow', { name: uniq('bad'), variables: { list: [1] } })).toEqual([
      'variables',
    ]);
    expect(await paths('POST', '/api/workflow', { name: uniq('bad'), flow: emptyFlow })).toEqual(['flow']);
    expect(await paths('PATCH', `/api/workflow/${other.id}`, { actions })).toEqual(['actions.0.value']);
    expect(await paths('PATCH', `/api/workflow/${other.id}`, { metadata: 'a'.repeat(10_001) })).toEqual(['metadata']);
    let deep: unknown = 1;
    for (let i = 0; i < 100; i++) deep = [deep];
    expect(await paths('POST', '/api/workflow', { name: uniq('deep'), structured_output: deep })).toEqual([
      'structured_output',
    ]);
    // Nothing was changed by the refused patches.
    expect((await (await server.api(`/api/workflow/${other.id}`)).json()).workflow.flow).toEqual(emptyFlow);
  });

  it('takes only JSON', async () => {
    const res = await form('/api/workflow', { name: uniq('form') });
    expect(res.status).toBe(415);
  });
});

describe('pause steps and credential placeholders', () => {
  const withSteps = (steps: unknown[], variables: unknown[] = []) => ({
    name: uniq('steps'),
    flow: { title: 't', steps },
    variables,
  });
  const navigate = { type: 'navigate', url: 'https://login.example/' };

  it('accepts a pause step and refuses one without a good message', async () => {
    const pause = {
      type: 'customStep',
      name: 'pause',
      parameters: { message: 'Type the code sent to your phone, then resume' },
    };
    const ok = await postJson(server, '/api/workflows', withSteps([navigate, pause]));
    expect(ok.status).toBe(201);
    expect((await ok.json()).flow.steps[1]).toEqual(pause);
    for (const parameters of [{}, { message: '' }, { message: 'x'.repeat(501) }, { message: 3 }]) {
      const issues = await expect422(
        await postJson(
          server,
          '/api/workflows',
          withSteps([navigate, { type: 'customStep', name: 'pause', parameters }]),
        ),
      );
      expect(issues).toEqual([{ path: 'flow.steps.1.parameters.message', message: expect.any(String) }]);
    }
  });

  it('accepts {{credentials.NAME}} in a change value, undeclared, beside variables', async () => {
    const steps = [
      navigate,
      { type: 'change', selectors: [['#user']], value: '{{user}}' },
      { type: 'change', selectors: [['#pass']], value: '{{ credentials.bank-password }}' },
      { type: 'change', selectors: [['#otp']], value: 'x{{credentials._otp}}y{{credentials.bank-password}}' },
    ];
    const res = await postJson(
      server,
      '/api/workflows',
      withSteps(steps, [{ name: 'user', type: 'string', required: true }]),
    );
    expect(res.status).toBe(201);
    const w = await res.json();
    expect(credentialNamesOf(w.flow as Flow)).toEqual(['bank-password', '_otp']);
    // Filling variables leaves credentials for the runner.
    const filled = fillPlaceholders(w.flow as Flow, { user: 'ada' });
    expect(filled.steps.slice(1).map((s) => (s as { value: string }).value)).toEqual([
      'ada',
      '{{ credentials.bank-password }}',
      'x{{credentials._otp}}y{{credentials.bank-password}}',
    ]);
  });

  it('refuses credentials in a url, anywhere else, and with a bad name', async () => {
    const cases: [unknown, string, RegExp][] = [
      [{ type: 'navigate', url: 'https://x.example/?p={{credentials.pw}}' }, 'flow.steps.1.url', /never put in a URL/],
      [
        { type: 'waitForExpression', expression: '"{{credentials.pw}}"' },
        'flow.steps.1.expression',
        /change step's value/,
      ],
      [
        { type: 'click', selectors: [['#a'], ['aria/{{credentials.pw}}']], offsetX: 0, offsetY: 0 },
        'flow.steps.1.selectors.1.0',
        /change step's value/,
      ],
      [
        { type: 'customStep', name: 'pause', parameters: { message: 'your password is {{credentials.pw}}' } },
        'flow.steps.1.parameters.message',
        /pause/,
      ],
      [{ type: 'change', selectors: [['#a']], value: '{{credentials.1pw}}' }, 'flow.steps.1.value', /credential name/],
      [{ type: 'change', selectors: [['#a']], value: '{{credentials.}}' }, 'flow.steps.1.value', /credential name/],
    ];
    for (const [step, path, message] of cases) {
      const issues = await expect422(await postJson(server, '/api/workflows', withSteps([navigate, step])));
      expect(issues).toEqual([{ path, message: expect.stringMatching(message) }]);
    }
    const title = await expect422(
      await postJson(server, '/api/workflows', { name: uniq('t'), flow: { title: '{{credentials.pw}}', steps: [] } }),
    );
    expect(title).toEqual([{ path: 'flow.title', message: expect.stringContaining('change step') }]);
  });

  it("refuses a credential in the Python client's url, naming url", async () => {
    const issues = await expect422(
      await jsonCall('POST', '/api/workflow', { name: uniq('py cred'), url: 'https://x.example/{{credentials.pw}}' }),
    );
    expect(issues).toEqual([{ path: 'url', message: expect.stringContaining('URL') }]);
    const ok = await jsonCall('POST', '/api/workflow', {
      name: uniq('py cred ok'),
      actions: [{ type: 'change', selectors: ['#p'], value: '{{credentials.pw}}' }],
    });
    expect(ok.status).toBe(200);
  });
});

describe('OpenAPI', () => {
  it('lists the new paths', async () => {
    const doc = await (await fetch(`${server.url}/api/openapi.json`)).json();
    expect(Object.keys(doc.paths['/search_workflows'])).toEqual(['get']);
    expect(Object.keys(doc.paths['/update_workflow_metadata'])).toEqual(['post']);
    expect(Object.keys(doc.paths['/update_workflow_metadata'].post.requestBody.content)).toEqual([
      'application/x-www-form-urlencoded',
      'application/json',
    ]);
    expect(Object.keys(doc.paths['/workflow'])).toEqual(['post']);
    expect(Object.keys(doc.paths['/workflow/{id}']).sort()).toEqual(['get', 'patch']);
    expect(
      doc.paths['/search_workflows'].get.parameters.map((p: { name: string; required: boolean }) => [
        p.name,
        p.required,
      ]),
    ).toEqual([
      ['workflow_name', false],
      ['metadata', false],
    ]);
  });
});
