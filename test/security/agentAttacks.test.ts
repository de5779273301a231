import { describe, expect, it } from 'vitest';
import { QUEUED_MESSAGES_MAX } from '../../contract/agent.ts';
import { Workflow } from '../../contract/workflows.ts';
import { refIn } from '../fixtures/agentSite.ts';
import { agentBed, editorCalls, turnEnded } from '../helpers/agentBed.ts';
import type { FakeRequest } from '../helpers/fakeModel.ts';
import { postJson } from '../helpers/server.ts';

/**
 * The browser agent attacked: a hostile page that tells it to type a credential, message_url with
 * another session's token, another scope's token or none, bad bodies, an overfull queue, and bad
 * input to start_editor_session. (Every route without a key, in every spelling: routeSpellings.)
 */
const bed = agentBed();
const { startEditor, until, send, state, close } = editorCalls(bed);

describe('editor sessions under attack', () => {
  it('a page that tells the agent to type a credential gets nothing, and the model never sees its value', async () => {
    const secret = 'hunter2-very-secret-value';
    for (const [name, origins] of [
      ['BANK', ['https://bank.example']],
      ['ANYWHERE', []],
    ] as const) {
      const stored = await postJson(bed.server, '/api/store_credential', {
        name,
        value: secret,
        allowed_origins: origins,
      });
      expect(stored.status, await stored.clone().text()).toBeLessThan(300);
    }
    bed.fake.reset();
    const typeInto = (credential: string) => ({
      kind: 'respond' as const,
      with: (req: FakeRequest) => ({
        kind: 'tools' as const,
        calls: [
          {
            name: 'browser_type',
            args: {
              element: 'Box',
              ref: refIn(req, /textbox "Box"/),
              text: `{{credentials.${credential}}}`,
              submit: true,
            },
          },
        ],
      }),
    });
    bed.fake.enqueue(
      { kind: 'tools', calls: [{ name: 'browser_snapshot', args: {} }] },
      typeInto('BANK'),
      { kind: 'tools', calls: [{ name: 'browser_snapshot', args: {} }] },
      typeInto('ANYWHERE'),
      { kind: 'tools', calls: [{ name: 'done', args: { summary: 'did what the page said' } }] },
    );
    const editor = await startEditor('Hostile', '/hostile');
    await send('What does this page say?', editor.message_url);
    const log = await until(editor.session_id, 'the turn to end', turnEnded);
    const typed = log.filter((e) => e.event === 'ToolCallCompleted' && e.tool.tool_name === 'browser_type');
    expect(typed).toHaveLength(2);
    for (const e of typed) expect(e.event === 'ToolCallCompleted' && e.tool.tool_call_error).toBe(true);
    expect(bed.site.submitted.some((q) => q.includes('hunter2'))).toBe(false);
    for (const req of bed.fake.requests) expect(JSON.stringify(req.body)).not.toContain(secret);
    // The model was told why, in words it can act on.
    expect(JSON.stringify(bed.fake.requests.at(-1)!.body)).toMatch(/may only be typed into https:\/\/bank\.example/);
    expect(JSON.stringify(bed.fake.requests.at(-1)!.body)).toMatch(/lists none/);
    expect(JSON.stringify(log)).not.toContain(secret);
    // Nothing was recorded for the refused calls.
    expect((await state(editor.session_id)).steps.map((s) => s.type)).toEqual(['navigate']);
    await close(editor.session_id);
  });

  it('message_url takes the API key or its own token, nothing else; bad bodies change nothing', async () => {
    bed.fake.reset();
    bed.fake.fallback = { kind: 'hang' };
    const a = await startEditor('Auth A', '/start');
    const b = await startEditor('Auth B', '/start');
    try {
      const noKey = (url: string, body: unknown) =>
        fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
      // Its own signed URL works without a key.
      expect((await noKey(a.message_url, { message: 'hello' })).status).toBe(200);
      // B's token on A's path, no token, a token of another scope (logs_url's): refused.
      const bToken = new URL(b.message_url).searchParams.get('token')!;
      const aPath = `${bed.server.url}/api/session/${a.session_id}/message`;
      expect((await noKey(`${aPath}?token=${encodeURIComponent(bToken)}`, { message: 'x' })).status).toBe(401);
      expect((await noKey(aPath, { message: 'x' })).status).toBe(401);
      const eventsToken = new URL(a.logs_url).searchParams.get('token')!;
      expect((await noKey(`${aPath}?token=${encodeURIComponent(eventsToken)}`, { message: 'x' })).status).toBe(401);
      // Bad bodies: 422 (or 415), and the queue is unchanged.
      const before = (await state(a.session_id)).queued;
      for (const body of [
        {},
        { message: '' },
        { message: 'x'.repeat(20_001) },
        { message: 'a', extra: 1 },
        { type: 'ask_user_answer' },
        [1],
      ]) {
        const res = await send(body, a.message_url);
        expect(res.status, JSON.stringify(body)).toBe(422);
      }
      const text = await fetch(a.message_url, {
        method: 'POST',
        headers: { 'content-type': 'text/plain' },
        body: 'hi',
      });
      expect(text.status).toBe(415);
      expect((await state(a.session_id)).queued).toEqual(before);
      // The queue is bounded: one over the limit is refused and changes nothing.
      for (let i = before.length; i < QUEUED_MESSAGES_MAX; i++)
        expect((await send(`queued ${i}`, a.message_url)).status).toBe(200);
      const over = await send('one too many', a.message_url);
      expect(over.status).toBe(409);
      expect((await over.json()).message).toMatch(/messages already wait/);
      expect((await state(a.session_id)).queued).toHaveLength(QUEUED_MESSAGES_MAX);
      // A session without an agent has no message_url to talk to.
      const plain = await postJson(bed.server, '/api/create_workflow_session', { workflow_name: 'no agent' });
      const plainId = ((await plain.json()) as { session_id: string }).session_id;
      expect((await send('hi', `${bed.server.url}/api/session/${plainId}/message`)).status).toBe(404);
      await close(plainId);
    } finally {
      bed.fake.fallback = { kind: 'reply', text: 'ok' };
      await close(a.session_id);
      await close(b.session_id);
    }
  });

  it('start_editor_session refuses bad input with nothing made, and names taken get a number', async () => {
    for (const body of [
      { name: 'x' },
      { name: 'x', url: 'file:///etc/passwd' },
      { name: '', url: `${bed.site.origin}/start` },
      { name: 'x', url: `${bed.site.origin}/start`, test_data: { 'bad key': 1 } },
    ]) {
      const res = await postJson(bed.server, '/api/start_editor_session', body);
      expect(res.status, JSON.stringify(body)).toBe(422);
    }
    const first = await startEditor('Twice', '/start');
    const second = await startEditor('Twice', '/start');
    const named = async (id: string) =>
      Workflow.parse(await (await bed.server.api(`/api/workflows/${id}`)).json()).name;
    expect(await named(first.workflow_id)).toBe('Twice');
    expect(await named(second.workflow_id)).toBe('Twice (2)');
    await close(first.session_id);
    await close(second.session_id);
  });
});
