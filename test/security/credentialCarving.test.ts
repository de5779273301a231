import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startPagesSite, type PagesSite } from '../fixtures/pagesSite.ts';
import { runsOf, storeCredential } from '../helpers/credentials.ts';
import { runFlowToEnd } from '../helpers/runs.ts';
import { startServer, type TestServer } from '../helpers/server.ts';

// Issue 37, "Credentials cannot be carved out", in real Chromium through the API: a credential
// allowed only on this site's origin, typed into a field of it, must not come back one character
// short (type, Backspace, extract). The run refuses the edit; a credential without origins, whose
// field is not guarded, comes back masked; an ordinary login still runs. Each run is one session.

/** The site the credentials belong to: fields to type into, and a form that posts to /done. */
const PAGES: Record<string, string> = {
  '/edit': `<!doctype html><title>Edit</title>
    <div id="note" contenteditable="true" style="min-height:2em;border:1px solid"></div>
    <input id="field">
    <div inert><input id="trap"></div>`,
  '/login': `<!doctype html><title>Login</title>
    <form method="post" action="/done"><input id="pw" name="pw" type="password"></form>
    <div inert><input id="trap"></div>`,
  '/done': '<!doctype html><title>Signed in</title><p id="done">Signed in</p>',
  // Goes back once loaded: the page before comes back from the back/forward cache, field and all.
  '/back': '<!doctype html><title>Back</title><script>onload = () => setTimeout(() => history.back(), 200)</script>',
};

let server: TestServer;
let site: PagesSite;
let origin: string;
/** What /done was posted: the field's value as the form sent it. */
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

/** Store a credential with a fresh name and a random value, kept to the site's origin or to none; [name, value]. */
const credential = (allowedHere: boolean) => storeCredential(server, allowedHere ? [origin] : []);

/** Run a flow that opens `path` on the site first; its final status and the session's whole log. */
const run = (path: string, steps: unknown[]) =>
  // 30 s a step: these steps succeed or fail by the guard, never by the clock on a loaded host.
  runFlowToEnd(server, {
    title: 'carving',
    timeout: 30_000,
    steps: [{ type: 'navigate', url: `${origin}${path}` }, ...steps],
  });

const type = (selector: string, name: string) => ({
  type: 'change',
  selectors: [[selector]],
  value: `{{credentials.${name}}}`,
});
const press = (key: string) => [
  { type: 'keyDown', key },
  { type: 'keyUp', key },
];
const extract = (selector: string) => ({
  type: 'customStep',
  name: 'extract',
  parameters: { selectors: [[selector]], as: 'field' },
});

describe('a credential typed into a field, then edited', () => {
  it('kept to the origin, in an <input>: the Backspace step is refused, and nothing of the value comes back', async () => {
    // (A contenteditable takes no kept credential at all: the input rule, credentialSealing.test.ts.)
    const [name, value] = await credential(true);
    const { status, log } = await run('/edit', [type('#field', name), ...press('Backspace'), extract('#field')]);
    expect(status.succeeded).toBe(false);
    expect(status.message).toBe(
      `Step 3 (keyDown): the credential "${name}" was typed into the field that has the focus, so until the page navigates a key step there may only leave it (Tab, Escape) or submit a one-line field (Enter), not press "Backspace": editing its text would let the flow read back part of the secret`,
    );
    expect(status.results.map((r) => [r.action, r.result.ok])).toEqual([
      ['navigate', true],
      ['change', true],
      ['keyDown', false],
    ]);
    expect(status.outputs).toEqual({});
    expect(runsOf(value, JSON.stringify(status))).toEqual([]);
    expect(runsOf(value, log)).toEqual([]);
  });

  it('kept to the origin, in an <input>: Backspace and an arrow are refused; with the focus elsewhere, keys go on', async () => {
    const [name, value] = await credential(true);
    const backspace = await run('/edit', [type('#field', name), ...press('Backspace')]);
    expect(backspace.status.message).toMatch(/^Step 3 \(keyDown\): the credential ".+" was typed into the field/);
    const arrow = await run('/edit', [type('#field', name), ...press('ArrowLeft')]);
    expect(arrow.status.message).toMatch(/^Step 3 \(keyDown\): .* not press "ArrowLeft"/);
    // Focus taken to the contenteditable by a click: keys there edit another field (and nothing
    // reads it while the field's page is there: the sealed page rule).
    const elsewhere = await run('/edit', [
      type('#field', name),
      { type: 'click', selectors: [['#note']], offsetX: 5, offsetY: 5 },
      ...press('x'),
    ]);
    expect(elsewhere.status.message).toBe('All 5 steps succeeded');
    for (const { status, log } of [backspace, arrow, elsewhere]) {
      expect(runsOf(value, JSON.stringify(status))).toEqual([]);
      expect(runsOf(value, log)).toEqual([]);
    }
  });

  it('kept to the origin: a change step may replace the text whole, not add to it', async () => {
    const [name] = await credential(true);
    const replaced = await run('/edit', [
      type('#field', name),
      { type: 'change', selectors: [['#field']], value: 'plain' },
    ]);
    expect(replaced.status.message).toBe('All 3 steps succeeded');
    const added = await run('/edit', [
      type('#field', name),
      { type: 'change', selectors: [['#field']], value: `{{credentials.${name}}}-more` },
    ]);
    expect(added.status.message).toBe(
      `Step 3 (change #field): the credential "${name}" was typed into this field, so until the page navigates a change step may replace its text whole, not add to it: editing its text would let the flow read back part of the secret`,
    );
  });

  it('kept to the origin: a change step into a field that cannot take the focus types nothing into the guarded one', async () => {
    // The fill focuses its own element first; an inert one keeps the focus where it was, so
    // without the guard taking it off, "zz" went into the field holding the secret.
    // What the form then posts is the field's text: the value, without "zz".
    const [name, value] = await credential(true);
    const { status } = await run('/login', [
      type('#pw', name),
      { type: 'click', selectors: [['#pw']], offsetX: 1, offsetY: 5 },
      { type: 'change', selectors: [['#trap']], value: 'zz' },
      { type: 'click', selectors: [['#pw']], offsetX: 1, offsetY: 5 },
      { type: 'keyDown', key: 'Enter', assertedEvents: [{ type: 'navigation', title: 'Signed in' }] },
    ]);
    expect(status.message).toBe('All 6 steps succeeded');
    expect(posted.at(-1)).toBe(value);
  });

  it('without origins (no guard), the carved value comes back masked: no 4 characters of it in a row', async () => {
    const [name, value] = await credential(false);
    const { status, log } = await run('/edit', [type('#note', name), ...press('Backspace'), extract('#note')]);
    expect(status.message).toBe('All 5 steps succeeded');
    expect(status.outputs.field).toBe(`[credentials.${name}]`);
    expect(runsOf(value, JSON.stringify(status))).toEqual([]);
    expect(runsOf(value, log)).toEqual([]);
  });

  it('kept to the origin: a page brought back from the back/forward cache keeps its field guarded', async () => {
    const [name] = await credential(true);
    const { status } = await run('/edit', [
      type('#field', name),
      { type: 'navigate', url: `${origin}/back` },
      { type: 'waitForElement', selectors: [['#field']] },
      ...press('Backspace'),
      extract('#field'),
    ]);
    // The run's handle on the field does not survive the cache: it fails closed.
    expect(status.message).toBe(
      `Step 5 (keyDown): the credential "${name}" was typed into a field of this page, which the run can no longer find to check that this step leaves it alone (as when the page comes back from the back/forward cache), so it refuses the step until that page navigates away: editing its text would let the flow read back part of the secret`,
    );
    expect(status.outputs).toEqual({});
  });

  it('an ordinary login still runs: type, Enter to submit, and keys are free on the next page', async () => {
    const [name, value] = await credential(true);
    const { status } = await run('/login', [
      type('#pw', name),
      { type: 'keyDown', key: 'Enter', assertedEvents: [{ type: 'navigation', title: 'Signed in' }] },
      { type: 'keyUp', key: 'Enter' },
      { type: 'waitForElement', selectors: [['#done']] },
      ...press('Backspace'),
    ]);
    expect(status.message).toBe('All 7 steps succeeded');
    expect(posted).toContain(value);
  });
});
