import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ScopeKnowledge, scopeCommand, type ScopeVerdict } from '../server/sessions/cdp/contextScope.ts';

/**
 * The context view's rules (sessions/cdp/contextScope.ts) as properties over any command, plain or
 * wrapped in Target.sendMessageToTarget: whatever passes names no context but the session's, no
 * other context's target, and nothing refused. Pure functions: no browser needed (test/cdpScope.test.ts
 * and test/security/contextSessionAttacks.test.ts check the same on a real Chromium).
 */
const OURS = 'CONTEXT-OURS';
const THEIRS = 'CONTEXT-THEIRS';
const OUR_PAGE = 'PAGE-OURS';
const THEIR_PAGE = 'PAGE-THEIRS';
const BROWSER = 'BROWSER-TARGET';

function knowledge(): ScopeKnowledge {
  const k = new ScopeKnowledge(OURS);
  k.learn({ targetId: OUR_PAGE, browserContextId: OURS, type: 'page' });
  k.learn({ targetId: THEIR_PAGE, browserContextId: THEIRS, type: 'page' });
  k.learn({ targetId: BROWSER, type: 'browser' });
  return k;
}

const METHODS = [
  'Target.attachToTarget',
  'Target.closeTarget',
  'Target.activateTarget',
  'Target.getTargetInfo',
  'Target.autoAttachRelated',
  'Target.createTarget',
  'Target.createBrowserContext',
  'Target.disposeBrowserContext',
  'Target.getBrowserContexts',
  'Target.getTargets',
  'Target.setAutoAttach',
  'Target.exposeDevToolsProtocol',
  'Target.openDevTools',
  'Browser.getWindowForTarget',
  'Browser.setDownloadBehavior',
  'Browser.grantPermissions',
  'Browser.setPermission',
  'Browser.resetPermissions',
  'Browser.cancelDownload',
  'Browser.close',
  'Browser.crash',
  'Browser.setWindowBounds',
  'Storage.getCookies',
  'Storage.setCookies',
  'Storage.clearCookies',
  'Storage.clearDataForOrigin',
  'SystemInfo.getProcessInfo',
  'Tracing.start',
  'Fetch.enable',
  'Page.navigate',
  'Runtime.evaluate',
  'Memory.simulatePressureNotification',
];
const REFUSED_ALWAYS = new Set([
  'Target.createBrowserContext',
  'Target.disposeBrowserContext',
  'Target.exposeDevToolsProtocol',
  'Target.openDevTools',
  'Browser.crash',
  'SystemInfo.getProcessInfo',
  'Tracing.start',
  'Memory.simulatePressureNotification',
]);

const command = fc.record({
  method: fc.constantFrom(...METHODS),
  params: fc.record(
    {
      targetId: fc.constantFrom(OUR_PAGE, THEIR_PAGE, BROWSER, 'UNSEEN'),
      browserContextId: fc.constantFrom(OURS, THEIRS, ''),
      url: fc.constantFrom('about:blank', 'http://example.test/', 'file:///etc/passwd', 'chrome://inspect'),
      windowId: fc.nat(5),
      autoAttach: fc.boolean(),
      flatten: fc.boolean(),
    },
    { requiredKeys: [] },
  ),
  browserSession: fc.boolean(),
  wraps: fc.nat(3),
});

/** The command as sent, wrapped `wraps` times in Target.sendMessageToTarget on session "S". */
function sent(method: string, params: Record<string, unknown>, wraps: number) {
  let m = method;
  let p = params;
  for (let i = 0; i < wraps; i++) {
    p = { sessionId: 'S', message: JSON.stringify({ id: 1, method: m, params: p }) };
    m = 'Target.sendMessageToTarget';
  }
  return { method: m, params: p };
}

/** The innermost command of a passed verdict's parameters, as it would go on. */
function innermost(
  method: string,
  params: Record<string, unknown>,
): { method: string; params: Record<string, unknown> } {
  if (method !== 'Target.sendMessageToTarget') return { method, params };
  const inner = JSON.parse(params.message as string) as { method: string; params?: Record<string, unknown> };
  return innermost(inner.method, inner.params ?? {});
}

describe("a context session's CDP rules", () => {
  it('never pass another context, another context’s target, a refused method or a non-web URL, however wrapped', () => {
    fc.assert(
      fc.property(command, ({ method, params, browserSession, wraps }) => {
        const k = knowledge();
        const outer = sent(method, params, wraps);
        const verdict: ScopeVerdict = scopeCommand(outer.method, outer.params, {
          knowledge: k,
          browserSession: wraps ? false : browserSession,
          isBrowserSession: () => browserSession,
        });
        if (params.targetId === 'UNSEEN' && verdict.ok === 'lookup') return; // looked up first, then judged
        if (verdict.ok === false || verdict.ok === 'lookup') return;
        if (verdict.ok === 'answer') {
          expect(['Target.getBrowserContexts', 'Browser.close']).toContain(method);
          expect(wraps).toBe(0);
          return;
        }
        if (verdict.ok === 'browserAttach') {
          expect([method, params.targetId, wraps]).toEqual(['Target.attachToTarget', BROWSER, 0]);
          return;
        }
        const goes = innermost(outer.method, verdict.params ?? outer.params);
        expect(goes.method).toBe(method);
        expect(REFUSED_ALWAYS.has(method)).toBe(false);
        if ('browserContextId' in goes.params) expect(goes.params.browserContextId).toBe(OURS);
        if (goes.params.targetId === THEIR_PAGE && method !== 'Target.createTarget')
          throw new Error(`${method} reached another context's target`);
        if (method === 'Target.createTarget' || method === 'Page.navigate')
          expect(['about:blank', 'http://example.test/', undefined]).toContain(goes.params.url);
        if (browserSession && !wraps)
          expect(['Fetch.enable', 'Runtime.evaluate', 'Page.navigate']).not.toContain(method);
      }),
      { numRuns: 2000 },
    );
  });

  it('answer for Chromium where the libraries need it', () => {
    const k = knowledge();
    const ctx = { knowledge: k, browserSession: true };
    expect(scopeCommand('Target.getBrowserContexts', {}, ctx)).toEqual({
      ok: 'answer',
      result: { browserContextIds: [], defaultBrowserContextId: OURS },
    });
    expect(scopeCommand('Browser.close', {}, ctx)).toEqual({ ok: 'answer', result: {}, browserClose: true });
    expect(scopeCommand('Target.attachToTarget', { targetId: 'UNSEEN' }, ctx)).toEqual({
      ok: 'lookup',
      targetIds: ['UNSEEN'],
    });
  });
});
