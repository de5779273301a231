import { SessionStateEnum, type EndReason, type SessionState } from '../../../contract/sessions.ts';

/** The list's state filter as it sits in the URL (?state=live), so a reload or a shared link keeps it. */
export function readStateFilter(params: URLSearchParams): SessionState | undefined {
  const parsed = SessionStateEnum.safeParse(params.get('state'));
  return parsed.success ? parsed.data : undefined;
}

export const STATE_FILTER_OPTIONS: { value: SessionState | ''; label: string }[] = [
  { value: '', label: 'All states' },
  { value: 'live', label: 'Live' },
  { value: 'starting', label: 'Starting' },
  { value: 'ended', label: 'Ended' },
];

/** What an empty list says, so a filter that hides everything is not mistaken for no sessions at all. */
export function emptyListText(state: SessionState | undefined): string {
  return state
    ? `No ${state} sessions. Choose “All states” to see the others.`
    : 'No sessions yet. Launch one with the form below.';
}

/** Why a session ended, in words (also what the search matches). */
export const END_REASON_TEXT: Record<EndReason, string> = {
  stopped: 'stopped',
  timed_out: 'timed out',
  completed: 'completed',
  crashed: 'crashed',
  failed_to_start: 'failed to start',
};

/** The columns the list sorts by (?sort=<id>:asc|desc); newest first when none is chosen. */
export const SESSION_SORT_COLUMNS = ['workflow', 'state', 'end_reason', 'started', 'duration'] as const;
export const SESSION_DEFAULT_SORT = [{ id: 'started', desc: true }];
