import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AgentState, StartEditorSessionResponse } from '../contract/agent.ts';
import { EDITOR_EXAMPLE_TURN, startAgentSite, type AgentSite } from './fixtures/agentSite.ts';
import { startFakeModel, type FakeModel } from './helpers/fakeModel.ts';
import { postJson, startServer, type TestServer } from './helpers/server.ts';
import { waitForAsync } from './helpers/wait.ts';

/**
 * Two nodes (as test/mcp.cluster.test.ts sets them up): an editor session's agent lives on the node
 * that holds its session, and its message_url, state and interrupt reach it through any node. A is
 * told B holds the session by overriding its routing, which the membership fills in a real cluster.
 */
const shared = {
  BROWSERDESK_API_KEY: `test_${randomBytes(16).toString('hex')}`,
  BROWSERDESK_SECRET_KEY: randomBytes(32).toString('hex'),
};
let a: TestServer;
let b: TestServer;
let fake: FakeModel;
let site: AgentSite;

beforeAll(async () => {
  fake = await startFakeModel();
  const env = { ...shared, ...fake.env('openai-compatible', { MODEL_MAX_RETRIES: '0' }) };
  [a, b] = await Promise.all([startServer(env), startServer(env)]);
  site = await startAgentSite();
});

afterAll(async () => {
  await a?.close();
  await b?.close();
  await site?.close();
  await fake?.close();
});

describe('editor sessions in a cluster', () => {
  it('are talked to through any node, and answered by the node that holds the session', async () => {
    const res = await postJson(b, '/api/start_editor_session', { name: 'cluster agent', url: `${site.origin}/start` });
    expect(res.status, await res.clone().text()).toBe(200);
    const editor = StartEditorSessionResponse.parse(await res.json());
    const bUrl = b.url;
    a.app.cluster.ownerUrl = async (sid: string) => (sid === editor.session_id ? bUrl : null);

    fake.reset();
    fake.enqueue(...EDITOR_EXAMPLE_TURN);
    // The message goes in through A, with A's key, at A's address: B's agent takes it.
    const viaA = await postJson(a, `/api/session/${editor.session_id}/message`, { message: 'Click the link' });
    expect(viaA.status, await viaA.clone().text()).toBe(200);
    const state = await waitForAsync('the turn to end on B', async () => {
      const s = AgentState.parse(await (await a.api(`/api/session/${editor.session_id}/agent`)).json());
      return s.status === 'idle' && s.steps.length === 2 ? s : undefined;
    });
    expect(state.steps.map((s) => s.type)).toEqual(['navigate', 'click']);
    // A itself holds no agent for it.
    expect(a.app.agent.has(editor.session_id)).toBe(false);
    expect(b.app.agent.has(editor.session_id)).toBe(true);
    const interrupted = await postJson(a, '/api/interrupt', { session_id: editor.session_id });
    expect(interrupted.status).toBe(200);
    expect(await interrupted.json()).toMatchObject({ succeeded: true, message: expect.stringMatching(/not working/) });
    await postJson(b, '/api/close_workflow_session', { session_id: editor.session_id });
  });
});
