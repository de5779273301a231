import type { ProfileUse } from '../../contract/profileUse.ts';
import type { SessionIsolation } from '../../contract/sessions.ts';
import type { Flow } from '../../contract/steps.ts';
import type { VariableValues } from './fillTemplate.ts';

/** A validated run, ready to start: nothing has been started yet. */
export interface PreparedRun {
  runId: string;
  workflowId: string;
  /** The stored flow, its placeholders unfilled: the engine fills each step as it runs it, in one pass (fillTemplate.ts). */
  flow: Flow;
  /** The run's variables, checked against the workflow's declarations. */
  variables: VariableValues;
  /** Names of the credentials the flow types; their values are read only when the run starts. */
  credentials: string[];
  totalActions: number;
  filesDir: string;
  metadata?: string;
  webhookUrl?: string;
  /** run_workflow's heal: a click, change or hover step none of whose selectors matches asks the model for the element. */
  heal: boolean;
  /** The profile the run's browser starts from (run_workflow's profile and persist_profile). */
  profile?: ProfileUse;
  /** run_workflow's isolation; unset: the server's SESSION_ISOLATION. */
  isolation?: SessionIsolation;
  /** The API key the run came with: a context session shares a browser with that key's sessions only. */
  apiKeyId?: string | null;
}

/** The session a run asks for. */
export const sessionOf = (run: PreparedRun) => ({
  workflowId: run.workflowId,
  timeoutSeconds: 1200,
  proxies: false,
  forRun: true,
  apiKeyId: run.apiKeyId ?? null,
  ...(run.isolation ? { isolation: run.isolation } : {}),
  ...(run.profile ? { profile: run.profile } : {}),
});
