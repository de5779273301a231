import { useNavigate } from 'react-router';
import { SESSION_TIMEOUT_DEFAULT } from '../../../contract/sessions.ts';
import { isStatus } from '../../api/errors.ts';
import { useStartEditorSession, type StartEditorSessionBody } from '../../api/agent/start-editor-session.ts';
import { ErrorNotice } from '../../components/ErrorNotice.tsx';
import { rememberSession } from '../sessions/session-memory.ts';
import { AgentStartForm } from './AgentStartForm.tsx';
import './agent.css';

/** /agent: start an editor session (a workflow, a live browser on a URL and an agent to talk to). */
export function AgentStartPage() {
  const start = useStartEditorSession();
  const navigate = useNavigate();
  const onStart = async (body: StartEditorSessionBody) => {
    const started = await start.mutateAsync(body);
    // Its live-view URLs carry tokens the server keeps only hashed: kept for this tab, as the launcher does.
    rememberSession({
      session_id: started.session_id,
      workflow_id: started.workflow_id,
      vnc_url: started.vnc_url,
      livestream_url: started.livestream_url,
      connect_url: started.connect_url,
      workflow_name: body.name.trim(),
      created_at: new Date().toISOString(),
      timeout: SESSION_TIMEOUT_DEFAULT,
    });
    await navigate(`/agent/${started.session_id}`);
  };
  const error = start.error;
  return (
    <>
      <h1>Agent</h1>
      <p className="lead">
        Tell an agent in plain words what to do in a live browser. You watch it work, answer its questions, and what it
        does is saved as a workflow that replays without a model.
      </p>
      <AgentStartForm onStart={onStart} />
      {start.isError && !isStatus(error, 422) && (
        <ErrorNotice
          error={error}
          title={
            isStatus(error, 503)
              ? 'No model is configured for the agent.'
              : isStatus(error, 429)
                ? 'Too many sessions are running.'
                : 'The agent did not start.'
          }
        >
          {isStatus(error, 503) && (
            <p>
              The agent uses the Writer&apos;s model: set <code>WRITER_PROVIDER</code>, <code>WRITER_MODEL</code> (and{' '}
              <code>WRITER_BASE_URL</code> or <code>WRITER_API_KEY</code> as your provider needs) on the server and
              restart it. See the README, “Configuration (environment)”.
            </p>
          )}
          {isStatus(error, 429) && <p>End a session you no longer need under Sessions, then try again.</p>}
        </ErrorNotice>
      )}
    </>
  );
}
