import type { RecorderState } from '../../contract/recorder.ts';
import type { SessionEventInput } from '../../contract/sessionEvents.ts';
import type { RunService } from '../runs/runService.ts';
import type { WorkflowService } from '../workflows/workflowService.ts';
import type { Model } from '../model/model.ts';
import type { Log } from '../log.ts';
import type { PrivateCdpEndpoint } from '../sessions/cdp/privateEndpoint.ts';
import type { PublicUrls } from '../sessions/publicUrls.ts';
import type { SessionRecords } from '../sessions/sessionRecords.ts';
import type { LiveSession, SessionManager } from '../sessions/types.ts';
import type { SessionNetworks } from '../network/sessionNetworks.ts';
import type { SessionBrowsers } from './browsers.ts';
import type { SessionSnapshots } from './snapshots.ts';

/** What the agent tools are built from: plain dependencies, as server/services.ts hands them. */
export interface AgentToolDeps {
  sessions: SessionManager;
  records: SessionRecords;
  /** The URLs a caller is handed (vnc_url, livestream_url), over PUBLIC_URL. */
  urls: PublicUrls;
  /** Where the tools' Playwright reaches a session's browser: a channel of its hub. */
  endpoint: Pick<PrivateCdpEndpoint, 'url'>;
  events: { append(sessionId: string, event: SessionEventInput): void };
  log: Log;
  /** BROWSER_ALLOW_PRIVATE_NETWORKS: to say why a navigation to a private address failed. */
  privateNetworksAllowed: boolean;
  runs: Pick<RunService, 'submit' | 'pause' | 'resume' | 'isRunning' | 'pauseOf'>;
  workflows: Pick<WorkflowService, 'search' | 'list'>;
  /** The files the session downloaded, each with its signed download_url (for the caller). */
  downloads(
    sessionId: string,
  ): { filename: string; file_size: number; download_timestamp: string; download_url: string }[];
  /** The server's one model (MODEL_*), for browser_extract. */
  model: Model;
  /** Keep bytes among the session's downloads (browser_pdf_save), under the downloads' limits. */
  keepFile(
    sessionId: string,
    name: string,
    bytes: Buffer,
  ): Promise<{ filename: string; file_size: number; ok: boolean; reason?: string }>;
  /** Where a file the session downloaded is kept (the service's own folder), by its listed name. */
  keptFile(sessionId: string, filename: string): string | undefined;
  /** Each live session's network and console record (browser_network_requests, browser_console_messages). */
  networks: Pick<SessionNetworks, 'get' | 'redact'>;
  /** Live sessions' recorders (server/recorder/): what a person does, as a workflow. */
  recorders: {
    start(session: LiveSession): Promise<RecorderState>;
    state(sessionId: string): RecorderState;
    stop(sessionId: string): Promise<RecorderState>;
  };
}

/** What every tool group shares: the dependencies, the sessions' connections and their snapshots. */
export interface ToolKit {
  deps: AgentToolDeps;
  browsers: SessionBrowsers;
  snapshots: SessionSnapshots;
}
