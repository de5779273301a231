import { randomUUID } from 'node:crypto';
import { Webhook } from 'standardwebhooks';
import { SimplexClient, type SessionStatusResponse } from 'simplex-ts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CALLER_METADATA_MAX_CHARS } from '../contract/common.ts';
import { SessionStatus } from '../contract/runControl.ts';
import { WebhookEvent } from '../contract/runs.ts';
import { SessionEvent } from '../contract/sessionEvents.ts';
import { postJson, startServer, type TestServer } from './helpers/server.ts';
import { createWorkflow } from './helpers/runs.ts';
import { untilDone } from './helpers/simplexClient.ts';
import { waitForAsync } from './helpers/wait.ts';
import { startFormSite, type FormSite } from './fixtures/formSite.ts';
import { startReceiver, type Receiver } from './fixtures/webhookReceiver.ts';

/*
 * What Simplex's official clients send and read, as a customer's program meets it (issue 24):
 * run metadata as any string, workflow variables as the Python CLI writes and reads them, outputs
 * typed by the workflow's structured_output, status fields typed as the clients type them, and a
 * session closed in the middle of a step. simplex-ts where it has the call; where only the Python
 * client or its CLI has it, the HTTP that client sends (Python's `requests` and the client itself
 * cannot be installed or committed here): urlencoded forms for `post`, JSON for `post_json` and
 * `patch_json`.
 */

let server: TestServer;
let site: FormSite;
let hooks: Receiver;
let client: SimplexClient;
beforeAll(async () => {
  [server, site, hooks] = await Promise.all([startServer(), startFormSite(), startReceiver([200])]);
  client = new SimplexClient({ apiKey: server.apiKey, baseURL: `${server.url}/api`, maxRetries: 0 });
});
afterAll(async () => {
  await server?.close();
  await site?.close();
  await hooks?.close();
});

/** The Python client's `post` (and so its CLI's run, close, …): urlencoded, null values dropped. */
const pyForm = (pathname: string, fields: Record<string, string>) =>
  server.api(pathname, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams(fields).toString(),
  });
/** The Python client's `post_json` / `patch_json` (create_workflow, update_workflow: the CLI's set-vars and set-outputs). */
const pyJson = (method: 'POST' | 'PATCH', pathname: string, body: unknown) =>
  server.api(pathname, { method, headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
const uniq = (prefix: string) => `${prefix} ${randomUUID().slice(0, 8)}`;

async function expect422(res: Response): Promise<{ path: string; message: string }[]> {
  expect(res.status, await res.clone().text()).toBe(422);
  const body = (await res.json()) as { error: string; issues: { path: string; message: string }[] };
  expect(body.error).toBe('invalid_request');
  return body.issues;
}

async function eventsOf(sessionId: string): Promise<SessionEvent[]> {
  const res = await server.api(`/api/session/${sessionId}/events?limit=1000`);
  return ((await res.json()) as { events: unknown[] }).events.map((e) => SessionEvent.parse(e));
}

const finalHook = (sessionId: string) =>
  waitForAsync(
    'run.completed webhook',
    () => hooks.received.find((r) => r.body.includes('"run.completed"') && r.body.includes(sessionId)),
    30_000,
  );

/** Submit the order form with a name and a size; read back what the result page shows. */
const orderFlow = (title: string) => ({
  title,
  steps: [
    { type: 'navigate', url: '{{site}}/form' },
    { type: 'change', selectors: [['#name']], value: '{{name}}' },
    { type: 'change', selectors: [['#size']], value: '{{size}}' },
    {
      type: 'click',
      selectors: [['#send']],
      offsetX: 5,
      offsetY: 5,
      assertedEvents: [{ type: 'navigation', title: 'Order received' }],
    },
    { type: 'waitForElement', selectors: [['#result-name']] },
    { type: 'customStep', name: 'extract', parameters: { selectors: [['#result-name']], as: 'total' } },
    { type: 'customStep', name: 'extract', parameters: { selectors: [['#result-size']], as: 'size' } },
    {
      type: 'customStep',
      name: 'extract',
      parameters: { selectors: [['#result-link']], as: 'link', attribute: 'href' },
    },
  ],
});
const siteVar = { name: 'site', type: 'string', required: true };

describe('1. run metadata is any string, handed back byte for byte', () => {
  it("workflows.run(id, {metadata: 'req-789'}) (the client's README) runs; status and webhook give 'req-789' back", async () => {
    const id = await createWorkflow(server, {
      name: uniq('free metadata'),
      flow: orderFlow('free metadata'),
      variables: [
        siteVar,
        { name: 'name', type: 'string', required: false, default: 'Ada' },
        { name: 'size', type: 'string', required: false, default: 'small' },
      ],
    });
    const run = await client.workflows.run(id, {
      variables: { site: site.origin },
      webhookUrl: hooks.url,
      metadata: 'req-789',
    });
    expect(run.succeeded).toBe(true);
    const status = await untilDone(client, run.session_id);
    expect(status).toMatchObject({ success: true, metadata: 'req-789', session_metadata: 'req-789' });

    const hook = await finalHook(run.session_id);
    const event = WebhookEvent.parse(JSON.parse(hook.body));
    expect(event).toMatchObject({
      type: 'run.completed',
      metadata: 'req-789',
      session_metadata: 'req-789',
      data: { metadata: 'req-789' },
    });
    const started = hooks.received.find((r) => r.body.includes('"run.started"') && r.body.includes(run.session_id))!;
    expect(JSON.parse(started.body).data.metadata).toBe('req-789');
  });

  it('`simplex run … --metadata` (urlencoded): JSON written any way comes back as written, and parsed in session_metadata', async () => {
    const id = await createWorkflow(server, { name: uniq('json metadata'), flow: { title: 'nothing', steps: [] } });
    for (const metadata of ['order-7', '{ "order" : 7,\n "tags": ["a"] }', '  spaced  ', 'é ✓ 𝄞 "quoted" \\ ']) {
      const res = await pyForm('/api/run_workflow', { workflow_id: id, metadata });
      expect(res.status, await res.clone().text()).toBe(200);
      const { session_id } = (await res.json()) as { session_id: string };
      const status = await untilDone(client, session_id);
      expect(status.metadata).toBe(metadata);
      expect((status as unknown as { session_metadata: unknown }).session_metadata).toEqual(
        metadata.startsWith('{') ? { order: 7, tags: ['a'] } : metadata,
      );
    }
  });

  it(`refuses metadata over ${CALLER_METADATA_MAX_CHARS} characters, or holding NUL, with a 422 naming it; nothing runs`, async () => {
    const id = await createWorkflow(server, { name: uniq('metadata limits'), flow: { title: 'nothing', steps: [] } });
    const longest = '𝄞'.repeat(CALLER_METADATA_MAX_CHARS);
    for (const metadata of [`${longest}x`, 'a\u0000b']) {
      const issues = await expect422(await pyForm('/api/run_workflow', { workflow_id: id, metadata }));
      expect(issues).toEqual([{ path: 'metadata', message: expect.any(String) }]);
    }
    // Multipart (simplex-ts with files) is held to the same rule.
    const fd = new FormData();
    fd.append('workflow_id', id);
    fd.append('metadata', `${longest}x`);
    expect((await expect422(await server.api('/api/run_workflow', { method: 'POST', body: fd })))[0]).toMatchObject({
      path: 'metadata',
      message: expect.stringContaining(String(CALLER_METADATA_MAX_CHARS)),
    });
    const runs = (await (await server.api(`/api/runs?workflow_id=${id}`)).json()) as { items: unknown[] };
    expect(runs.items).toEqual([]);
    // The longest allowed one is taken, byte for byte.
    const ok = await pyForm('/api/run_workflow', { workflow_id: id, metadata: longest });
    expect(ok.status).toBe(200);
    expect((await untilDone(client, ((await ok.json()) as { session_id: string }).session_id)).metadata).toBe(longest);
  });

  it('create_workflow_session takes any metadata string and gives it back', async () => {
    const res = await postJson(server, '/api/create_workflow_session', {
      workflow_name: uniq('free session metadata'),
      metadata: 'customer 42',
    });
    expect(res.status, await res.clone().text()).toBe(200);
    const { session_id } = (await res.json()) as { session_id: string };
    try {
      expect(((await (await server.api(`/api/sessions/${session_id}`)).json()) as { metadata: string }).metadata).toBe(
        'customer 42',
      );
      const status = await client.getSessionStatus(session_id);
      expect(SessionStatus.parse(status)).toMatchObject({
        in_progress: true,
        metadata: 'customer 42',
        session_metadata: 'customer 42',
        paused_key: '',
      });
    } finally {
      await pyForm('/api/close_workflow_session', { session_id });
    }
    const issues = await expect422(
      await postJson(server, '/api/create_workflow_session', { workflow_name: uniq('x'), metadata: 'a\u0000' }),
    );
    expect(issues.map((i) => i.path)).toEqual(['metadata']);
  });
});

describe('2. workflow variables as the Python CLI writes and reads them', () => {
  // What cli/workflows.py's _parse_var_field makes of each --field.
  const cliFields = [
    { name: 'name', type: 'string', required: true, description: 'Customer name' }, // name!:string:Customer name
    { name: 'status', type: 'enum', required: false, enumValues: ['pending', 'active'] }, // status:enum:pending,active
    { name: 'count', type: 'number', required: false }, // count:number
  ];

  it('set-vars (PATCH /workflow/{id}) takes descriptions and enums; vars (GET) answers them with defaultValue beside default', async () => {
    const created = await pyJson('POST', '/api/workflow', { name: uniq('cli vars') });
    const { id } = ((await created.json()) as { workflow: { id: string } }).workflow;
    const set = await pyJson('PATCH', `/api/workflow/${id}`, { variables: cliFields });
    expect(set.status, await set.clone().text()).toBe(200);
    const got = (
      (await (await server.api(`/api/workflow/${id}`)).json()) as { workflow: { variables: Record<string, unknown>[] } }
    ).workflow;
    expect(got.variables).toEqual(cliFields);

    // A --file schema in Simplex's own words: defaultValue. The Default column reads defaultValue.
    const withDefaults = [
      { ...cliFields[0], defaultValue: 'Ada' },
      { ...cliFields[1], defaultValue: 'pending' },
      { ...cliFields[2], default: 3 },
    ];
    expect((await pyJson('PATCH', `/api/workflow/${id}`, { variables: withDefaults })).status).toBe(200);
    const read = (
      (await (await server.api(`/api/workflow/${id}`)).json()) as { workflow: { variables: Record<string, unknown>[] } }
    ).workflow.variables;
    expect(read).toEqual([
      { ...cliFields[0], default: 'Ada', defaultValue: 'Ada' },
      { ...cliFields[1], default: 'pending', defaultValue: 'pending' },
      { ...cliFields[2], default: 3, defaultValue: 3 },
    ]);
    // search_workflows lists them the same way.
    const found = (await (
      await server.api(`/api/search_workflows?workflow_name=${encodeURIComponent('cli vars')}`)
    ).json()) as { workflows: { workflow_id: string; variables: unknown }[] };
    expect(found.workflows.find((w) => w.workflow_id === id)?.variables).toEqual(read);
    // What vars --json printed goes back unchanged (both names, equal).
    expect((await pyJson('PATCH', `/api/workflow/${id}`, { variables: read })).status).toBe(200);

    // Refused, each naming the field, and nothing changes.
    const refused: [unknown, string][] = [
      [{ name: 'status', type: 'enum', required: false }, 'variables.0.enumValues'], // status:enum
      [{ name: 'status', type: 'enum', required: false, enumValues: [] }, 'variables.0.enumValues'], // status:enum:
      [{ name: 'status', type: 'enum', enumValues: ['a', 'a'] }, 'variables.0.enumValues'],
      [{ name: 'status', type: 'enum', enumValues: ['a', 'b'], defaultValue: 'c' }, 'variables.0.defaultValue'],
      [{ name: 'count', type: 'number', default: '3' }, 'variables.0.default'],
      [{ name: 'who', type: 'string', enumValues: ['a'] }, 'variables.0.enumValues'],
      [{ name: 'who', type: 'string', default: 'a', defaultValue: 'b' }, 'variables.0.defaultValue'],
      [{ name: 'who', type: 'string', description: 7 }, 'variables.0.description'],
      [{ name: 'who', type: 'string', description: 'x'.repeat(1001) }, 'variables.0.description'],
      [{ name: 'tags', type: 'array' }, 'variables.0.type'],
    ];
    for (const [variable, path] of refused) {
      const issues = await expect422(await pyJson('PATCH', `/api/workflow/${id}`, { variables: [variable] }));
      expect(
        issues.map((i) => i.path),
        JSON.stringify(variable),
      ).toEqual([path]);
    }
    const after = ((await (await server.api(`/api/workflow/${id}`)).json()) as { workflow: { variables: unknown } })
      .workflow.variables;
    expect(after).toEqual(read);
  });

  it('a run refuses an enum value that is not allowed, naming the allowed ones', async () => {
    const id = await createWorkflow(server, {
      name: uniq('enum run'),
      flow: { title: 'nothing', steps: [] },
      variables: [{ name: 'status', type: 'enum', enumValues: ['pending', 'active'], required: true }],
    });
    const issues = await expect422(
      await pyForm('/api/run_workflow', { workflow_id: id, variables: JSON.stringify({ status: 'closed' }) }),
    );
    expect(issues).toEqual([
      { path: 'variables.status', message: 'status must be one of: pending, active (got "closed")' },
    ]);
    const issues2 = await expect422(
      await pyForm('/api/run_workflow', { workflow_id: id, variables: JSON.stringify({ status: 1 }) }),
    );
    expect(issues2[0]!.path).toBe('variables.status');
  });
});

describe('3 and 4. outputs typed by structured_output; status fields typed as the clients type them', () => {
  it('an extract declared number answers 42.5 in structured_output ("42.50" in scraper_outputs); paused_key is ""; workflow_metadata a dict', async () => {
    const id = await createWorkflow(server, {
      name: uniq('typed outputs'),
      flow: orderFlow('typed outputs'),
      variables: [
        siteVar,
        { name: 'name', type: 'string', required: true, description: 'What the form calls the name' },
        { name: 'size', type: 'enum', enumValues: ['small', 'medium', 'large'], default: 'medium' },
      ],
      metadata: '{"team": "billing", "tier": 2}',
    });
    // `simplex workflows set-outputs <id> --field total:number --field size:enum:small,medium,large`
    const outputs = await pyJson('PATCH', `/api/workflow/${id}`, {
      structured_output: [
        { name: 'total', type: 'number' },
        { name: 'size', type: 'enum', enumValues: ['small', 'medium', 'large'] },
      ],
    });
    expect(outputs.status, await outputs.clone().text()).toBe(200);

    const run = await client.workflows.run(id, {
      variables: { site: site.origin, name: '42.50', size: 'large' },
      webhookUrl: hooks.url,
    });
    const seen: SessionStatusResponse[] = [];
    const status = await untilDone(client, run.session_id, seen);
    expect(seen[0]).toMatchObject({ paused: false, paused_key: '' });
    expect(status).toMatchObject({
      success: true,
      paused: false,
      paused_key: '',
      metadata: null,
      workflow_metadata: { team: 'billing', tier: 2 },
      scraper_outputs: { total: '42.50', size: 'large', link: expect.stringMatching(/^\/orders\/\d+$/) },
    });
    // Undeclared (link) keeps its text.
    expect(status.structured_output).toEqual({ total: 42.5, size: 'large', link: status.scraper_outputs!.link });
    expect(site.submissions.at(-1)).toMatchObject({ name: '42.50', size: 'large' });

    const event = WebhookEvent.parse(
      new Webhook(((await (await server.api('/api/webhooks/secret')).json()) as { secret: string }).secret).verify(
        (await finalHook(run.session_id)).body,
        (await finalHook(run.session_id)).headers,
      ),
    );
    expect(event).toMatchObject({
      scraper_outputs: { total: '42.50', size: 'large' },
      structured_output: { total: 42.5, size: 'large' },
      workflow_metadata: { team: 'billing', tier: 2 },
      session_metadata: null,
    });

    // workflow_metadata that is not a JSON object is the string as stored; none is null.
    for (const [metadata, expected] of [
      ['team-b', 'team-b'],
      ['[1,2]', '[1,2]'],
      ['', null],
    ] as const) {
      expect((await pyForm('/api/update_workflow_metadata', { workflow_id: id, metadata })).status).toBe(200);
      expect((await client.getSessionStatus(run.session_id)).workflow_metadata).toEqual(expected);
    }
  });

  it('set-outputs refuses an unknown type and an enum without values, naming the field', async () => {
    const created = await pyJson('POST', '/api/workflow', { name: uniq('bad outputs') });
    const { id } = ((await created.json()) as { workflow: { id: string } }).workflow;
    for (const [structured_output, path] of [
      [[{ name: 'total', type: 'integer' }], 'structured_output.0.type'],
      [[{ name: 'size', type: 'enum' }], 'structured_output.0.enumValues'],
      [[{ type: 'number' }], 'structured_output.0.name'],
    ] as const) {
      const issues = await expect422(await pyJson('PATCH', `/api/workflow/${id}`, { structured_output }));
      expect(issues.map((i) => i.path)).toEqual([path]);
    }
  });
});

describe('5. closing a run mid-step', () => {
  it('close_workflow_session during a long waitForElement: the run says the session was closed', async () => {
    const id = await createWorkflow(server, {
      name: uniq('closed mid-step'),
      flow: {
        title: 'waits',
        steps: [
          { type: 'navigate', url: '{{site}}/form' },
          { type: 'waitForElement', selectors: [['#never-there']], timeout: 60_000 },
        ],
      },
      variables: [siteVar],
    });
    const run = await client.workflows.run(id, { variables: { site: site.origin }, webhookUrl: hooks.url });
    await waitForAsync(
      'step 2 under way',
      async () =>
        (await eventsOf(run.session_id)).some((e) => e.event === 'ToolCallStarted' && e.step === 2) ? true : undefined,
      30_000,
    );
    // Let the wait settle in the page.
    await new Promise((r) => setTimeout(r, 500));
    const closed = await pyForm('/api/close_workflow_session', { session_id: run.session_id });
    expect(closed.status).toBe(200);
    const status = await untilDone(client, run.session_id);
    expect(status.success).toBe(false);
    expect(status.final_message).toBe(
      'Step 2 (waitForElement #never-there): the session was closed while this step ran',
    );
    const event = WebhookEvent.parse(JSON.parse((await finalHook(run.session_id)).body));
    expect(event).toMatchObject({ agent_response: status.final_message });
    const logs = JSON.stringify(await eventsOf(run.session_id));
    expect(logs).not.toMatch(/detached|waitForFunction/);
  });

  it("closed as the run starts, or ended by its timeout: the message says which, never the library's error", async () => {
    const id = await createWorkflow(server, {
      name: uniq('closed early'),
      flow: {
        title: 'waits',
        steps: [
          { type: 'navigate', url: '{{site}}/form' },
          { type: 'waitForElement', selectors: [['#never-there']], timeout: 60_000 },
        ],
      },
      variables: [siteVar],
    });
    const early = await client.workflows.run(id, { variables: { site: site.origin } });
    expect((await pyForm('/api/close_workflow_session', { session_id: early.session_id })).status).toBe(200);
    const closed = await untilDone(client, early.session_id);
    expect(closed.final_message).toMatch(
      /^(The run was stopped before its first step: the session was closed|Step [12] \(.*\): the session was closed while this step ran|The run was stopped before step [12] \(.*\): the session was closed)$/,
    );

    const timed = await client.workflows.run(id, { variables: { site: site.origin } });
    await waitForAsync(
      'step 2 under way',
      async () =>
        (await eventsOf(timed.session_id)).some((e) => e.event === 'ToolCallStarted' && e.step === 2)
          ? true
          : undefined,
      30_000,
    );
    // What the session's timer does when its timeout runs out.
    await server.app.sessions.end(timed.session_id, 'timed_out');
    expect((await untilDone(client, timed.session_id)).final_message).toBe(
      'Step 2 (waitForElement #never-there): the session reached its timeout while this step ran',
    );
  });
});
