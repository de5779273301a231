import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MESSAGE_MAX_CHARS } from '../../contract/agent.ts';
import { signToken } from '../../server/secrets/signedTokens.ts';
import { startFormSite, type FormSite } from '../fixtures/formSite.ts';
import { activeSession, askingWorkflow, postMessage, untilPaused } from '../helpers/runMessages.ts';
import { createWorkflow, runWorkflow, sessionLog } from '../helpers/runs.ts';
import { postJson, startServer, type TestServer } from '../helpers/server.ts';
import { closeLeavingNothing } from '../helpers/teardown.ts';

/**
 * A paused run's message_url attacked (issue 39): another session's URL, forged and misscoped
 * tokens, oversized and smuggling bodies. Each is refused and the run stays paused at the same
 * pause, with nothing resumed. (No key and no token: routeSpellings and the token cases below.)
 */
let server: TestServer;
let site: FormSite;
const runs: { sessionId: string; messageUrl: string; logsUrl: string }[] = [];
beforeAll(async () => {
  [server, site] = await Promise.all([startServer(), startFormSite()]);
  for (const name of ['attacked run', 'other run']) {
    const workflowId = await createWorkflow(server, askingWorkflow(name));
    const run = await runWorkflow(server, {
      workflow_id: workflowId,
      variables: JSON.stringify({ site: site.origin }),
    });
    expect(run.status, run.body.message).toBe(200);
    await untilPaused(server, run.body.session_id);
    const active = await activeSession(server, workflowId);
    runs.push({ sessionId: run.body.session_id, messageUrl: active.message_url!, logsUrl: run.body.logs_url });
  }
});
afterAll(async () => {
  for (const { sessionId } of runs) await postJson(server, '/api/close_workflow_session', { session_id: sessionId });
  await closeLeavingNothing(server);
  await site?.close();
});

const key = () => server.app.urlSigningKey;

describe("a paused run's message_url under attack", () => {
  it('takes its own token only: not another session’s, another scope’s, a forged, tampered or expired one, nor the API key as a token', async () => {
    const [mine, other] = runs as [(typeof runs)[number], (typeof runs)[number]];
    const before = await untilPaused(server, mine.sessionId);
    const path = `${server.url}/api/session/${mine.sessionId}/message`;
    const tries = [
      new URL(other.messageUrl).searchParams.get('token')!,
      new URL(mine.logsUrl).searchParams.get('token')!,
      signToken(key(), 'message', other.sessionId, 60),
      signToken(key(), 'events', mine.sessionId, 60),
      signToken(key(), 'message', mine.sessionId, 60, Date.now() - 120_000),
      signToken(Buffer.alloc(32, 7), 'message', mine.sessionId, 3600),
      `${new URL(mine.messageUrl).searchParams.get('token')!}x`,
      // Another session's payload under the mac of this one's token.
      new URL(mine.messageUrl).searchParams
        .get('token')!
        .replace(
          /^[^.]+/,
          Buffer.from(JSON.stringify({ c: 'message', s: other.sessionId, e: 9_999_999_999 })).toString('base64url'),
        ),
      server.apiKey,
      '',
    ];
    for (const token of tries) {
      const res = await postMessage(`${path}?token=${encodeURIComponent(token)}`, { message: 'let me in' });
      expect(res.status, token).toBe(401);
    }
    expect((await postMessage(path, { message: 'no token' })).status).toBe(401);
    // Another session's own URL moves that session only.
    const status = await untilPaused(server, mine.sessionId);
    expect(status.paused_key).toBe(before.paused_key);
  });

  it('refuses oversized, malformed and smuggling bodies, and keys that are not the pause’s, changing nothing', async () => {
    const [mine] = runs as [(typeof runs)[number]];
    const before = await untilPaused(server, mine.sessionId);
    const refusals: [unknown, number][] = [
      [{ message: 'x'.repeat(MESSAGE_MAX_CHARS + 1) }, 422],
      [{ message: 'y'.repeat(1024 * 1024 + 10) }, 413],
      [{ flow_resume: 'k'.repeat(201) }, 422],
      [{ message: 'a', flow_resume: before.paused_key }, 422],
      [{ flow_resume: before.paused_key, extra: 1 }, 422],
      [{ message: '' }, 422],
      [{}, 422],
      [[before.paused_key], 422],
      // An answer is typed into later steps: a placeholder in it would fill in a stored credential there.
      [{ message: '{{credentials.bank}}' }, 422],
      [{ message: 'my code is {{ site }}' }, 422],
      [{ flow_resume: '00000000-0000-4000-8000-000000000000' }, 409],
      [{ type: 'ask_user_answer', tool_use_id: 'call_1', answers: 'yes' }, 409],
    ];
    for (const [body, status] of refusals) {
      const res = await postMessage(mine.messageUrl, body);
      expect(res.status, JSON.stringify(body).slice(0, 100)).toBe(status);
    }
    const text = await fetch(mine.messageUrl, {
      method: 'POST',
      headers: { 'content-type': 'text/plain' },
      body: 'hi',
    });
    expect(text.status).toBe(415);

    expect((await untilPaused(server, mine.sessionId)).paused_key).toBe(before.paused_key);
    // Nothing was resumed: the real key still works, once.
    expect((await postMessage(mine.messageUrl, { flow_resume: before.paused_key })).status).toBe(200);
    expect((await postMessage(mine.messageUrl, { flow_resume: before.paused_key })).status).toBe(409);
    await untilPaused(server, mine.sessionId, before.paused_key);
    await postJson(server, '/api/close_workflow_session', { session_id: mine.sessionId });
    const resumes = (await sessionLog(server, mine.sessionId)).filter((e) => e.event === 'FlowResumed');
    expect(resumes).toEqual([expect.objectContaining({ pause_key: before.paused_key })]);
    expect(resumes[0]).not.toHaveProperty('answer');
  });
});
