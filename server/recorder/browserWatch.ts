import { randomBytes } from 'node:crypto';
import { CdpClient } from '../sessions/cdp/client.ts';
import type { ChannelSource } from '../sessions/cdp/channel.ts';
import { pageScript } from './pageScript.ts';
import type { Origin } from './recording.ts';

export interface WatchHandlers {
  /** One binding call from the recording's isolated world, its payload unread. */
  message(payload: string, from: Origin): void;
  /** A tab's main frame navigated. */
  navigated(tab: string, url: string): void;
}

export interface BrowserWatch {
  /** The tab the person sees: the first page target. */
  mainTab: string;
  mainUrl: string;
  viewport?: { width: number; height: number; deviceScaleFactor: number };
  stop(): void;
}

interface Attached {
  /** The tab this target is, or belongs to (an out-of-process frame's tab). */
  tab: string;
  isPage: boolean;
  /** Execution contexts of the recording's isolated world in this target. */
  worlds: Set<number>;
}

interface TargetInfo {
  targetId: string;
  type: string;
  url: string;
}

/** Chromium's own accessibility roles (StaticText, LabelText, …) and the empty ones name no control. */
const ARIA_ROLE = /^[a-z]+$/;
const ARIA_NOT = new Set(['generic', 'none', 'presentation', 'paragraph']);
const ARIA_READ_TIMEOUT_MS = 2_000;
const ignore = () => undefined;

/**
 * The browser side of a recording, on its own channel of the session's hub: every tab and frame
 * (auto-attach, new tabs and popups held until set up) gets a binding and the page script, both in
 * an isolated world whose name and binding name are random per recording. The page's own scripts
 * run in the main world and cannot reach either; a binding call is taken only from an execution
 * context the browser said is that world. Selectors come from the page script; the aria one, which
 * needs the accessibility tree, is read here over CDP, as puppeteer's aria/ query will find it.
 */
export async function watchBrowser(hub: ChannelSource, handlers: WatchHandlers): Promise<BrowserWatch> {
  const world = `bd-recorder-${randomBytes(8).toString('hex')}`;
  const binding = `__bdRecorder_${randomBytes(8).toString('hex')}`;
  const state = `__bdRecorderState_${randomBytes(8).toString('hex')}`;
  const source = pageScript({ state, binding });
  const cdp = await CdpClient.open(hub);
  const attached = new Map<string, Attached>();
  const urls = new Map<string, string>();
  const pageSessions = new Map<string, string>();

  const setUp = async (sessionId: string, isPage: boolean) => {
    await cdp.send('Runtime.enable', {}, sessionId);
    if (isPage) await cdp.send('Page.enable', {}, sessionId);
    await cdp.send('Runtime.addBinding', { name: binding, executionContextName: world }, sessionId);
    await cdp.send(
      'Page.addScriptToEvaluateOnNewDocument',
      { source, worldName: world, runImmediately: true },
      sessionId,
    );
    // Out-of-process frames attach under their tab, held until this has run in them too.
    await cdp.send(
      'Target.setAutoAttach',
      { autoAttach: true, waitForDebuggerOnStart: true, flatten: true },
      sessionId,
    );
  };

  cdp.on('Target.attachedToTarget', (params, parent) => {
    const { sessionId, targetInfo } = params as { sessionId: string; targetInfo: TargetInfo };
    const isPage = targetInfo.type === 'page';
    const tab = isPage ? targetInfo.targetId : parent ? attached.get(parent)?.tab : undefined;
    const resume = () => cdp.send('Runtime.runIfWaitingForDebugger', {}, sessionId).catch(ignore);
    if (!tab || (!isPage && targetInfo.type !== 'iframe')) {
      void resume();
      return;
    }
    attached.set(sessionId, { tab, isPage, worlds: new Set() });
    if (isPage) {
      urls.set(tab, targetInfo.url);
      pageSessions.set(tab, sessionId);
    }
    setUp(sessionId, isPage).catch(ignore).finally(resume);
  });
  cdp.on('Target.detachedFromTarget', (params) => {
    const { sessionId } = params as { sessionId: string };
    const gone = attached.get(sessionId);
    attached.delete(sessionId);
    if (gone?.isPage) pageSessions.delete(gone.tab);
  });
  cdp.on('Target.targetInfoChanged', (params) => {
    const { targetInfo } = params as { targetInfo: TargetInfo };
    if (targetInfo.type === 'page') urls.set(targetInfo.targetId, targetInfo.url);
  });
  cdp.on('Runtime.executionContextCreated', (params, sessionId) => {
    const { context } = params as { context: { id: number; name: string } };
    if (context.name === world && sessionId) attached.get(sessionId)?.worlds.add(context.id);
  });
  cdp.on('Runtime.executionContextDestroyed', (params, sessionId) => {
    const { executionContextId } = params as { executionContextId: number };
    if (sessionId) attached.get(sessionId)?.worlds.delete(executionContextId);
  });
  cdp.on('Runtime.executionContextsCleared', (_params, sessionId) => {
    if (sessionId) attached.get(sessionId)?.worlds.clear();
  });
  cdp.on('Runtime.bindingCalled', (params, sessionId) => {
    const { name, payload, executionContextId } = params as {
      name: string;
      payload: string;
      executionContextId: number;
    };
    const from = sessionId ? attached.get(sessionId) : undefined;
    // Only our world's: no other context has the binding, and this says so again.
    if (name !== binding || !from || !from.worlds.has(executionContextId) || typeof payload !== 'string') return;
    handlers.message(payload, {
      tab: from.tab,
      tabUrl: urls.get(from.tab) ?? '',
      document: `${sessionId}:${executionContextId}`,
      ...(from.isPage ? { aria: (seq: number) => ariaOf(cdp, sessionId!, executionContextId, state, seq) } : {}),
    });
  });
  cdp.on('Page.frameNavigated', (params, sessionId) => {
    const { frame } = params as { frame: { parentId?: string; url: string; urlFragment?: string } };
    const from = sessionId ? attached.get(sessionId) : undefined;
    if (frame.parentId || !from?.isPage) return;
    urls.set(from.tab, frame.url + (frame.urlFragment ?? ''));
    handlers.navigated(from.tab, frame.url + (frame.urlFragment ?? ''));
  });

  try {
    await cdp.send('Target.setDiscoverTargets', { discover: true });
    await cdp.send('Target.setAutoAttach', { autoAttach: true, waitForDebuggerOnStart: true, flatten: true });
    const { targetInfos } = await cdp.send<{ targetInfos: TargetInfo[] }>('Target.getTargets');
    const main = targetInfos.find((t) => t.type === 'page');
    if (!main) throw new Error('the session has no tab to record');
    const mainSession = pageSessions.get(main.targetId);
    const viewport = mainSession ? await viewportOf(cdp, mainSession).catch(() => undefined) : undefined;
    return {
      mainTab: main.targetId,
      mainUrl: urls.get(main.targetId) ?? main.url,
      ...(viewport ? { viewport } : {}),
      stop: () => cdp.close(),
    };
  } catch (err) {
    cdp.close();
    throw err;
  }
}

async function viewportOf(
  cdp: CdpClient,
  sessionId: string,
): Promise<{ width: number; height: number; deviceScaleFactor: number } | undefined> {
  const { result } = await cdp.send<{ result: { value?: unknown } }>(
    'Runtime.evaluate',
    { expression: '[innerWidth, innerHeight, devicePixelRatio]', returnByValue: true },
    sessionId,
    ARIA_READ_TIMEOUT_MS,
  );
  const [width, height, deviceScaleFactor] = Array.isArray(result.value) ? (result.value as unknown[]) : [];
  if (typeof width !== 'number' || typeof height !== 'number' || typeof deviceScaleFactor !== 'number')
    return undefined;
  if (!(width > 0 && height > 0 && deviceScaleFactor > 0)) return undefined;
  return { width: Math.round(width), height: Math.round(height), deviceScaleFactor };
}

interface AxNode {
  ignored?: boolean;
  role?: { value?: unknown };
  name?: { value?: unknown };
  backendDOMNodeId?: number;
}

/**
 * `aria/Name[role="role"]` for the element the page script kept for this message (by its `seq`),
 * when Chromium's accessibility tree finds exactly that element under that role and name: what
 * puppeteer's aria/ query (Accessibility.queryAXTree) will find on replay. Undefined otherwise.
 */
async function ariaOf(
  cdp: CdpClient,
  sessionId: string,
  contextId: number,
  state: string,
  seq: number,
): Promise<string | undefined> {
  const objectGroup = `bd-recorder-${seq}`;
  const send = <T>(method: string, params: Record<string, unknown>) =>
    cdp.send<T>(method, params, sessionId, ARIA_READ_TIMEOUT_MS);
  try {
    const evaluate = (expression: string) =>
      send<{ result: { objectId?: string } }>('Runtime.evaluate', { expression, contextId, objectGroup });
    // The document's handle is read beside the element's: a navigating click leaves little time.
    const [el, doc] = await Promise.all([
      evaluate(`globalThis[${JSON.stringify(state)}].els[${seq % 32}]`),
      evaluate('document'),
    ]);
    if (!el.result.objectId || !doc.result.objectId) return undefined;
    const { nodes } = await send<{ nodes: AxNode[] }>('Accessibility.getPartialAXTree', {
      objectId: el.result.objectId,
      fetchRelatives: false,
    });
    const node = nodes.find((n) => !n.ignored);
    const role = node?.role?.value;
    const name = node?.name?.value;
    if (typeof role !== 'string' || typeof name !== 'string' || !name.trim()) return undefined;
    // A name that reads like an attribute would be taken apart by puppeteer's aria parser.
    if (!ARIA_ROLE.test(role) || ARIA_NOT.has(role) || /\[\s*\w+\s*=/.test(name) || name.length > 200) return undefined;
    const found = await send<{ nodes: AxNode[] }>('Accessibility.queryAXTree', {
      objectId: doc.result.objectId,
      accessibleName: name,
      role,
    });
    const hits = found.nodes.filter((n) => !n.ignored);
    if (hits.length !== 1 || hits[0]!.backendDOMNodeId !== node!.backendDOMNodeId) return undefined;
    return `aria/${name}[role="${role}"]`;
  } finally {
    cdp.send('Runtime.releaseObjectGroup', { objectGroup }, sessionId).catch(ignore);
  }
}
