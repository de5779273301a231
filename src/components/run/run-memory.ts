/**
 * What the run answer said that the status endpoint does not (the vnc_url to watch), kept in
 * sessionStorage so the progress page survives a reload.
 */
export interface RememberedRun {
  vncUrl: string;
  workflowName?: string;
}

const key = (sessionId: string) => `browserdesk.run.${sessionId}`;

export function rememberRun(sessionId: string, run: RememberedRun): void {
  try {
    sessionStorage.setItem(key(sessionId), JSON.stringify(run));
  } catch {
    // storage full or disabled: the page still works, without the live view after a reload
  }
}

export function recallRun(sessionId: string): RememberedRun | null {
  try {
    const raw = sessionStorage.getItem(key(sessionId));
    const v = raw ? (JSON.parse(raw) as Partial<RememberedRun>) : null;
    return v && typeof v.vncUrl === 'string' ? { vncUrl: v.vncUrl, workflowName: v.workflowName } : null;
  } catch {
    return null;
  }
}
