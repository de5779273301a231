import { useNavigate } from 'react-router';
import { SESSION_TIMEOUT_DEFAULT, type CreateWorkflowSessionRequest } from '../../contract/sessions.ts';
import { useCreateSession } from '../api/sessions/create-session.ts';
import { rememberSession } from '../lib/session-memory.ts';

/**
 * Create a live session and take the person to its page: its live-view URLs (tokens the server keeps
 * only hashed) are remembered for this tab first. `create` is the mutation, for its error.
 */
export function useLaunchSession() {
  const create = useCreateSession();
  const navigate = useNavigate();
  const launch = async (body: CreateWorkflowSessionRequest) => {
    const created = await create.mutateAsync(body);
    rememberSession({
      ...created,
      workflow_name: body.workflow_name,
      created_at: new Date().toISOString(),
      timeout: body.timeout ?? SESSION_TIMEOUT_DEFAULT,
      profile: body.profile,
    });
    await navigate(`/sessions/${created.session_id}`);
  };
  return { launch, create };
}
