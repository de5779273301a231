import { describe, expect, it } from 'vitest';
import { Recording } from '../server/recorder/recording.ts';

/** How the recorder turns the page script's messages into Recorder steps (server/recorder/recording.ts). */
const main = { tab: 'main', tabUrl: 'https://shop.test/', document: 'd' };
const msg = (m: Record<string, unknown>) => JSON.stringify({ seq: 1, selectors: [['#a']], ...m });

describe('Recording', () => {
  it('makes a double click of the two clicks before it, and an upload of a file chosen', async () => {
    const r = new Recording('t', 'main', () => undefined);
    for (const kind of ['click', 'click', 'doubleClick']) await r.take(msg({ kind, offsetX: 3, offsetY: 4 }), main);
    await r.take(msg({ kind: 'upload', file: 'report.pdf', selectors: [['#file']] }), main);
    expect(r.state().flow.steps).toEqual([
      { type: 'doubleClick', selectors: [['#a']], offsetX: 3, offsetY: 4 },
      { type: 'customStep', name: 'uploadFile', parameters: { selectors: [['#file']], file: 'report.pdf' } },
    ]);
  });

  it('makes one double click of an item a hover showed, keeping the hovers before its first click', async () => {
    const r = new Recording('t', 'main', () => undefined);
    const hover = msg({ kind: 'hover', selectors: [['#menu']] });
    const click = msg({ kind: 'click', selectors: [['#item']], offsetX: 3, offsetY: 4 });
    await r.take(msg({ kind: 'click', selectors: [['#before']], offsetX: 1, offsetY: 1 }), main);
    for (const m of [hover, click, hover, click]) await r.take(m, main);
    await r.take(msg({ kind: 'doubleClick', selectors: [['#item']], offsetX: 3, offsetY: 4 }), main);
    expect(r.state().flow.steps).toEqual([
      { type: 'click', selectors: [['#before']], offsetX: 1, offsetY: 1 },
      { type: 'hover', selectors: [['#menu']] },
      { type: 'doubleClick', selectors: [['#item']], offsetX: 3, offsetY: 4 },
    ]);
  });

  it('names each password field its own variable, and keeps one change per field with its last value', async () => {
    const told: number[] = [];
    const r = new Recording('t', 'main', (_s, i) => told.push(i));
    const change = (selectors: string[][], field: string, secret: boolean, value?: string) =>
      r.take(msg({ kind: 'change', selectors, field, secret, ...(value !== undefined ? { value } : {}) }), main);
    await change([['#pw']], 'pass-word', true);
    await change([['#pw2']], 'pass-word', true);
    await change([['#pin']], '', true);
    await change([['#name']], 'name', false, 'Ad');
    await change([['#name']], 'name', false, 'Ada');
    await change([['#pw']], 'pass-word', true);
    const { flow, variables } = r.state();
    expect(flow.steps.map((s) => (s as { value: string }).value)).toEqual([
      '{{pass_word}}',
      '{{pass_word_2}}',
      '{{password}}',
      'Ada',
      '{{pass_word}}',
    ]);
    expect(variables.map((v) => v.name)).toEqual(['pass_word', 'pass_word_2', 'password']);
    // The field typed into again was told again under its own number.
    expect(told).toEqual([0, 1, 2, 3, 3, 4]);
  });

  it('puts a navigation on the step that caused it, on its own tab only, and a target on other tabs', async () => {
    let now = 0;
    const r = new Recording(
      't',
      'main',
      () => undefined,
      () => now,
    );
    await r.take(JSON.stringify({ kind: 'key', key: 'Enter' }), main);
    r.navigated('popup', 'https://shop.test/elsewhere');
    r.navigated('main', 'https://shop.test/next');
    await r.take(msg({ kind: 'click', offsetX: 1, offsetY: 1 }), {
      ...main,
      tab: 'popup',
      tabUrl: 'https://shop.test/p',
    });
    now += 60_000;
    r.navigated('popup', 'https://shop.test/late');
    expect(r.state().flow.steps).toEqual([
      {
        type: 'keyDown',
        key: 'Enter',
        assertedEvents: [{ type: 'navigation', url: 'https://shop.test/next', title: '' }],
      },
      { type: 'keyUp', key: 'Enter' },
      { type: 'click', target: 'https://shop.test/p', selectors: [['#a']], offsetX: 1, offsetY: 1 },
    ]);
  });

  it('keeps one scroll step per scrolled place, at where the person stopped, until something else happens', async () => {
    const told: number[] = [];
    const r = new Recording('t', 'main', (_s, i) => told.push(i));
    const scroll = (x: number, y: number, selectors?: string[][]) =>
      r.take(JSON.stringify({ kind: 'scroll', x, y, ...(selectors ? { selectors } : {}) }), main);
    await scroll(0, 100);
    await scroll(0, 400);
    await scroll(0, 80, [['#list']]);
    await scroll(0, 120, [['#list']]);
    await r.take(msg({ kind: 'click', offsetX: 1, offsetY: 1 }), main);
    await scroll(0, 50, [['#list']]);
    await r.take(JSON.stringify({ kind: 'scroll', x: 0, y: 10, frame: [0] }), main);
    await r.take(JSON.stringify({ kind: 'scroll', x: 0, y: 20 }), {
      ...main,
      tab: 'popup',
      tabUrl: 'https://shop.test/p',
    });
    // Positions out of bounds are not a scroll.
    await scroll(0, 1e12);
    expect(r.state().flow.steps).toEqual([
      { type: 'scroll', x: 0, y: 400 },
      { type: 'scroll', selectors: [['#list']], x: 0, y: 120 },
      { type: 'click', selectors: [['#a']], offsetX: 1, offsetY: 1 },
      { type: 'scroll', selectors: [['#list']], x: 0, y: 50 },
      { type: 'scroll', frame: [0], x: 0, y: 10 },
      { type: 'scroll', target: 'https://shop.test/p', x: 0, y: 20 },
    ]);
    expect(told).toEqual([0, 0, 1, 1, 2, 3, 4, 5]);
    expect(r.state().warnings.join('\n')).toMatch(/1 message\(s\) from the page were not recorder messages/);
  });

  it('keeps a hover before the click it opened, once for a menu hovered again without a step between', async () => {
    const r = new Recording('t', 'main', () => undefined);
    const hover = (selectors: string[][]) => r.take(msg({ kind: 'hover', selectors }), main);
    await hover([['#menu']]);
    await hover([['#menu']]);
    await r.take(msg({ kind: 'click', offsetX: 2, offsetY: 2, selectors: [['#item']] }), main);
    await hover([['#menu']]);
    // A hover carries nothing but its element.
    await r.take(msg({ kind: 'hover', selectors: [['#x']], offsetX: 1 }), main);
    expect(r.state().flow.steps).toEqual([
      { type: 'hover', selectors: [['#menu']] },
      { type: 'click', selectors: [['#item']], offsetX: 2, offsetY: 2 },
      { type: 'hover', selectors: [['#menu']] },
    ]);
  });
});
