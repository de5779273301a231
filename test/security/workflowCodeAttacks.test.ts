import fs from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSignInSite, type SignInSite } from '../fixtures/signInSite.ts';
import { fetchScript, runScript, scriptFolder, type ScriptFormat } from '../helpers/generatedScripts.ts';
import { createWorkflow, runWorkflow } from '../helpers/runs.ts';
import { postJson, startServer, type TestServer } from '../helpers/server.ts';
import { closeLeavingNothing } from '../helpers/teardown.ts';

// A workflow is written by whoever holds a key (or a recorder export someone was sent); its script
// is run by someone else on their own machine. Nothing in a step may become code in that script.
let server: TestServer;
let site: SignInSite;
let folder: ReturnType<typeof scriptFolder>;
beforeAll(async () => {
  [server, site] = await Promise.all([startServer(), startSignInSite()]);
  folder = scriptFolder();
});
afterAll(async () => {
  await closeLeavingNothing(server);
  await site?.close();
  folder?.remove();
});

const FORMATS: ScriptFormat[] = ['puppeteer', 'playwright'];

/** Code that, if it ever ran in the script's Node process, leaves the file `pwned-N` in the script's folder. */
const mark = (n: number) => `require('fs').writeFileSync(require('path').join(process.cwd(), 'pwned-${n}'), '')`;
/** Ways out of a string literal or comment, each carrying its own mark. */
const escapes = (n: number) => [
  `'); ${mark(n)}; ('`,
  `"); ${mark(n + 1)}; ("`,
  `\`; ${mark(n + 2)}; \``,
  `\${${mark(n + 3)}}`,
  `\n${mark(n + 4)}; //`,
  `*/ ${mark(n + 5)}; /*`,
  `\u2028${mark(n + 6)}; //`,
  `\\'); ${mark(n + 7)}; //`,
  `</script><script>${mark(n + 8)}</script>`,
];
const ALL = escapes(0).join(' ');

const hostile = (site: string, tag: string) => ({
  // A name is at most 200 characters: the two ways out of a // comment.
  name: `${tag}\n${mark(100)}; //\u2028${mark(101)}`,
  flow: {
    title: `title ${ALL}`,
    steps: [
      { type: 'navigate', url: `{{site}}/login` },
      // Typed into text fields: the site receives them as sent, without the new lines an <input> drops.
      { type: 'change', selectors: [['#user']], value: `{{user}} ${ALL}` },
      { type: 'change', selectors: [['#password']], value: escapes(300).join('') },
      // @puppeteer/replay writes this step whole, keys unquoted: the keys are the attack.
      {
        type: 'waitForElement',
        selectors: [['#box']],
        visible: false,
        attributes: { [`a: ${mark(400)}, b`]: 'x', [`'c'); ${mark(401)}; ('`]: 'y' },
        properties: { [`d: ${mark(402)}, e`]: 1 },
        [`f: ${mark(403)}, g`]: 1,
      },
      { type: 'customStep', name: 'act', parameters: { instruction: `act ${escapes(500).join(' ')}` } },
      { type: 'customStep', name: 'extract', parameters: { instruction: `ask ${escapes(600).join(' ')}` } },
      {
        type: 'click',
        selectors: [['#go']],
        offsetX: 5,
        offsetY: 5,
        assertedEvents: [{ type: 'navigation', title: 'Welcome' }],
      },
      { type: 'customStep', name: 'extract', parameters: { selectors: [['#welcome']], as: 'greeting' } },
      // Last, as it matches nothing (or does not parse as a selector): the script must get here and fail.
      {
        type: 'click',
        timeout: 1000,
        selectors: [
          [`aria/${escapes(700).join('')}[role="button"]`],
          [`text/${escapes(800).join('')}`],
          [`xpath/${escapes(900).join('')}`],
          [`#x${escapes(1000).join('')}`],
        ],
        offsetX: 5,
        offsetY: 5,
      },
    ],
  },
  variables: [
    { name: 'site', type: 'string', required: false, default: site },
    {
      name: 'user',
      type: 'string',
      required: false,
      default: `default ${escapes(1100).join(' ')}`,
      description: `description ${escapes(1200).join(' ')}`,
    },
  ],
});

describe('workflow code with hostile step values', () => {
  it('treats every value as data: the script types them, no mark is ever written', async () => {
    const workflow = hostile(site.origin, 'typed');
    const workflowId = await createWorkflow(server, workflow);
    // A one-line field takes no new line: Puppeteer's fill sets the value (which drops it), Playwright's
    // inserts the text as typed (Chromium makes it a space).
    const typed = (text: string, format: ScriptFormat) => text.replace(/\n/g, format === 'puppeteer' ? '' : ' ');
    for (const format of FORMATS) {
      const code = await fetchScript(server, workflowId, format);
      const from = site.signIns.length;
      const script = await runScript(folder.dir, code);
      expect(script.exitCode, format).toBe(1);
      expect(script.outputs, format).toBeUndefined();
      expect(script.stderr, format).toContain('is a TODO in this script: act ');
      expect(site.signIns.slice(from), format).toEqual([
        {
          user: typed(`${workflow.variables[1]!.default} ${ALL}`, format),
          password: typed(escapes(300).join(''), format),
        },
      ]);
      expect(
        fs.readdirSync(folder.dir).filter((f) => f.startsWith('pwned')),
        format,
      ).toEqual([]);
    }
  });

  it('refuses bad formats and ids, finds no script for a workflow id given as a session, sends a safe file name', async () => {
    const workflowId = await createWorkflow(server, hostile(site.origin, 'named'));
    for (const query of ['format=bash', 'format=../../etc/passwd', 'format=', 'format=PUPPETEER']) {
      const res = await server.api(`/api/workflow/${workflowId}/code?${query}`);
      expect(res.status, query).toBe(422);
    }
    expect((await server.api('/api/workflow/not-a-uuid/code')).status).toBe(422);
    expect((await server.api(`/api/workflow/${crypto.randomUUID()}/code`)).status).toBe(404);
    expect((await server.api(`/api/retrieve_generated_code/${workflowId}`)).status).toBe(404);
    expect((await server.api(`/api/retrieve_generated_code/${crypto.randomUUID()}`)).status).toBe(404);
    const res = await server.api(`/api/workflow/${workflowId}/code`);
    expect(res.headers.get('content-disposition')).toMatch(/^inline; filename="[A-Za-z0-9_-]+\.puppeteer\.js"$/);
  });

  it("never puts a credential's value in a script, by workflow or by a run's session", async () => {
    const secret = 'cv-0b7e55d2a9c4';
    expect((await postJson(server, '/api/store_credential', { name: 'hostile', value: secret })).status).toBe(200);
    const workflowId = await createWorkflow(server, {
      name: 'types a credential',
      flow: {
        title: 't',
        steps: [
          { type: 'navigate', url: `${site.origin}/login` },
          { type: 'change', selectors: [['#password']], value: '{{credentials.hostile}}' },
        ],
      },
    });
    const { body } = await runWorkflow(server, { workflow_id: workflowId });
    for (const format of FORMATS) {
      const byWorkflow = await fetchScript(server, workflowId, format);
      const bySession = await server.api(`/api/retrieve_generated_code/${body.session_id}?format=${format}`);
      expect(bySession.status).toBe(200);
      for (const text of [byWorkflow, await bySession.text()]) {
        expect(text).not.toContain(secret);
        expect(text).toContain('CREDENTIAL_hostile');
      }
    }
  });
});
