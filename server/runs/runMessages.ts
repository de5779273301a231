import type { SessionMessageRequest } from '../../contract/agent.ts';
import { placeholdersOf } from '../../contract/placeholders.ts';
import { Conflict, Invalid, NotFound } from '../domain/errors.ts';
import type { RunsRepo } from '../store/runs.ts';
import type { ActiveRuns } from './activeRuns.ts';
import type { PauseState } from './pauseGate.ts';

const NOBODY_WAITS = 'The run is not waiting for anyone';

/**
 * A message to a run's message_url (what Simplex's `simplex send` posts). While the run is paused
 * it resumes it: `{"flow_resume": key}` with the pause's key, or `{"message": …}`, the person's
 * answer, which the pause step stores in its variable. While it is not paused nobody reads it, so
 * it is refused (409) rather than kept for a pause that may never come.
 */
export async function messageRun(
  deps: { active: ActiveRuns; runRows: Pick<RunsRepo, 'getBySession'> },
  sessionId: string,
  body: SessionMessageRequest,
): Promise<PauseState> {
  if (!deps.active.isRunning(sessionId)) throw await notUnderWay(deps.runRows, sessionId);
  const pause = deps.active.pauseOf(sessionId);
  if (!pause) throw new Conflict(`${NOBODY_WAITS}: it is running, not paused; a message answers a pause`);
  if ('type' in body)
    throw new Conflict('A run asks no questions: answer its pause with {"message": …} or {"flow_resume": key}');
  if ('flow_resume' in body) {
    if (body.flow_resume !== pause.key)
      throw new Conflict("The run is paused, but not at that key: read paused_key from the session's status");
    return deps.active.resume(sessionId);
  }
  // The answer fills {{variable}} in later steps, typed as it is (fillTemplate.ts fills once, so a
  // placeholder in it would not be filled either): refused so that it cannot look like one.
  if (placeholdersOf(body.message).length > 0)
    throw new Invalid([
      { path: 'message', message: 'an answer may not contain {{…}}: later steps would read it as a placeholder' },
    ]);
  return deps.active.resume(sessionId, body.message);
}

/** Why a session without a run under way takes no message: its run has ended or not started, or it never had one. */
async function notUnderWay(runRows: Pick<RunsRepo, 'getBySession'>, sessionId: string): Promise<Error> {
  const run = await runRows.getBySession(sessionId);
  if (!run)
    return new NotFound({
      message: 'This session has no agent and no run to message: start an editor session, or run a workflow',
    });
  if (run.status === 'queued') return new Conflict(`${NOBODY_WAITS}: it has not started yet (it waits for a browser)`);
  // A row still running with no run under way here: between its row and its engine, at its start or end.
  if (run.status === 'running') return new Conflict(`${NOBODY_WAITS}: it is starting or ending, not paused`);
  return new Conflict(`${NOBODY_WAITS}: it has ended (${run.status})`);
}
