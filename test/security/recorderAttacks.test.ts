import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chromium, type Browser } from 'playwright-core';
import { RECORDER_MESSAGE_MAX_BYTES, RECORDER_MESSAGES_PER_SECOND, RecorderState } from '../../contract/recorder.ts';
import { Flow } from '../../contract/steps.ts';
import { CreateWorkflowSessionResponse } from '../../contract/sessions.ts';
import { Recording, RECORDER_MAX_STEPS } from '../../server/recorder/recording.ts';
import { startRecorderSite, tabOn, type RecorderSite } from '../fixtures/recorderSite.ts';
import { postJson, startServer, type TestServer } from '../helpers/server.ts';
import { closeLeavingNothing } from '../helpers/teardown.ts';
import { waitForAsync } from '../helpers/wait.ts';

/**
 * Attacks on the recorder (issue 47): a page that forges recorder input (synthetic events, calls
 * of whatever it can find on window, floods) adds no step; a client that reaches the recorder's
 * own binding (only a holder of the session's CDP can) is capped and flagged, and cannot crash the
 * service or make a step that runs code or types a credential on replay.
 */

/** Step types the recorder may make: each does what a person did, none runs code. */
const ALLOWED = new Set([
  'setViewport',
  'navigate',
  'click',
  'doubleClick',
  'change',
  'keyDown',
  'keyUp',
  'scroll',
  'hover',
  'customStep',
]);

function assertHarmless(state: RecorderState): void {
  expect(() => Flow.parse(state.flow)).not.toThrow();
  for (const step of state.flow.steps as Record<string, unknown>[]) {
    expect(ALLOWED.has(String(step.type)), JSON.stringify(step)).toBe(true);
    if (step.type === 'customStep') expect(step.name).toBe('uploadFile');
    if (step.type === 'scroll') {
      expect(Object.keys(step).every((k) => ['type', 'x', 'y', 'selectors', 'frame', 'target'].includes(k))).toBe(true);
      for (const n of [step.x, step.y]) expect(Math.abs(n as number)).toBeLessThanOrEqual(10_000_000);
    }
    // A value with {{…}} would be filled from variables or credentials on replay: only the
    // recorder's own declared placeholders may have them.
    if (typeof step.value === 'string' && step.value.includes('{{'))
      expect(state.variables.map((v) => `{{${v.name}}}`)).toContain(step.value);
  }
}

describe('the recorder message edge (fast-check)', () => {
  const message = fc.oneof(
    fc.string({ maxLength: 300 }),
    fc.json({ maxDepth: 4 }),
    fc
      .record(
        {
          kind: fc.constantFrom(
            'click',
            'doubleClick',
            'change',
            'key',
            'upload',
            'pointer',
            'scroll',
            'hover',
            'evaluate',
            'customStep',
          ),
          selectors: fc.oneof(
            fc.array(fc.array(fc.string({ maxLength: 40 }), { maxLength: 3 }), { maxLength: 3 }),
            fc.anything(),
          ),
          seq: fc.oneof(fc.nat(), fc.double(), fc.string()),
          offsetX: fc.oneof(fc.double(), fc.string()),
          offsetY: fc.double(),
          x: fc.oneof(fc.double(), fc.integer(), fc.string()),
          y: fc.oneof(fc.double({ min: -1e8, max: 1e8 }), fc.constant(Number.MAX_VALUE)),
          value: fc.oneof(fc.string({ maxLength: 50 }), fc.constant('{{credentials.bank}}'), fc.anything()),
          secret: fc.oneof(fc.boolean(), fc.anything()),
          field: fc.string({ maxLength: 80 }),
          key: fc.constantFrom('Enter', 'Escape', 'Tab', 'a', 'Control'),
          file: fc.constantFrom('a.txt', '../etc/passwd', '', 'x/y'),
          frame: fc.oneof(fc.array(fc.nat({ max: 5 }), { maxLength: 3 }), fc.anything()),
          expression: fc.constant('alert(1)'),
        },
        { requiredKeys: ['kind'] },
      )
      .map((m) => JSON.stringify(m)),
    // Scrolls shaped as the page script's, with numbers of every kind and code where steps keep it.
    fc
      .record(
        {
          kind: fc.constant('scroll'),
          x: fc.double(),
          y: fc.oneof(fc.integer(), fc.double()),
          selectors: fc.array(fc.array(fc.string({ maxLength: 40 }), { minLength: 1, maxLength: 3 }), {
            minLength: 1,
            maxLength: 3,
          }),
          frame: fc.array(fc.nat({ max: 5 }), { maxLength: 3 }),
          type: fc.constantFrom('waitForExpression', 'scroll'),
          expression: fc.constant('alert(1)'),
        },
        { requiredKeys: ['kind', 'x', 'y'] },
      )
      .map((m) => JSON.stringify(m)),
  );

  it('never throws, and makes only steps that do what a person does', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(message, { maxLength: 60 }), async (raws) => {
        let now = 0;
        const recording = new Recording(
          't',
          'main',
          () => undefined,
          () => (now += 100),
        );
        recording.begin('https://example.com/');
        for (const raw of raws)
          await recording.take(raw, {
            tab: raw.length % 2 ? 'main' : 'other',
            tabUrl: 'https://example.com/x',
            document: 'd',
          });
        assertHarmless(recording.state());
      }),
      { numRuns: 300 },
    );
  });

  it('caps a flood and says so, drops what is too big, and stops at the flow limit', async () => {
    let now = 0;
    const recording = new Recording(
      't',
      'main',
      () => undefined,
      () => now,
    );
    const click = JSON.stringify({ kind: 'click', selectors: [['#a']], seq: 1, offsetX: 1, offsetY: 1 });
    const from = { tab: 'main', tabUrl: 'https://example.com/', document: 'd' };
    for (let i = 0; i < 5000; i++) await recording.take(click, from);
    expect(recording.state().flow.steps).toHaveLength(RECORDER_MESSAGES_PER_SECOND);
    await recording.take('x'.repeat(RECORDER_MESSAGE_MAX_BYTES + 1), from);
    await recording.take('{not json', from);
    const { warnings } = recording.state();
    // The rate check comes first: the last two were over the rate as well.
    expect(warnings.join('\n')).toMatch(/4962 message\(s\) came faster than/);
    now += 10_000;
    await recording.take('x'.repeat(RECORDER_MESSAGE_MAX_BYTES + 1), from);
    await recording.take('{not json', from);
    expect(recording.state().warnings.join('\n')).toMatch(/1 message\(s\) from the page were over 65536 bytes/);
    expect(recording.state().warnings.join('\n')).toMatch(/1 message\(s\) from the page were not recorder messages/);
    for (let i = 0; i < RECORDER_MAX_STEPS + 10; i++) {
      now += 1000;
      await recording.take(click, from);
    }
    expect(recording.state().flow.steps).toHaveLength(RECORDER_MAX_STEPS);
    expect(recording.state().warnings.join('\n')).toMatch(/came after the recording reached 1000 steps/);
  });

  it('never records a typed value that a run would fill from credentials', async () => {
    const recording = new Recording('t', 'main', () => undefined);
    const from = { tab: 'main', tabUrl: 'https://example.com/', document: 'd' };
    const change = (value: string) =>
      JSON.stringify({ kind: 'change', selectors: [['#f']], seq: 1, secret: false, field: 'f', value });
    await recording.take(change('{{credentials.bank}}'), from);
    await recording.take(change('{{ password }}'), from);
    await recording.take(change('plain'), from);
    const state = recording.state();
    expect(state.flow.steps).toEqual([{ type: 'change', selectors: [['#f']], value: 'plain' }]);
    expect(state.warnings.join('\n')).toMatch(/2 typed value\(s\) held \{\{…\}\}/);
  });
});

describe('a hostile page and a client at the binding', () => {
  let server: TestServer;
  let site: RecorderSite;
  let browser: Browser | undefined;
  beforeAll(async () => {
    [server, site] = await Promise.all([startServer(), startRecorderSite()]);
  });
  afterAll(async () => {
    await browser?.close().catch(() => undefined);
    await closeLeavingNothing(server);
    await site?.close();
  });

  const state = async (id: string) => {
    const res = await server.api(`/api/sessions/${id}/recorder`);
    expect(res.status).toBe(200);
    return RecorderState.parse(await res.json());
  };

  it('a page forging clicks, changes, keys, scrolls and binding calls adds no step; the person’s one click is recorded', async () => {
    const res = await postJson(server, '/api/create_workflow_session', {
      workflow_name: 'recorder-attack',
      start_url: `${site.origin}/attack`,
    });
    const session = CreateWorkflowSessionResponse.parse(await res.json());
    const id = session.session_id!;
    expect((await server.api(`/api/sessions/${id}/recorder`, { method: 'POST' })).status).toBe(201);
    browser = await chromium.connectOverCDP(session.connect_url!);
    const page = browser
      .contexts()[0]!
      .pages()
      .find((p) => p.url().includes('/attack'))!;
    // Reloaded under the recorder: its forging starts again with the recorder's script in place.
    await page.reload();
    await page.waitForFunction(() => /forged \d+/.test(document.getElementById('out')!.textContent ?? ''));
    // Several rounds of forging (every 200 ms).
    await new Promise((r) => setTimeout(r, 1500));
    await page.locator('#go').click({ delay: 50 });
    const after = await waitForAsync('the click', async () => {
      const s = await state(id);
      return s.flow.steps.some((step) => step.type === 'click') ? s : undefined;
    });
    await new Promise((r) => setTimeout(r, 500));
    const final = await state(id);
    expect(final.flow.steps.map((s) => s.type)).toEqual(['setViewport', 'navigate', 'click']);
    expect(final.flow.steps).toEqual(after.flow.steps);
    // No forged message even reached the recorder: nothing was dropped, so nothing is flagged.
    expect(final.warnings).toEqual([]);
    assertHarmless(final);
  });

  it('a client that finds the binding in its world is capped and flagged, and the service stays up', async () => {
    const res = await postJson(server, '/api/create_workflow_session', {
      workflow_name: 'recorder-binding',
      start_url: `${site.origin}/`,
    });
    const session = CreateWorkflowSessionResponse.parse(await res.json());
    const id = session.session_id!;
    expect((await server.api(`/api/sessions/${id}/recorder`, { method: 'POST' })).status).toBe(201);
    const own = await chromium.connectOverCDP(session.connect_url!);
    try {
      const page = tabOn(own, site.origin);
      const cdp = await page.context().newCDPSession(page);
      const worlds: number[] = [];
      cdp.on('Runtime.executionContextCreated', ({ context }) => {
        if (context.name.startsWith('bd-recorder-')) worlds.push(context.id);
      });
      await cdp.send('Runtime.enable');
      await waitForAsync('the recorder world', () => worlds[0]);
      const flood = `(() => {
        const send = globalThis[Object.getOwnPropertyNames(globalThis).find((k) => k.startsWith('__bdRecorder_'))];
        const step = JSON.stringify({ kind: 'click', selectors: [['#x']], seq: 0, offsetX: 1, offsetY: 1 });
        const code = JSON.stringify({ kind: 'click', type: 'waitForExpression', expression: 'alert(1)', selectors: [['#x']], seq: 0, offsetX: 1, offsetY: 1 });
        send('x'.repeat(${RECORDER_MESSAGE_MAX_BYTES} * 4));
        send('{"kind":');
        send(code);
        for (let i = 0; i < 5000; i++) send(step);
        return true;
      })()`;
      const began = Date.now();
      const out = await cdp.send('Runtime.evaluate', { expression: flood, contextId: worlds[0]!, returnByValue: true });
      expect(out.result.value).toBe(true);
      const capped = await waitForAsync('the flood flagged', async () => {
        const s = await state(id);
        return s.warnings.some((w) => /faster than/.test(w)) ? s : undefined;
      });
      // At most the rate's burst, plus the rate for the time the flood took to arrive.
      const seconds = (Date.now() - began) / 1000;
      const clicks = capped.flow.steps.filter((s) => s.type === 'click');
      expect(clicks.length).toBeLessThanOrEqual(RECORDER_MESSAGES_PER_SECOND * (1 + seconds));
      expect(clicks.length).toBeLessThan(5000);
      expect(capped.warnings.join('\n')).toMatch(/over 65536 bytes|not recorder messages/);
      assertHarmless(capped);
      expect((await fetch(`${server.url}/api/healthz`)).status).toBe(200);
    } finally {
      await own.close();
    }
  });
});
