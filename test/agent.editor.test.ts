import { describe, expect, it } from 'vitest';
import { Workflow } from '../contract/workflows.ts';
import { lastToolResult, toolNames } from './helpers/fakeModel.ts';
import { EDITOR_EXAMPLE_TURN, refIn } from './fixtures/agentSite.ts';
import { runWorkflow, untilCompleted } from './helpers/runs.ts';
import { agentBed, editorCalls, replayWithoutModel, turnEnded } from './helpers/agentBed.ts';
import { postJson } from './helpers/server.ts';
import { waitForAsync } from './helpers/wait.ts';

/**
 * Simplex's editor sessions against the real server and Chromium, with the model played by the
 * scripted fake: the agent's loop, its events in Simplex's shape, questions, interrupts, failures,
 * the workflow it records (replayed with the model gone) and what a hostile page can get from it.
 */
const bed = agentBed();

const { startEditor, events, until, send, state, close } = editorCalls(bed);

describe('editor sessions', () => {
  it("runs Simplex's editor example: a message, the agent clicks the link, events to RunCompleted; the workflow replays without the model", async () => {
    bed.fake.reset();
    bed.fake.enqueue(...EDITOR_EXAMPLE_TURN);
    const editor = await startEditor('Example.com Demo', '/start');
    expect(editor.message_url).toContain(`/api/session/${editor.session_id}/message?token=`);
    expect(editor.filesystem_url).toBeNull();

    const res = await send('Click the "More information..." link on the page.', editor.message_url);
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ status: 'received' });

    const log = await until(editor.session_id, 'the turn to end', turnEnded);
    const done = log.find(turnEnded)!;
    expect(done).toMatchObject({ event: 'RunCompleted', message: 'Clicked the More information link.', agent: true });
    // Simplex's shapes: what its CLI and the editor example read.
    const names = log.map((e) => e.event);
    expect(names).toEqual(expect.arrayContaining(['NewMessage', 'AgentRunning', 'RunStarted', 'RunContent']));
    const started = log.filter((e) => e.event === 'ToolCallStarted');
    expect(started.map((e) => e.tool.tool_name)).toEqual(['browser_snapshot', 'browser_click']);
    expect(started[1]!.tool.tool_args).toMatchObject({ element: 'More information link' });
    const completed = log.filter((e) => e.event === 'ToolCallCompleted');
    expect(completed.map((e) => e.tool.tool_call_error)).toEqual([false, false]);
    expect(log.find((e) => e.event === 'RunContent')).toMatchObject({ content: 'Let me look at the page.' });
    // The model was offered the browser tools, not the session-management ones.
    expect(toolNames(bed.fake.requests[0]!)).toEqual(expect.arrayContaining(['browser_click', 'ask_user', 'done']));
    expect(toolNames(bed.fake.requests[0]!)).not.toContain('session_create');

    // The page changed, and the workflow holds what the agent did.
    const agent = await state(editor.session_id);
    expect(agent.status).toBe('idle');
    expect(agent.steps.map((s) => s.type)).toEqual(['navigate', 'click']);
    const saved = await waitForAsync('the workflow saved', async () => {
      const wf = Workflow.parse(await (await bed.server.api(`/api/workflows/${editor.workflow_id}`)).json());
      return wf.flow.steps.length === 2 ? wf : undefined;
    });
    expect(saved.name).toBe('Example.com Demo');
    expect(log.some((e) => e.event === 'Navigated' && e.url.endsWith('/more'))).toBe(true);

    // active_session hands out the message URL too.
    const active = await (await bed.server.api(`/api/workflow/${editor.workflow_id}/active_session`)).json();
    expect(active).toMatchObject({ session_id: editor.session_id, message_url: expect.stringContaining('/message') });
    await close(editor.session_id);

    // Replayed as a workflow, with every model request refused: nothing asks the model.
    const runLog = await replayWithoutModel(bed, editor.workflow_id);
    expect(runLog.some((e) => e.event === 'Navigated' && e.url.endsWith('/more'))).toBe(true);
    // A run's steps carry Simplex's tool fields too (its CLI printed "unknown" for every step).
    expect(runLog.find((e) => e.event === 'ToolCallStarted')).toMatchObject({
      tool_name: 'navigate',
      tool: { tool_name: 'navigate' },
    });
  });

  it('types test data as its placeholder, so the recorded workflow types whatever a run is given', async () => {
    bed.fake.reset();
    bed.fake.enqueue(
      { kind: 'tools', calls: [{ name: 'browser_snapshot', args: {} }] },
      {
        kind: 'respond',
        with: (req) => ({
          kind: 'tools',
          calls: [
            {
              name: 'browser_type',
              args: { element: 'Your name', ref: refIn(req, /textbox "Your name"/), text: '{{who}}', submit: true },
            },
          ],
        }),
      },
      { kind: 'tools', calls: [{ name: 'done', args: { summary: 'Signed up.' } }] },
    );
    const editor = await startEditor('Sign up', '/form', { who: 'Ada' });
    await send('Sign up as the test user.', editor.message_url);
    const typed = await until(editor.session_id, 'the turn to end', turnEnded);
    expect(bed.site.submitted.at(-1), JSON.stringify(typed.filter((e) => e.event === 'ToolCallCompleted'))).toBe(
      '?who=Ada',
    );
    const steps = (await state(editor.session_id)).steps;
    expect(steps.find((s) => s.type === 'change')).toMatchObject({ value: '{{who}}' });
    // The prompt told the model the placeholder, and what it stands for.
    expect(JSON.stringify(bed.fake.requests[0]!.body)).toContain('{{who}}');
    await close(editor.session_id);

    bed.fake.reset();
    const run = await runWorkflow(bed.server, {
      workflow_id: editor.workflow_id,
      variables: JSON.stringify({ who: 'Grace' }),
    });
    const status = await untilCompleted(bed.server, run.body.session_id!);
    expect(status.succeeded, status.message).toBe(true);
    expect(bed.site.submitted.at(-1)).toBe('?who=Grace');
  });

  it('asks the person a question and goes on with the answer', async () => {
    bed.fake.reset();
    bed.fake.enqueue(
      { kind: 'tools', calls: [{ name: 'ask_user', args: { question: 'Which page?', options: ['Start', 'More'] } }] },
      {
        kind: 'respond',
        with: (req) => ({
          kind: 'tools',
          calls: [{ name: 'done', args: { summary: `You chose ${lastToolResult(req)}.` } }],
        }),
      },
    );
    const editor = await startEditor('Question', '/start');
    await send('Open the page I want.', editor.message_url);
    const log = await until(editor.session_id, 'the question', (e) => e.event === 'AskUserQuestion');
    const question = log.find((e) => e.event === 'AskUserQuestion')!;
    expect(question).toMatchObject({
      content: 'Which page?',
      questions: [{ question: 'Which page?', options: [{ label: 'Start' }, { label: 'More' }] }],
    });
    expect((await state(editor.session_id)).status).toBe('waiting_for_answer');
    // The wrong question id is refused and changes nothing.
    const wrong = await send(
      { type: 'ask_user_answer', tool_use_id: 'nope', answers: { '0': 'More' } },
      editor.message_url,
    );
    expect(wrong.status).toBe(409);
    // As Simplex's CLI sends it: the answer as JSON inside a message.
    const tool_use_id = question.event === 'AskUserQuestion' ? question.tool_use_id : '';
    const ok = await send(
      JSON.stringify({ type: 'ask_user_answer', tool_use_id, answers: { '0': 'More' } }),
      editor.message_url,
    );
    expect(ok.status).toBe(200);
    const after = await until(editor.session_id, 'the turn to end', turnEnded);
    expect(after.find(turnEnded)).toMatchObject({ event: 'RunCompleted', message: 'You chose More.' });
    await close(editor.session_id);
  });

  it('queues messages in order, takes one back, and stops a turn on interrupt with the session still live', async () => {
    bed.fake.reset();
    bed.fake.enqueue({ kind: 'hang' });
    const editor = await startEditor('Interrupt', '/start');
    await send('first', editor.message_url);
    await bed.fake.received(1);
    await send('second', editor.message_url);
    await send('third', editor.message_url);
    expect((await send('SIMPLEX_CANCEL second', editor.message_url)).status).toBe(200);
    expect((await send('SIMPLEX_CANCEL never sent', editor.message_url)).status).toBe(409);
    expect((await state(editor.session_id)).queued).toEqual(['third']);

    bed.fake.enqueue({ kind: 'tools', calls: [{ name: 'done', args: { summary: 'third done' } }] });
    const res = await postJson(bed.server, '/api/interrupt', { session_id: editor.session_id });
    expect(res.status).toBe(200);
    const log = await until(
      editor.session_id,
      'the third message done',
      (e) => e.event === 'RunCompleted' && e.message === 'third done',
    );
    const ended = log.filter(turnEnded);
    expect(ended[0]).toMatchObject({ event: 'RunError', error: expect.stringMatching(/^Interrupted/) });
    const messages = log.filter((e) => e.event === 'NewMessage').map((e) => e.content);
    expect(messages).toEqual(['first', 'third']);
    // The interrupted request was cut; the session is live.
    await bed.fake.requests[0]!.closed;
    const session = await (await bed.server.api(`/api/sessions/${editor.session_id}`)).json();
    expect(session.state).toBe('live');
    await close(editor.session_id);
  });

  it('a model failure ends the turn with RunError and the session lives on; a bad tool call goes back to the model', async () => {
    bed.fake.reset();
    bed.fake.enqueue({ kind: 'status', status: 500 });
    const editor = await startEditor('Failures', '/start');
    await send('do something', editor.message_url);
    const log = await until(editor.session_id, 'the error', turnEnded);
    expect(log.find(turnEnded)).toMatchObject({
      event: 'RunError',
      content: expect.stringMatching(/model failed.*HTTP 500/),
    });
    expect((await state(editor.session_id)).status).toBe('idle');

    bed.fake.enqueue(
      {
        kind: 'tools',
        calls: [
          { name: 'browser_click', args: { element: 'x' } },
          { name: 'no_such_tool', args: {} },
        ],
      },
      {
        kind: 'respond',
        with: (req) => ({ kind: 'tools', calls: [{ name: 'done', args: { summary: `saw: ${lastToolResult(req)}` } }] }),
      },
    );
    await send('try again', editor.message_url);
    const after = await until(editor.session_id, 'the second turn', (e) => e.event === 'RunCompleted');
    const failed = after.filter((e) => e.event === 'ToolCallCompleted' && e.tool.tool_call_error);
    expect(failed.map((e) => e.event === 'ToolCallCompleted' && e.tool.tool_name).sort()).toEqual([
      'browser_click',
      'no_such_tool',
    ]);
    // The model read why each call failed (not "{}"), and answered.
    const sent = (bed.fake.requests.at(-1)!.body as { messages: { role: string; content: unknown }[] }).messages
      .filter((m) => m.role === 'tool')
      .map((m) => String(m.content));
    expect(sent).toHaveLength(2);
    expect(sent.join('\n')).toMatch(/no_such_tool/);
    expect(sent.join('\n')).toMatch(/ref/);
    expect(sent).not.toContain('{}');
    const session = await (await bed.server.api(`/api/sessions/${editor.session_id}`)).json();
    expect(session.state).toBe('live');
    await close(editor.session_id);
  });
});

describe('the agent inside a run', () => {
  it("an act step runs the agent on the run's page, its calls logged, and an AI extract keeps its types", async () => {
    bed.fake.reset();
    bed.fake.enqueue(
      { kind: 'tools', calls: [{ name: 'browser_snapshot', args: {} }] },
      {
        kind: 'respond',
        with: (req) => ({
          kind: 'tools',
          calls: [
            { name: 'browser_click', args: { element: 'More', ref: refIn(req, /link "More information\.\.\."/) } },
          ],
        }),
      },
      { kind: 'tools', calls: [{ name: 'done', args: { summary: 'Opened the page.' } }] },
      { kind: 'reply', text: JSON.stringify({ heading: 'About example domains', words: 3 }) },
    );
    const created = await postJson(bed.server, '/api/workflows', {
      name: 'act and extract',
      flow: {
        title: 'act and extract',
        steps: [
          { type: 'navigate', url: `${bed.site.origin}/start` },
          {
            type: 'customStep',
            name: 'act',
            parameters: { instruction: 'Open the More information page', max_steps: 4 },
          },
          {
            type: 'customStep',
            name: 'extract',
            parameters: {
              instruction: 'The main heading and how many words it has',
              schema: { type: 'object', properties: { heading: { type: 'string' }, words: { type: 'number' } } },
              as: 'about',
            },
          },
        ],
      },
    });
    expect(created.status, await created.clone().text()).toBe(201);
    const { id } = (await created.json()) as { id: string };
    const run = await runWorkflow(bed.server, { workflow_id: id });
    const status = await untilCompleted(bed.server, run.body.session_id!);
    expect(status.succeeded, status.message).toBe(true);
    const log = await events(run.body.session_id!);
    expect(log.filter((e) => e.event === 'AgentToolCall').map((e) => e.event === 'AgentToolCall' && e.tool)).toEqual([
      'browser_snapshot',
      'browser_click',
    ]);
    expect(log.some((e) => e.event === 'Navigated' && e.url.endsWith('/more'))).toBe(true);
    // The extract read the page the agent opened.
    expect(JSON.stringify(bed.fake.requests.at(-1)!.body)).toContain('About example domains');
    const sessionStatus = await (await bed.server.api(`/api/session/${run.body.session_id}/status`)).json();
    expect(sessionStatus.structured_output).toEqual({ about: { heading: 'About example domains', words: 3 } });
  });
});
