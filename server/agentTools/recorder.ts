import { agentToolInputs } from '../../contract/agentTools.ts';
import type { RecorderState } from '../../contract/recorder.ts';
import { Conflict } from '../domain/errors.ts';
import type { ToolKit } from './kit.ts';
import { defineTool, type AgentTool } from './registry.ts';

/** The recording as the agent reads it: the flow, the variables it needs, what was not recorded. */
const answer = (state: RecorderState) => ({ type: 'text' as const, text: JSON.stringify(state, null, 2) });

/**
 * recorder_start, recorder_read and recorder_stop: an agent watches a person demonstrate a task in
 * a live session (hand it over with session_handoff) and gets it back as a replayable workflow
 * flow, as POST/GET/DELETE /api/sessions/{id}/recorder give it.
 */
export function recorderTools(kit: ToolKit): AgentTool[] {
  const { sessions, recorders } = kit.deps;
  const steps = (state: RecorderState) => `${state.flow.steps.length} step(s)`;
  return [
    defineTool({
      name: 'recorder_start',
      description:
        'Start recording what a person does in the live session (clicks, typing, choices, keys, uploads; every tab and frame) as a replayable workflow flow. Hand the session over with session_handoff, then read the steps with recorder_read or end with recorder_stop. Passwords typed become {{placeholders}}, never their value.',
      input: agentToolInputs.recorder_start,
      async run({ session_id }) {
        const live = sessions.get(session_id);
        if (live?.state !== 'live')
          throw new Conflict(`Session ${session_id} is not live here: there is nothing to record`);
        const state = await recorders.start(live);
        return { content: [answer(state)], summary: `Recording the session (${steps(state)} so far)` };
      },
    }),
    defineTool({
      name: 'recorder_read',
      description:
        'The flow recorded so far in the session (Chrome Recorder JSON), with the variables it needs and what was not recorded.',
      input: agentToolInputs.recorder_read,
      async run({ session_id }) {
        const state = recorders.state(session_id);
        return { content: [answer(state)], summary: `Read the recording: ${steps(state)}` };
      },
    }),
    defineTool({
      name: 'recorder_stop',
      description:
        "Stop recording the session and answer the flow, ready to save as a workflow with its variables (the dashboard's workflow editor or POST /api/workflows).",
      input: agentToolInputs.recorder_stop,
      async run({ session_id }) {
        const state = await recorders.stop(session_id);
        return { content: [answer(state)], summary: `Stopped recording: ${steps(state)}` };
      },
    }),
  ];
}
