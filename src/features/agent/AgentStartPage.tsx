import { useNavigate } from 'react-router';
import { SESSION_TIMEOUT_DEFAULT } from '../../../contract/sessions.ts';
import { isStatus } from '../../api/errors.ts';
import { useServerInfo } from '../../api/meta/get-server-info.ts';
import { useStartEditorSession, type StartEditorSessionBody } from '../../api/agent/start-editor-session.ts';
import { ErrorNotice } from '../../components/ErrorNotice.tsx';
import { rememberSession } from '../../lib/session-memory.ts';
import { AgentStartForm } from './AgentStartForm.tsx';
import './agent.css';

const HOW_TO_CONFIGURE = (
  <p>
    The agent uses the server&apos;s model: set <code>MODEL_PROVIDER</code>, <code>MODEL_NAME</code> (and{' '}
    <code>MODEL_BASE_URL</code> or <code>MODEL_API_KEY</code> as your provider needs) on the server and restart it. See
    the README, “Configuration (environment)”.
  </p>
);

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
    // Started here: the session page puts the cursor in the composer, ready for the first message.
    await navigate(`/agent/${started.session_id}`, { state: { started: true } });
  };
  const error = start.error;
  // Said before anyone fills the form: without a model the agent cannot start (a 503 after the submit otherwise).
  const noModel = useServerInfo().data?.writer_configured === false;
  return (
    <>
      <h1>Agent</h1>
      <p className="lead">
        Tell an agent in plain words what to do in a live browser. You watch it work, answer its questions, and what it
        does is saved as a workflow that replays without a model.
      </p>
      {noModel && (
        <div className="notice warn" role="status">
          <p>
            <strong>No model is configured on this server, so the agent cannot start.</strong>
          </p>
          {HOW_TO_CONFIGURE}
        </div>
      )}
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
          {isStatus(error, 503) && !noModel && HOW_TO_CONFIGURE}
          {isStatus(error, 429) && <p>End a session you no longer need under Sessions, then try again.</p>}
        </ErrorNotice>
      )}
    </>
  );
}
