import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { StartEditorSessionResponse } from '../contract/agent.ts';
import { Workflow } from '../contract/workflows.ts';
import { refIn } from './fixtures/agentSite.ts';
import { startPopupSite, type PopupSite } from './fixtures/popupSite.ts';
import { lastToolResult, toolNames, type FakeBehaviour } from './helpers/fakeModel.ts';
import { agentBed, editorCalls, replayWithoutModel, turnEnded } from './helpers/agentBed.ts';
import { postJson } from './helpers/server.ts';
import { waitForAsync } from './helpers/wait.ts';

/**
 * The built-in agent through an OAuth-style popup login, with the model played by the scripted
 * fake: the popup is selected as it opens, the agent fills it and is back on the opener when it
 * closes, and the workflow it recorded replays the login with no model.
 */
const bed = agentBed();
const { until, send, state, close } = editorCalls(bed);
let site: PopupSite;

beforeAll(async () => {
  site = await startPopupSite();
});
afterAll(async () => {
  await site?.close();
});

/** The model's turns: look at the page; act on the element of the last snapshot's line that matches. */
const look: FakeBehaviour = { kind: 'tools', calls: [{ name: 'browser_snapshot', args: {} }] };
const onRef = (name: string, element: string, line: RegExp, more: Record<string, string> = {}): FakeBehaviour => ({
  kind: 'respond',
  with: (req) => ({ kind: 'tools', calls: [{ name, args: { element, ref: refIn(req, line), ...more } }] }),
});

describe('the agent and tabs', () => {
  it('signs in through a popup, and its recorded workflow replays the popup login without the model', async () => {
    bed.fake.reset();
    bed.fake.enqueue(
      look,
      onRef('browser_click', 'Log in', /button "Log in with Provider"/),
      look,
      onRef('browser_type', 'User name', /textbox "User name"/, { text: 'alice' }),
      look,
      onRef('browser_click', 'Authorize', /button "Authorize"/),
      { kind: 'tools', calls: [{ name: 'browser_tabs', args: { action: 'list' } }] },
      look,
      { kind: 'tools', calls: [{ name: 'done', args: { summary: 'Signed in.' } }] },
    );
    const res = await postJson(bed.server, '/api/start_editor_session', {
      name: 'Popup login',
      url: `${site.origin}/opener`,
    });
    expect(res.status, await res.clone().text()).toBe(200);
    const editor = StartEditorSessionResponse.parse(await res.json());
    expect((await send('Sign in with the provider as alice.', editor.message_url)).status).toBe(200);

    const log = await until(editor.session_id, 'the turn to end', turnEnded, 60_000);
    expect(log.find(turnEnded)).toMatchObject({ event: 'RunCompleted', message: 'Signed in.' });
    expect(toolNames(bed.fake.requests[0]!)).toEqual(expect.arrayContaining(['browser_tabs', 'browser_handle_dialog']));
    const completed = log.filter((e) => e.event === 'ToolCallCompleted');
    expect(completed.map((e) => e.tool.tool_call_error)).toEqual(completed.map(() => false));
    // What the model read: the popup announced and selected, then the opener alone, signed in.
    const read = bed.fake.requests.map((r) => lastToolResult(r) ?? '');
    expect(read[2]).toMatch(/A new tab opened and is now selected: tab 1, .*\/login/);
    expect(read[3]).toContain('Provider login');
    expect(read[7]).toMatch(/^- 0: \(current\) \[Shop\]/m);
    expect(read[8]).toContain('Signed in as alice');

    const agent = await state(editor.session_id);
    expect(agent.steps.map((s) => [s.type, (s as { target?: string }).target])).toEqual([
      ['navigate', undefined],
      ['click', undefined],
      ['change', `${site.origin}/login`],
      ['click', `${site.origin}/login`],
    ]);
    await waitForAsync('the workflow saved', async () => {
      const wf = Workflow.parse(await (await bed.server.api(`/api/workflows/${editor.workflow_id}`)).json());
      return wf.flow.steps.length === 4 ? wf : undefined;
    });
    await close(editor.session_id);

    // Replayed with every model request refused: nothing asks the model, and the popup is found by its target.
    const runLog = await replayWithoutModel(bed, editor.workflow_id);
    expect(runLog.filter((e) => e.event === 'ToolCallCompleted')).toHaveLength(4);
  });
});
