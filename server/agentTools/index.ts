import type { Locator, Page } from 'playwright-core';
import { SessionBrowsers } from './browsers.ts';
import { extractTools } from './extract.ts';
import { handoffTools } from './handoff.ts';
import { inputTools } from './input.ts';
import type { AgentToolDeps, ToolKit } from './kit.ts';
import { navigationTools } from './navigation.ts';
import { AgentToolRegistry } from './registry.ts';
import { screenshotTools } from './screenshot.ts';
import { sessionTools } from './sessions.ts';
import { snapshotTools } from './snapshot.ts';
import { SessionSnapshots } from './snapshots.ts';
import { withTabsAndDialogs } from './tabGate.ts';
import { tabTools } from './tabTools.ts';
import { uploadTools } from './upload.ts';
import { waitingTools } from './waiting.ts';
import { workflowTools } from './workflows.ts';
import { dragDropTools } from './dragDrop.ts';
import { evaluateTools } from './evaluate.ts';
import { findTools } from './find.ts';
import { mediaTools } from './media.ts';
import { pdfTools } from './pdf.ts';
import { refusedTools } from './refusals.ts';
import { networkTools } from './network.ts';
import { recorderTools } from './recorder.ts';

export type { AgentToolDeps };

export interface AgentTools {
  registry: AgentToolRegistry;
  /** The page the tools act on in a session (the built-in agent records its steps from it). */
  page(sessionId: string): Promise<Page>;
  /** The element a ref of the session's latest snapshot names; throws ToolError as the tools would. */
  locate(sessionId: string, page: Page, ref: string): Locator;
  /** Each session's latest snapshot, which refs resolve against (the runs' self-healing takes its own). */
  snapshots: SessionSnapshots;
  /** The ref's line in the session's latest snapshot (its role and name), if it is there. */
  lineOf(sessionId: string, ref: string): string | undefined;
  /** Disconnect from every session's browser (the sessions themselves go on). */
  close(): Promise<void>;
}

/** Every agent tool, over one set of connections and snapshots. */
export function createAgentTools(deps: AgentToolDeps): AgentTools {
  const snapshots = new SessionSnapshots();
  const browsers = new SessionBrowsers({
    sessions: deps.sessions,
    endpoint: deps.endpoint,
    known: (id) =>
      deps.records.get(id).then(
        () => true,
        () => false,
      ),
    onTabChange: (id) => snapshots.forget(id),
  });
  const kit: ToolKit = { deps, browsers, snapshots };
  const registry = new AgentToolRegistry(
    {
      isLive: (id) => deps.sessions.get(id)?.state === 'live',
      record: (id, call) => deps.events.append(id, { event: 'AgentToolCall', ...call }),
      log: deps.log,
    },
    [
      ...withTabsAndDialogs(kit, [
        ...sessionTools(kit),
        ...navigationTools(kit),
        ...snapshotTools(kit),
        ...inputTools(kit),
        ...uploadTools(kit),
        ...waitingTools(kit),
        ...screenshotTools(kit),
        ...extractTools(kit),
        ...handoffTools(kit),
        ...workflowTools(kit),
        ...evaluateTools(kit),
        ...dragDropTools(kit),
        ...findTools(kit),
        ...mediaTools(kit),
        ...pdfTools(kit),
        ...networkTools(kit),
        ...tabTools(kit),
        ...recorderTools(kit),
      ]),
      // Refusals need no page: outside the tab gate, they answer why even without a session.
      ...refusedTools(),
    ],
  );
  return {
    registry,
    page: (id) => browsers.page(id),
    locate: (id, page, ref) => page.locator(`aria-ref=${snapshots.resolve(id, ref)}`),
    lineOf: (id, ref) => snapshots.lineOf(id, ref),
    snapshots,
    close: () => browsers.closeAll(),
  };
}
