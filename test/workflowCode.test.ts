import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { GeneratedCodeResponse } from '../contract/workflowCode.ts';
import { formWorkflow, REPORT_BYTES } from './fixtures/flows.ts';
import { RECORDED_ORIGIN, startFormSite, type FormSite } from './fixtures/formSite.ts';
import { startSignInSite, type SignInSite } from './fixtures/signInSite.ts';
import { fetchScript, runScript, scriptFolder, type ScriptFormat } from './helpers/generatedScripts.ts';
import { createWorkflow, runWorkflow, untilCompleted } from './helpers/runs.ts';
import { postJson, startServer, type TestServer } from './helpers/server.ts';
import { closeLeavingNothing } from './helpers/teardown.ts';

// Every workflow shape the suite saves (the form with variables and a file, a Chrome Recorder
// export, a sign-in with a credential, keys, hover, double click, scroll and waits) is run once by
// the server and once by each generated script, on the same loopback site; the site must receive
// the same and the script print the run's outputs.
let server: TestServer;
let formSite: FormSite;
let signInSite: SignInSite;
let folder: ReturnType<typeof scriptFolder>;
beforeAll(async () => {
  [server, formSite, signInSite] = await Promise.all([startServer(), startFormSite(), startSignInSite()]);
  folder = scriptFolder();
  fs.writeFileSync(path.join(folder.dir, 'report.txt'), REPORT_BYTES);
});
afterAll(async () => {
  await closeLeavingNothing(server);
  await formSite?.close();
  await signInSite?.close();
  folder?.remove();
});

const FORMATS: ScriptFormat[] = ['puppeteer', 'playwright'];
const PASSWORD = 'pw-7d41c9e2b8f0';

const signInWorkflow = {
  name: 'sign in',
  flow: {
    title: 'Sign in',
    steps: [
      { type: 'navigate', url: '{{site}}/login' },
      { type: 'change', selectors: [['aria/User[role="textbox"]'], ['#user']], value: '{{user}}' },
      { type: 'keyDown', key: '!' },
      { type: 'keyUp', key: '!' },
      { type: 'change', selectors: [['#password']], value: '{{credentials.site-password}}' },
      { type: 'hover', selectors: [['#box']] },
      { type: 'doubleClick', selectors: [['text/Box'], ['#box']], offsetX: 5, offsetY: 5 },
      { type: 'waitForElement', selectors: [['#box']], attributes: { 'data-hovered': 'yes', 'data-state': 'double' } },
      { type: 'scroll', x: 0, y: 200 },
      { type: 'waitForExpression', expression: 'window.scrollY >= 200' },
      {
        type: 'click',
        selectors: [['aria/Sign in[role="button"]'], ['#go']],
        offsetX: 5,
        offsetY: 5,
        assertedEvents: [{ type: 'navigation', title: 'Welcome' }],
      },
      { type: 'waitForElement', selectors: [['#welcome']] },
      { type: 'customStep', name: 'extract', parameters: { selectors: [['#welcome']], as: 'greeting' } },
    ],
  },
  variables: [
    { name: 'site', type: 'string', required: true },
    { name: 'user', type: 'string', required: true },
  ],
};

/** Run the workflow on the server and with both scripts; each must leave the site what the run left it. */
async function sameAsTheRun<T>(opts: {
  body: unknown;
  variables: Record<string, string>;
  received: () => T[];
  files?: { name: string; bytes: Buffer }[];
  env?: Record<string, string>;
  /** Outputs as compared: what differs from one submission to the next taken out. */
  comparable?: (outputs: Record<string, unknown>) => Record<string, unknown>;
}) {
  const comparable = opts.comparable ?? ((o) => o);
  const workflowId = await createWorkflow(server, opts.body);
  const before = opts.received().length;
  const { body } = await runWorkflow(
    server,
    { workflow_id: workflowId, variables: JSON.stringify(opts.variables) },
    opts.files,
  );
  const run = await untilCompleted(server, body.session_id);
  expect(run.message).toBe(`All ${run.total_actions} steps succeeded`);
  const runDid = opts.received().slice(before);
  expect(runDid).toHaveLength(1);
  const args = Object.entries(opts.variables).flatMap(([name, value]) => [`--${name}`, value]);
  for (const format of FORMATS) {
    const code = await fetchScript(server, workflowId, format);
    const from = opts.received().length;
    const script = await runScript(folder.dir, code, { args, env: opts.env });
    expect(script.exitCode, `${format}: ${script.stderr}`).toBe(0);
    expect(opts.received().slice(from), format).toEqual(runDid);
    expect(comparable(script.outputs ?? {}), format).toEqual(comparable(run.outputs));
  }
  return { workflowId, sessionId: body.session_id, run };
}

describe('a workflow as a script', () => {
  it('the form (variables, defaults, a select, a file, a navigation, extracts) does what its run did', async () => {
    const { workflowId, sessionId } = await sameAsTheRun({
      body: formWorkflow('code form'),
      variables: { site: formSite.origin, name: 'Ada Lovelace', size: 'large' },
      received: () => formSite.submissions,
      files: [{ name: 'report.txt', bytes: REPORT_BYTES }],
      // The link names the order's number, one more for each submission.
      comparable: ({ link, ...rest }) => ({ ...rest, link: String(link).replace(/\d+$/, 'N') }),
    });
    expect(formSite.submissions.at(-1)!.file!.bytes.equals(REPORT_BYTES)).toBe(true);

    // Simplex's name for it: the script of the run's workflow, by the run's session.
    const res = await server.api(`/api/retrieve_generated_code/${sessionId}?format=playwright`);
    expect(res.status).toBe(200);
    const generated = GeneratedCodeResponse.parse(await res.json());
    expect(generated).toMatchObject({ workflow_id: workflowId, session_id: sessionId, format: 'playwright' });
    expect(generated.filename).toBe('code-form.playwright.js');
    expect(generated.code).toBe(await fetchScript(server, workflowId, 'playwright'));
  });

  it('a Chrome Recorder export (aria, xpath, pierce and text selectors, keys, asserted navigation) does what its run did', async () => {
    const text = fs.readFileSync(path.join(import.meta.dirname, 'fixtures/recorder-export.json'), 'utf8');
    await sameAsTheRun({
      body: { name: 'code recorded', flow: JSON.parse(text.replaceAll(RECORDED_ORIGIN, formSite.origin)) },
      variables: {},
      received: () => formSite.submissions,
    });
  });

  it('a sign-in with a credential, keys, hover, double click, scroll and waits does what its run did', async () => {
    const stored = await postJson(server, '/api/store_credential', { name: 'site-password', value: PASSWORD });
    expect(stored.status).toBe(200);
    const { workflowId } = await sameAsTheRun({
      body: signInWorkflow,
      variables: { site: signInSite.origin, user: 'Grace' },
      received: () => signInSite.signIns,
      env: { CREDENTIAL_site_password: PASSWORD },
    });
    expect(signInSite.signIns.at(-1)).toEqual({ user: 'Grace!', password: PASSWORD });
    for (const format of FORMATS) {
      const code = await fetchScript(server, workflowId, format);
      expect(code).not.toContain(PASSWORD);
      expect(code).toContain('CREDENTIAL_site_password');
      // Without the credential or a required variable the script says what is missing and starts no browser.
      const bare = await runScript(folder.dir, code, { args: ['--site', signInSite.origin, '--user', 'x'] });
      expect(bare.exitCode).toBe(1);
      expect(bare.stderr).toContain('Set CREDENTIAL_site_password to the value of the credential site-password');
      const noUser = await runScript(folder.dir, code, { args: ['--site', signInSite.origin] });
      expect(noUser.stderr).toContain('user is required: give --user VALUE or set VAR_user');
    }
  });

  it('a pause waits for a line on stdin; AI steps are TODOs that say so when the script runs', async () => {
    const workflowId = await createWorkflow(server, {
      name: 'code with people and models',
      flow: {
        title: 'pause and AI',
        steps: [
          { type: 'navigate', url: '{{site}}/login' },
          { type: 'customStep', name: 'pause', parameters: { message: 'Check the page' } },
          { type: 'customStep', name: 'act', parameters: { instruction: 'Sign in as Grace' } },
          { type: 'customStep', name: 'extract', parameters: { instruction: 'The page title', as: 'title' } },
          { type: 'customStep', name: 'extract', parameters: { selectors: [['#go']], as: 'button' } },
        ],
      },
      variables: [{ name: 'site', type: 'string', required: true }],
    });
    for (const format of FORMATS) {
      const code = await fetchScript(server, workflowId, format);
      expect(code).toContain('// TODO step 3 (act)');
      expect(code).toContain('// TODO step 4 (extract title)');
      const script = await runScript(folder.dir, code, { args: [`--site=${signInSite.origin}`], stdin: '\n' });
      expect(script.exitCode, script.stderr).toBe(0);
      expect(script.stderr).toContain('Paused: Check the page');
      expect(script.stderr).toContain('Step 3 (act) is a TODO in this script: Sign in as Grace');
      expect(script.outputs).toEqual({ title: null, button: 'Sign in' });
    }
  });
});
