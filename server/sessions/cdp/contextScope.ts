import { parseCommand } from './parseCommand.ts';
import type { CdpMessage } from './channel.ts';
import type { Verdict } from './policy.ts';

/**
 * The rules of a context session's CDP view (CdpHub.scoped): its channels drive one browser
 * context of a browser other sessions share, so that Playwright's connectOverCDP and Puppeteer's
 * connect see that context as their default one and nothing else.
 *
 * Why the default context: Playwright never asks which contexts exist and files a target of a
 * context it did not make under its default context; Puppeteer asks (Target.getBrowserContexts),
 * and files a target of a context it was not told of under its default one. So answering that
 * there are no contexts, and forcing this context wherever a command names one or would fall to
 * the browser's default, makes both libraries' default context this session's context.
 *
 * What lives here is pure: the verdict on a command, and what of an answer or event the client may
 * see. The hub (hub.ts) keeps commands in order while a target's context is looked up, and lets go
 * of targets that auto-attach caught in other contexts.
 */

/** The browser's own target: seen by every client (Puppeteer keeps it), belongs to no context. */
const BROWSER_TARGET = 'browser';

/** Commands that name a target: they reach it only when it is in the session's context. */
const NAMES_TARGET = new Set([
  'Target.attachToTarget',
  'Target.closeTarget',
  'Target.activateTarget',
  'Target.getTargetInfo',
  'Target.autoAttachRelated',
  'Browser.getWindowForTarget',
]);

/** Commands whose browserContextId is always the session's (absent, Chromium takes its default context). */
const FORCES_CONTEXT = new Set([
  'Target.createTarget',
  'Storage.getCookies',
  'Storage.setCookies',
  'Storage.clearCookies',
  'Browser.setDownloadBehavior',
  'Browser.cancelDownload',
  'Browser.grantPermissions',
  'Browser.resetPermissions',
  'Browser.setPermission',
]);

const COOKIES = new Set(['Storage.getCookies', 'Storage.setCookies', 'Storage.clearCookies']);

/** Commands that name a browser window: only windows this view was told of (Browser.getWindowForTarget of its own targets). */
const NAMES_WINDOW = new Set(['Browser.getWindowBounds', 'Browser.setWindowBounds']);

/**
 * The Target and Browser commands a context session may send, on any session: the ones Playwright
 * and Puppeteer send (crBrowser.js, crPage.js; cdp/Browser.js, BrowserContext.js, TargetManager.js),
 * each under the rules above. Every other command of these domains reaches the whole browser.
 */
const TARGET_AND_BROWSER = new Set([
  ...NAMES_TARGET,
  ...FORCES_CONTEXT,
  ...NAMES_WINDOW,
  'Target.getBrowserContexts',
  'Target.getTargets',
  'Target.setAutoAttach',
  'Target.setDiscoverTargets',
  'Target.attachToBrowserTarget',
  'Target.detachFromTarget',
  'Target.sendMessageToTarget',
  'Browser.getVersion',
  'Browser.close',
]);

/**
 * What a browser session (the channel's own, or one it attached with Target.attachToBrowserTarget)
 * may send at all: Target and Browser as above and the context's cookies. Anything else there acts
 * on the whole browser (Fetch and Network interception of every context, Security's certificate
 * override, Emulation's screens, SystemInfo, Tracing, Memory), so it is refused.
 */
const BROWSER_SESSION = new Set([...TARGET_AND_BROWSER, ...COOKIES]);

/** Refused on every session: each reaches past the context (every process, every context's frames). */
const REFUSED_DOMAINS = ['SystemInfo.', 'Tracing.'];
const REFUSED = new Set(['Memory.simulatePressureNotification', 'Memory.setPressureNotificationsSuppressed']);

/**
 * Inside Target.sendMessageToTarget: commands whose answer or events this view would have to rewrite
 * there, and a browser session opened there (its traffic would never pass the browser session's rules).
 */
const NOT_WRAPPED = new Set([
  'Target.attachToBrowserTarget',
  'Target.getBrowserContexts',
  'Target.getTargets',
  'Target.setDiscoverTargets',
  'Browser.close',
]);

/**
 * What a context session's pages may be sent to by Target.createTarget and Page.navigate (which
 * Chromium runs as the browser's own navigations, past the rules that keep a web page from them).
 * A precaution more than a found hole: every context of a shared browser runs as one user, so
 * file: could reach other sessions' folders (tried: Chromium answered ERR_FILE_NOT_FOUND for another
 * session's download, which nothing here guarantees), and chrome: pages show browser-wide facts
 * (chrome://process-internals counts every profile's renderers; its frame trees were per profile).
 */
const OPENABLE_SCHEMES = new Set(['http:', 'https:', 'data:', 'blob:']);
const OPENABLE_ABOUT = new Set(['about:blank', 'about:srcdoc']);
const URL_MESSAGE =
  'A context session opens http, https, data and blob URLs and about:blank only (it shares its browser, files and internal pages with other sessions)';

function openable(url: unknown): boolean {
  if (url === undefined) return true; // Chromium's own default: about:blank
  if (typeof url !== 'string') return false;
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return false;
  }
  if (OPENABLE_SCHEMES.has(parsed.protocol)) return true;
  return parsed.protocol === 'about:' && OPENABLE_ABOUT.has(`about:${parsed.pathname}`);
}

const UNKNOWN_TARGET = 'No target with given id found';
const INVALID_PARAMS = -32602;

export const notOnContextSession = (method: string) =>
  `${method} is not available on a context session: it shares its browser with other sessions, and this would reach them`;

/**
 * What the view knows of targets: the context of each it has seen (targets never change context,
 * and their ids are never reused), the frames of its own pages, and the windows of its own targets.
 * Shared by the channels of one view; bounded, oldest forgotten first.
 */
export class ScopeKnowledge {
  private static readonly MAX = 10_000;
  private readonly contexts = new Map<string, string | null>();
  private readonly frames = new Set<string>();
  private readonly browsers = new Set<string>();
  readonly windows = new Set<number>();

  constructor(readonly browserContextId: string) {}

  /** The target's context: its id, null (none: the browser, or gone), undefined (not known yet). */
  contextOf(targetId: string): string | null | undefined {
    return this.contexts.get(targetId);
  }

  learn(info: { targetId?: unknown; browserContextId?: unknown; type?: unknown }): void {
    if (typeof info.targetId !== 'string') return;
    bounded(this.contexts, ScopeKnowledge.MAX);
    this.contexts.set(info.targetId, typeof info.browserContextId === 'string' ? info.browserContextId : null);
    if (info.type === BROWSER_TARGET) this.browsers.add(info.targetId);
  }

  /** The browser's own target (one per browser; a client may attach to it as to a browser session). */
  isBrowser(targetId: string): boolean {
    return this.browsers.has(targetId);
  }

  ours(targetId: string): boolean {
    return this.contexts.get(targetId) === this.browserContextId;
  }

  learnFrame(frameId: unknown): void {
    if (typeof frameId !== 'string') return;
    bounded(this.frames, ScopeKnowledge.MAX);
    this.frames.add(frameId);
  }

  /** A page's main frame has its target's id; other frames are known from the session's own Page events. */
  frameIsOurs(frameId: unknown): boolean {
    return typeof frameId === 'string' && (this.frames.has(frameId) || this.ours(frameId));
  }
}

function bounded(set: Set<string> | Map<string, unknown>, max: number): void {
  if (set.size < max) return;
  const oldest = set.keys().next().value;
  if (oldest !== undefined) set.delete(oldest);
}

/** The view's verdict on one command: the policy's, or an answer given in Chromium's stead, or the targets to look up first. */
export type ScopeVerdict =
  | Verdict
  | { ok: 'answer'; result: Record<string, unknown>; browserClose?: true }
  | { ok: 'lookup'; targetIds: string[] }
  /** Target.attachToTarget of the browser's own target: what it opens is a browser session (Puppeteer's browser.target().createCDPSession()). */
  | { ok: 'browserAttach' }
  | { ok: false; message: string; code: number };

export interface ScopeCommandContext {
  knowledge: ScopeKnowledge;
  /** True when the command goes to a browser session (not a page's, worker's or tab's). */
  browserSession: boolean;
  /** Nesting inside Target.sendMessageToTarget (0: the command itself). */
  wrapping?: number;
  /** True for the channel's browser sessions (a wrapped command on one is a browser session's). */
  isBrowserSession?: (sessionId: string) => boolean;
}

/** A context session's rules over one command (the session's policy, policy.ts, is applied after these). */
export function scopeCommand(method: string, params: Record<string, unknown>, ctx: ScopeCommandContext): ScopeVerdict {
  const verdict = rules(method, params, ctx);
  if (verdict.ok !== true) return verdict;
  // Whatever else names a context (a command not listed above, a stray field) names the session's.
  const going = verdict.params ?? params;
  const ours = ctx.knowledge.browserContextId;
  return 'browserContextId' in going && going.browserContextId !== ours
    ? { ok: true, params: { ...going, browserContextId: ours } }
    : verdict;
}

function rules(method: string, params: Record<string, unknown>, ctx: ScopeCommandContext): ScopeVerdict {
  const { knowledge, browserSession } = ctx;
  const wrapping = ctx.wrapping ?? 0;
  const refused = { ok: false as const, message: notOnContextSession(method) };
  if (REFUSED.has(method) || REFUSED_DOMAINS.some((d) => method.startsWith(d))) return refused;
  if (browserSession && !BROWSER_SESSION.has(method)) return refused;
  if ((method.startsWith('Target.') || method.startsWith('Browser.')) && !TARGET_AND_BROWSER.has(method))
    return refused;
  if (wrapping > 0 && NOT_WRAPPED.has(method))
    return { ok: false, message: `${method} cannot be wrapped in Target.sendMessageToTarget on a context session` };

  // A command naming a target (NAMES_TARGET, or any other with a targetId) reaches the session's
  // targets only; without one, getTargetInfo and getWindowForTarget answer about their own session.
  const targetId = params.targetId;
  if (typeof targetId === 'string') {
    const context = knowledge.contextOf(targetId);
    if (context === undefined) return { ok: 'lookup', targetIds: [targetId] };
    const browserTarget = knowledge.isBrowser(targetId);
    if (browserTarget && method === 'Target.attachToTarget' && wrapping === 0) return { ok: 'browserAttach' };
    if (!(browserTarget && method === 'Target.getTargetInfo') && context !== knowledge.browserContextId)
      return { ok: false, message: UNKNOWN_TARGET, code: INVALID_PARAMS };
  }
  if ((method === 'Target.createTarget' || method === 'Page.navigate') && !openable(params.url))
    return { ok: false, message: URL_MESSAGE };
  if (FORCES_CONTEXT.has(method)) {
    if (browserSession) return { ok: true, params: { ...params, browserContextId: knowledge.browserContextId } };
    // On a page's (or worker's) session Chromium takes no browserContextId, and Storage's cookie
    // commands there act on the browser's DEFAULT context (the test shows it), not the page's: so
    // these go on the browser session only (Playwright and Puppeteer send them there; a page's own
    // cookies are Network.getCookies and the like on its session).
    return { ok: false, message: `${method} is sent on the browser session on a context session` };
  }
  if (NAMES_WINDOW.has(method))
    return typeof params.windowId === 'number' && knowledge.windows.has(params.windowId)
      ? { ok: true }
      : { ok: false, message: 'Browser window not found', code: INVALID_PARAMS };
  switch (method) {
    case 'Target.setAutoAttach':
      // A target of another context caught by auto-attach is let go by its sessionId (flat), at once.
      return browserSession && params.autoAttach === true && params.flatten !== true
        ? { ok: false, message: 'Target.setAutoAttach on a context session must be flat (flatten: true)' }
        : { ok: true };
    case 'Target.getBrowserContexts':
      // None besides the default, which is the session's: the libraries then take the session's
      // context for their default one (see above), and the service's own storage-state export
      // (artifacts/storageOut.ts) reads the session's context as the default one.
      return { ok: 'answer', result: { browserContextIds: [], defaultBrowserContextId: knowledge.browserContextId } };
    case 'Browser.close':
      return { ok: 'answer', result: {}, browserClose: true };
    case 'Target.sendMessageToTarget':
      return wrapped(params, ctx, wrapping);
    default:
      return { ok: true };
  }
}

/** The wrapped command meets the same rules, on the session it is sent to; rewritten parameters are wrapped again. */
function wrapped(params: Record<string, unknown>, ctx: ScopeCommandContext, wrapping: number): ScopeVerdict {
  if (typeof params.message !== 'string') return { ok: true }; // the policy refuses it
  const inner = parseCommand(params.message);
  if (!inner.ok) return { ok: true }; // the policy refuses it, naming why
  const { id, method, params: innerParams = {}, sessionId } = inner.command;
  const on = typeof params.sessionId === 'string' && (ctx.isBrowserSession?.(params.sessionId) ?? false);
  const verdict = scopeCommand(method, innerParams, { ...ctx, browserSession: on, wrapping: wrapping + 1 });
  if (verdict.ok !== true) return verdict;
  if (!verdict.params) return { ok: true };
  const message = JSON.stringify({
    id,
    method,
    params: verdict.params,
    ...(sessionId !== undefined ? { sessionId } : {}),
  });
  return { ok: true, params: { ...params, message } };
}

/** What of an answer the client sees: Target.getTargets lists the context's targets (and the browser's own) only. */
export function scopeResult(
  method: string,
  result: Record<string, unknown> | undefined,
  knowledge: ScopeKnowledge,
): Record<string, unknown> | undefined {
  if (!result) return result;
  switch (method) {
    case 'Target.getTargets': {
      const infos = Array.isArray(result.targetInfos) ? (result.targetInfos as TargetInfo[]) : [];
      for (const info of infos) knowledge.learn(info);
      return { ...result, targetInfos: infos.filter((info) => visible(info, knowledge)) };
    }
    case 'Target.getTargetInfo':
      if (isInfo(result.targetInfo)) knowledge.learn(result.targetInfo);
      return result;
    case 'Target.createTarget':
      knowledge.learn({ targetId: result.targetId, browserContextId: knowledge.browserContextId });
      return result;
    case 'Browser.getWindowForTarget':
      if (typeof result.windowId === 'number') knowledge.windows.add(result.windowId);
      return result;
    default:
      return result;
  }
}

interface TargetInfo {
  targetId?: unknown;
  type?: unknown;
  browserContextId?: unknown;
}

const isInfo = (v: unknown): v is TargetInfo => typeof v === 'object' && v !== null;

function visible(info: TargetInfo, knowledge: ScopeKnowledge): boolean {
  return info.type === BROWSER_TARGET || info.browserContextId === knowledge.browserContextId;
}

/**
 * What becomes of one event for a channel of the view: forwarded, dropped, or (a target of another
 * context that auto-attach caught on a browser session) let go: the hub resumes it, in case it waits
 * for a debugger, and detaches it, so no other session's page is ever held by this one.
 */
export type EventFate = 'forward' | 'drop' | 'release' | 'browser';

export interface ScopeEventContext {
  knowledge: ScopeKnowledge;
  /** The event came on one of the channel's browser sessions. */
  browserSession: boolean;
  /** The channel holds this target session (Target.detachedFromTarget of one it never held is not its news). */
  holds: (sessionId: string) => boolean;
  /** Downloads the channel's client was told of (their progress follows). */
  downloads: Set<string>;
}

export function scopeEvent(msg: CdpMessage, ctx: ScopeEventContext): EventFate {
  const { knowledge } = ctx;
  const params = msg.params ?? {};
  switch (msg.method) {
    case 'Target.targetCreated':
    case 'Target.targetInfoChanged': {
      if (!isInfo(params.targetInfo)) return 'drop';
      knowledge.learn(params.targetInfo);
      return visible(params.targetInfo, knowledge) ? 'forward' : 'drop';
    }
    case 'Target.targetDestroyed':
    case 'Target.targetCrashed':
      // Only the targets it was told of (their ids are kept: every channel of the view hears of it).
      return typeof params.targetId === 'string' && knowledge.ours(params.targetId) ? 'forward' : 'drop';
    case 'Target.attachedToTarget': {
      if (!isInfo(params.targetInfo)) return 'drop';
      const info = params.targetInfo;
      knowledge.learn(info);
      if (info.browserContextId === knowledge.browserContextId) return 'forward';
      // The browser's own target, which the channel attached to itself (the guard marks it a browser session).
      if (info.type === BROWSER_TARGET) return 'browser';
      // A page's own children (its frames and workers) are in its context whether Chromium says so or not.
      if (!ctx.browserSession && info.browserContextId === undefined) return 'forward';
      return 'release';
    }
    case 'Target.detachedFromTarget':
      return typeof params.sessionId === 'string' && !ctx.holds(params.sessionId) ? 'drop' : 'forward';
    case 'Page.frameAttached':
      knowledge.learnFrame(params.frameId);
      return 'forward';
    case 'Page.frameNavigated':
      knowledge.learnFrame((params.frame as { id?: unknown } | undefined)?.id);
      return 'forward';
    case 'Browser.downloadWillBegin':
      // Chromium tells every browser session of every context's downloads: only those of this
      // context's frames go on (its pages' main frames, and frames its own pages reported).
      if (!knowledge.frameIsOurs(params.frameId)) return 'drop';
      if (typeof params.guid === 'string') ctx.downloads.add(params.guid);
      return 'forward';
    case 'Browser.downloadProgress': {
      const guid = typeof params.guid === 'string' ? params.guid : '';
      if (!ctx.downloads.has(guid)) return 'drop';
      if (params.state === 'completed' || params.state === 'canceled') ctx.downloads.delete(guid);
      return 'forward';
    }
    default:
      return 'forward';
  }
}
