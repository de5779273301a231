import {
  SessionStateEnum,
  type EndReason,
  type Session,
  type SessionSortField,
  type SessionState,
} from '../../../contract/sessions.ts';

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
    : 'No sessions yet: Launch browser, above, starts one.';
}

/** Why a session ended, in words (also what the search matches). */
export const END_REASON_TEXT: Record<EndReason, string> = {
  stopped: 'stopped',
  timed_out: 'timed out',
  completed: 'completed',
  crashed: 'crashed',
  failed_to_start: 'failed to start',
};

/**
 * Why a session ended, in words: a run's session ends "completed" when its run finishes, failed or
 * not, so then the run's outcome is what it says ("run failed"). Undefined while it has not ended.
 */
export function endReasonText(s: Pick<Session, 'end_reason' | 'run'>): string | undefined {
  if (!s.end_reason) return undefined;
  const outcome = s.run?.status;
  if (s.end_reason === 'completed' && (outcome === 'succeeded' || outcome === 'failed')) return `run ${outcome}`;
  return END_REASON_TEXT[s.end_reason];
}

/** Whether the list marks the session as gone wrong: it crashed, never started, or its run failed. */
export const endedBadly = (s: Pick<Session, 'end_reason' | 'run'>) =>
  s.end_reason === 'crashed' ||
  s.end_reason === 'failed_to_start' ||
  (s.end_reason !== null && s.run?.status === 'failed');

/** The columns the list sorts by (?sort=<id>:asc|desc); newest first when none is chosen. */
export const SESSION_SORT_COLUMNS = ['workflow', 'state', 'end_reason', 'started', 'duration'] as const;
export const SESSION_DEFAULT_SORT = [{ id: 'started', desc: true }];
/** Each sortable column as the field GET /sessions sorts by. */
export const SESSION_SEARCH_COLUMNS = {
  sortable: SESSION_SORT_COLUMNS,
  defaultSort: SESSION_DEFAULT_SORT,
  fieldOf: {
    workflow: 'workflow_name',
    state: 'state',
    end_reason: 'end_reason',
    started: 'created_at',
    duration: 'duration',
  } satisfies Record<(typeof SESSION_SORT_COLUMNS)[number], SessionSortField>,
};
