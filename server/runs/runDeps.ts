import type { ProfileService } from '../profiles/profileService.ts';
import type { Artifacts } from '../artifacts/service.ts';
import type { Config } from '../config.ts';
import type { CredentialsService } from '../credentials/service.ts';
import type { SessionEventLog } from '../sessionEvents/log.ts';
import type { RunsRepo } from '../store/runs.ts';
import type { SessionsRepo } from '../store/sessions.ts';
import type { WebhookDispatcher } from '../webhooks/dispatcher.ts';
import type { WorkflowService } from '../workflows/workflowService.ts';
import type { ActiveRuns } from './activeRuns.ts';
import type { RunQueue, RunQueueDeps } from './queue/runQueue.ts';
import type { RunFolders } from './runFolders.ts';

/** What runs are built from: each service only for what a run does with it. Each part of runs picks its own. */
export interface RunServiceDeps extends RunQueueDeps {
  config: RunQueueDeps['config'] &
    Pick<Config, 'dataDir' | 'DATABASE_URL' | 'BROWSER_ALLOW_PRIVATE_NETWORKS' | 'WEBHOOK_ALLOW_PRIVATE'>;
  workflows: Pick<WorkflowService, 'get' | 'runFactsOf'>;
  credentials: Pick<CredentialsService, 'missing' | 'revealForRun'>;
  profiles: Pick<ProfileService, 'exists'>;
  webhooks: Pick<WebhookDispatcher, 'enqueue'>;
  sessionEvents: Pick<SessionEventLog, 'append'>;
  artifacts: Pick<Artifacts, 'files'>;
  /** The session's recording file, when one was kept. */
  recordings: { fileOf(sessionId: string): string | null };
  /** The store's runs and sessions, built once by the composition root (services.ts). */
  runRows: RunsRepo;
  sessionRows: SessionsRepo;
}

/** What the parts of runs share among themselves (RunService builds each once). */
export interface RunParts {
  runRows: RunsRepo;
  sessionRows: SessionsRepo;
  folders: RunFolders;
  active: ActiveRuns;
  queue: RunQueue;
}
