import type { CreateWorkflowSessionRequest, CreateWorkflowSessionResponse } from '../../contract/sessions.ts';

/**
 * The URLs of a session carry tokens the server keeps only hashed, so they exist only in the
 * create answer. Kept in sessionStorage (this tab, gone when it closes) for the session page.
 */
export interface RememberedSession extends CreateWorkflowSessionResponse {
  workflow_name: string;
  created_at: string;
  timeout: number;
  /** The profile it started from, as asked for (persist: its state is saved back when it ends). */
  profile?: CreateWorkflowSessionRequest['profile'];
}

const key = (id: string) => `browserdesk.session.${id}`;

export function rememberSession(s: RememberedSession): void {
  try {
    sessionStorage.setItem(key(s.session_id), JSON.stringify(s));
  } catch {
    // storage disabled: the session page shows the state without the live view
  }
}

export function recallSession(id: string): RememberedSession | null {
  try {
    const raw = sessionStorage.getItem(key(id));
    return raw ? (JSON.parse(raw) as RememberedSession) : null;
  } catch {
    return null;
  }
}
