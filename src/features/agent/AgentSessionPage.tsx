import { agentHeading } from './agent-heading.ts';
import { useEffect, useMemo } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { Link, useLocation, useParams } from 'react-router';
import { agentKeys } from '../../api/agent/keys.ts';
import { useAgentState } from '../../api/agent/get-agent-state.ts';
import { isStatus } from '../../api/errors.ts';
import { useSessionViews } from '../../api/sessions/create-session-views.ts';
import { useSession } from '../../api/sessions/get-session.ts';
import { useSessionEventStream } from '../../api/sessions/stream-session-events.ts';
import { ErrorNotice } from '../../components/ErrorNotice.tsx';
import { LiveViewPanel } from '../../components/LiveViewPanel.tsx';
import { isolationOf } from '../../lib/isolation.ts';
import { recallSession } from '../../lib/session-memory.ts';
import { AgentChat, agentActivity } from './AgentChat.tsx';
import { agentWorkflowId, chatModel, hasAgentEvents, recordedSteps, stateRevision } from './chat-model.ts';
import { RecordedSteps } from './RecordedSteps.tsx';
import './agent.css';

/** /agent/:sessionId: the live browser beside the chat with its agent, and the steps it recorded. */
export function AgentSessionPage() {
  const { sessionId = '' } = useParams();
  const queryClient = useQueryClient();
  const started = (useLocation().state as { started?: boolean } | null)?.started === true;
  const session = useSession(sessionId);
  const state = useAgentState(sessionId);
  // The conversation is the session's own log: its history first, then each event as it happens.
  const live = useSessionEventStream(sessionId, true);
  const model = useMemo(() => chatModel(live.events), [live.events]);
  const revision = useMemo(() => stateRevision(live.events), [live.events]);
  useEffect(() => {
    if (revision > 0) void queryClient.invalidateQueries({ queryKey: agentKeys.state(sessionId) });
  }, [revision, sessionId, queryClient]);

  const sessionEnded = session.data?.state === 'ended' || live.ended || model.ended || state.data?.status === 'ended';
  const remembered = recallSession(sessionId);
  const views = useSessionViews(sessionId, !remembered && session.data?.state === 'live');
  const urls = remembered ?? views.data;
  const activity = agentActivity(model, state.data, sessionEnded);
  // Its state is asked of the live agent: 404 once an editor session has ended (its log stays), or
  // for a session that never had an agent (a launcher's or a run's); 422 for no session id at all.
  const stateGone = state.isError && (isStatus(state.error, 404) || isStatus(state.error, 422));
  const agentLog = hasAgentEvents(live.events);
  const unknown = stateGone && !agentLog && (live.events.length > 0 || live.ended || live.error !== null);
  const steps = state.data?.steps ?? recordedSteps(live.events);
  const workflowId = state.data?.workflow_id ?? session.data?.workflow_id ?? agentWorkflowId(live.events);
  const name = session.data?.workflow_name ?? remembered?.workflow_name;

  return (
    <div className="live-page">
      <div className="live-head">
        <p className="back">
          <Link to="/agent">← Agent</Link>
        </p>
        <h1>{agentHeading(name)}</h1>
      </div>
      <ul className="stats live-facts">
        <li>
          Session: <Link to={`/sessions/${sessionId}`}>{sessionId.slice(0, 8)}</Link>
        </li>
      </ul>
      {unknown ? (
        <div className="notice error" role="alert">
          <p>
            <strong>No agent in this session.</strong>
          </p>
          <p>
            This server has no editor session with the id <code>{sessionId}</code>. <Link to="/agent">Start one</Link>
            {live.events.length > 0 && (
              <>
                , or see <Link to={`/sessions/${sessionId}`}>the session’s own page</Link>
              </>
            )}
            .
          </p>
        </div>
      ) : (
        <div className="agent-grid">
          <div className="agent-view">
            {sessionEnded ? (
              <p className="notice" role="status">
                This session has ended: its browser is gone. The conversation and the recorded workflow stay.
              </p>
            ) : urls && (urls.vnc_url || urls.livestream_url) ? (
              <LiveViewPanel
                vncUrl={urls.vnc_url}
                livestreamUrl={urls.livestream_url}
                clients={session.data?.clients}
                isolation={isolationOf(session.data)}
              />
            ) : views.isError ? (
              <ErrorNotice error={views.error} title="Could not open the live view." />
            ) : (
              <p className="status" role="status">
                Opening the live view…
              </p>
            )}
          </div>
          <div className="agent-side">
            {state.isError && !stateGone && (
              <ErrorNotice error={state.error} title="Could not read the agent's state." />
            )}
            <AgentChat
              sessionId={sessionId}
              model={model}
              state={state.data}
              activity={activity}
              streamError={live.error}
              focusComposer={started}
            />
          </div>
          <div className="agent-recorded">
            <RecordedSteps steps={steps} workflowId={workflowId} loading={state.isPending} />
          </div>
        </div>
      )}
    </div>
  );
}
