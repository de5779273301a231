import { agentToolInputs } from '../../contract/agentTools.ts';
import { Conflict } from '../domain/errors.ts';
import type { ToolKit } from './kit.ts';
import { defineTool, type AgentTool } from './registry.ts';

const json = (value: unknown) => ({ type: 'text' as const, text: JSON.stringify(value, null, 2) });

/**
 * session_handoff and session_resume: the agent hands the browser to a person (a login, a captcha,
 * a decision) and takes it back. A session running a workflow pauses with the runs' own pause (the
 * dashboard's "Waiting for you", the run.paused webhook); any other session simply is the person's
 * through its interactive vnc_url, and the message is in the session's log for the dashboard.
 */
export function handoffTools(kit: ToolKit): AgentTool[] {
  const { runs, sessions, urls } = kit.deps;
  return [
    defineTool({
      name: 'session_handoff',
      description:
        "Hand the session to a person: answers the interactive vnc_url to give them, with your message in the session's log. A session running a workflow also pauses its run until session_resume. Call session_resume when the person is done.",
      input: agentToolInputs.session_handoff,
      async run({ session_id, message }) {
        await kit.browsers.browser(session_id);
        const tokens = sessions.issueTokens(session_id);
        if (!tokens) throw new Conflict(`Session ${session_id} is not live: there is nothing to hand over`);
        const paused = runs.isRunning(session_id) ? await runs.pause(session_id, message) : null;
        return {
          content: [
            json({ session_id, vnc_url: urls.vnc(session_id, tokens.control), run_paused: paused !== null, message }),
          ],
          summary: `Handed to a person: ${message}`,
        };
      },
    }),
    defineTool({
      name: 'session_resume',
      description: 'Take the session back after session_handoff: a paused workflow run goes on from its next step.',
      input: agentToolInputs.session_resume,
      async run({ session_id }) {
        await kit.browsers.browser(session_id);
        // What the person did may have changed the page: refs from before are not trusted.
        kit.snapshots.forget(session_id);
        const resumed = runs.pauseOf(session_id) ? await runs.resume(session_id) : null;
        return {
          content: [
            {
              type: 'text',
              text: `${resumed ? 'The run goes on. ' : ''}The session is the agent's again: take a new snapshot, the person may have changed the page.`,
            },
          ],
          summary: resumed ? 'Took the session back; the run goes on' : 'Took the session back',
        };
      },
    }),
  ];
}
