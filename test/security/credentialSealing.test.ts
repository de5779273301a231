import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunStatusResponse } from '../../contract/runs.ts';
import { startPagesSite, type PagesSite } from '../fixtures/pagesSite.ts';
import { CREDENTIAL_LETTERS, runsOf, storeCredential } from '../helpers/credentials.ts';
import { runFlowToEnd } from '../helpers/runs.ts';
import { startServer, type TestServer } from '../helpers/server.ts';

// Issue 44, "a credential's value never leaves the browser's input", attacked in real Chromium
// through the API. The probe that read a credential back whole: type it into a contenteditable on
// its allowed origin, then steps whose XPath picks <h1> or <p> by one bit of one character of the
// field's text, an extract handing back which matched. A variant carves it with toolbar buttons
// that keep the focus (execCommand delete, the caret moved). Both now fail naming the rule: the
// input rule (a kept credential goes into a text-like <input> only) and the sealed page rule
// (until that page navigates away, the run reads nothing of any page and finds elements by CSS).

/**
 * The allowed site: a contenteditable, an <input> whose page copies what is typed into a <p> (as
 * a site's "preview" might), toolbar buttons that keep the focus where it is, and a login form.
 */
const PAGES: Record<string, string> = {
  '/probe': `<!doctype html><title>Probe</title>
    <h1>H</h1><p>P</p>
    <div id="note" contenteditable="true" style="min-height:2em;border:1px solid"></div>
    <input id="field" oninput="document.getElementById('mirror').textContent = this.value">
    <textarea id="area"></textarea>
    <div id="mirror"></div>
    <button id="del" onmousedown="event.preventDefault()" onclick="document.execCommand('delete')">Delete</button>
    <button id="home" onmousedown="event.preventDefault()"
      onclick="const f = document.activeElement; f.setSelectionRange && f.setSelectionRange(1, 1)">Caret</button>`,
  '/login': `<!doctype html><title>Login</title>
    <form method="post" action="/done"><input id="pw" name="pw" type="password"></form>`,
  '/done': '<!doctype html><title>Signed in</title><p id="done">Signed in</p>',
};

let server: TestServer;
let site: PagesSite;
let origin: string;
/** The password of every form posted to the site. */
const posted: string[] = [];

beforeAll(async () => {
  server = await startServer();
  site = await startPagesSite(PAGES, (form) => posted.push(form.get('pw') ?? ''));
  origin = site.origin;
});
afterAll(async () => {
  await server?.close();
  await site?.close();
});

/** A credential kept to the site's origin, with a fresh name and a random value; [name, value]. */
const credential = () => storeCredential(server, [origin]);

/** Run a flow that opens `path` first; its final status and the session's whole log. */
const run = (path: string, steps: unknown[]) =>
  // 30 s a step: these steps succeed or fail by the rules, never by the clock on a loaded host.
  runFlowToEnd(server, {
    title: 'sealing',
    timeout: 30_000,
    steps: [{ type: 'navigate', url: `${origin}${path}` }, ...steps],
  });

/** Nothing of `value` anywhere the run reports. */
function leaksNothing({ status, log }: { status: RunStatusResponse; log: string }, value: string) {
  for (const text of [JSON.stringify(status), log]) {
    const found = runsOf(value, text);
    expect(
      found,
      found.map((piece) => text.slice(text.indexOf(piece) - 200, text.indexOf(piece) + 50)).join('\n'),
    ).toEqual([]);
  }
}

const type = (selector: string, value: string) => ({ type: 'change', selectors: [[selector]], value });
const click = (selector: string) => ({ type: 'click', selectors: [[selector]], offsetX: 2, offsetY: 2 });
/**
 * The probe: an extract whose XPath matches <h1> when bit `bit` of character `at` of `source`'s
 * text is 1, else <p>: its output, "H" or "P", is that bit.
 */
const bitProbe = (source: string, at: number, bit: number, as: string) => ({
  type: 'customStep',
  name: 'extract',
  parameters: {
    as,
    selectors: [
      [
        `xpath///h1[floor(string-length(substring-before('${CREDENTIAL_LETTERS}', substring(string(${source}), ${at + 1}, 1))) div ${2 ** bit}) mod 2 = 1] | //p[1][not(floor(string-length(substring-before('${CREDENTIAL_LETTERS}', substring(string(${source}), ${at + 1}, 1))) div ${2 ** bit}) mod 2 = 1)]`,
      ],
    ],
  },
});

/** The first character of `text` as bitProbe reads it, from its five bits. */
const fromBits = (bits: string[]) => CREDENTIAL_LETTERS[bits.reduce((n, b, i) => n + (b === 'H' ? 2 ** i : 0), 0)];

describe('the bit-probing read-back (issue 44)', () => {
  it('works on text that is not a credential: the probe reads the first character back, bit by bit', async () => {
    // The attack itself, on a plain value: what the rules below keep a credential from.
    const probes = [0, 1, 2, 3, 4].map((bit) => bitProbe("//div[@id='note']", 0, bit, `b${bit}`));
    const { status } = await run('/probe', [type('#note', 'QXZ'), ...probes]);
    expect(status.message).toBe('All 7 steps succeeded');
    expect(fromBits([0, 1, 2, 3, 4].map((bit) => status.outputs[`b${bit}`]!))).toBe('Q');
  });

  it('a kept credential is not typed into a contenteditable (the input rule): the page gets nothing', async () => {
    const [name, value] = await credential();
    const probes = [0, 1, 2, 3, 4].map((bit) => bitProbe("//div[@id='note']", 0, bit, `b${bit}`));
    const result = await run('/probe', [type('#note', `{{credentials.${name}}}`), ...probes]);
    expect(result.status.message).toBe(
      `Step 2 (change #note): the input rule: the credential "${name}" may only be typed into a text-like <input> (password, text, email, tel, search, url), not into a <div> that is contenteditable: text typed there is in the page, where selectors could read it back. Nothing was typed`,
    );
    expect(result.status.outputs).toEqual({});
    leaksNothing(result, value);
  });

  it('nor into a <textarea> or an <input> that is not text-like', async () => {
    const [name] = await credential();
    const area = await run('/probe', [type('#area', `{{credentials.${name}}}`)]);
    expect(area.status.message).toMatch(/^Step 2 \(change #area\): the input rule: .* not into a <textarea>:/);
  });

  it('typed into an <input> whose page copies it into the DOM, the probe is refused (the sealed page rule)', async () => {
    const [name, value] = await credential();
    const result = await run('/probe', [
      type('#field', `{{credentials.${name}}}`),
      bitProbe("//div[@id='mirror']", 0, 0, 'b0'),
    ]);
    expect(result.status.message).toMatch(/^Step 3 \(extract xpath\/\/\/h1/);
    expect(result.status.message).toContain(
      `): the sealed page rule: the credential "${name}" was typed into a page that has not navigated away yet, and until it does the run reads nothing of any page, so an extract step may not run (it could read the secret back from the page)`,
    );
    expect(result.status.outputs).toEqual({});
    leaksNothing(result, value);
  });

  it('the probe as waitForElement and click steps: XPath selectors are left out, properties refused', async () => {
    const [name, value] = await credential();
    const probe = bitProbe("//div[@id='mirror']", 0, 0, 'b0').parameters.selectors[0]!;
    // With XPath alone the step has nothing to find its element by.
    const wait = await run('/probe', [
      type('#field', `{{credentials.${name}}}`),
      { type: 'waitForElement', selectors: [probe] },
    ]);
    expect(wait.status.message).toMatch(/^Step 3 \(waitForElement xpath\/\/\/h1/);
    expect(wait.status.message).toContain(
      `): the sealed page rule: the credential "${name}" was typed into a page that has not navigated away yet, and until it does a step finds its element by CSS selectors only (aria/, text/ and xpath/ selectors read the page's text); this step has none`,
    );
    // The field's own value, checked as a whole guess: refused too.
    const guess = await run('/probe', [
      type('#field', `{{credentials.${name}}}`),
      { type: 'waitForElement', selectors: [['#field']], properties: { value: value } },
    ]);
    expect(guess.status.message).toMatch(
      /^Step 3 \(waitForElement #field\): the sealed page rule: .* so a waitForElement step that checks an element's properties or attributes may not run/,
    );
    // A recorded click carries an XPath or text selector beside its CSS one: it runs by the CSS one.
    const clicked = await run('/probe', [
      type('#field', `{{credentials.${name}}}`),
      { type: 'click', selectors: [probe, ['text/Delete'], ['#home']], offsetX: 2, offsetY: 2 },
      { type: 'waitForElement', selectors: [['xpath///h2'], ['h1']] },
    ]);
    expect(clicked.status.message).toBe('All 4 steps succeeded');
    // (The guess is in the flow itself, so in its reported params: only the other two are checked.)
    for (const result of [wait, clicked]) leaksNothing(result, value);
  });

  it('the toolbar variant: buttons that keep the focus carve the field, and nothing reads the result', async () => {
    const [name, value] = await credential();
    const carve = [click('#home'), click('#del'), click('#del'), click('#del')];
    const result = await run('/probe', [
      type('#field', `{{credentials.${name}}}`),
      ...carve,
      { type: 'customStep', name: 'extract', parameters: { selectors: [['#mirror']], as: 'carved' } },
    ]);
    expect(result.status.results.map((r) => [r.action, r.result.ok])).toEqual([
      ['navigate', true],
      ['change', true],
      ['click', true],
      ['click', true],
      ['click', true],
      ['click', true],
      ['extract', false],
    ]);
    expect(result.status.message).toMatch(/^Step 7 \(extract #mirror\): the sealed page rule: /);
    expect(result.status.outputs).toEqual({});
    leaksNothing(result, value);
    // Into the contenteditable, where execCommand would carve the DOM's own text: never typed.
    const editable = await run('/probe', [type('#note', `{{credentials.${name}}}`), click('#del')]);
    expect(editable.status.message).toMatch(/^Step 2 \(change #note\): the input rule: /);
  });

  it('an ordinary login still runs, and the next page may be read: the seal ends when the page navigates away', async () => {
    const [name, value] = await credential();
    const { status } = await run('/login', [
      type('#pw', `{{credentials.${name}}}`),
      { type: 'keyDown', key: 'Enter', assertedEvents: [{ type: 'navigation', title: 'Signed in' }] },
      { type: 'keyUp', key: 'Enter' },
      { type: 'waitForElement', selectors: [['xpath///p[@id="done"]']], properties: { textContent: 'Signed in' } },
      { type: 'customStep', name: 'extract', parameters: { selectors: [['#done']], as: 'done' } },
    ]);
    expect(status.message).toBe('All 6 steps succeeded');
    expect(status.outputs.done).toBe('Signed in');
    expect(posted).toContain(value);
  });
});
