import fc from 'fast-check';
import { RunWorkflowResponse, type RunStatusResponse } from '../../contract/runs.ts';
import { afterCase, check, checkRunOutcome, healthy, runSessionEnded, untilRunEnds, type Service } from './harness.ts';

/**
 * Property 1: random Recorder flows (every step type, asserted events, timeouts, variables and
 * their placeholders, the custom steps) over the hostile site's pages and addresses that refuse,
 * do not resolve or are blocked, run through POST /api/workflows + /api/run_workflow.
 * URLs are generated with stand-ins ($SITE, $REFUSED) so a counterexample reads the same whatever
 * ports the run had; `strict` runs the case on the server that blocks private networks, where the
 * hostile site itself is refused by the egress policy.
 */

export interface FlowWorld {
  /** The hostile site's origin and its pages. */
  site: string;
  paths: readonly string[];
  /** A loopback port nothing listens on. */
  refusedPort: number;
  open: Service;
  /** Started on first use: BROWSER_ALLOW_PRIVATE_NETWORKS=0. */
  strict: () => Promise<Service>;
}

type Json = Record<string, unknown>;

export interface FlowCase {
  strict: boolean;
  flow: { title: string; timeout?: number; steps: Json[] };
  variables: Json[];
  /** The run's `variables` field (a JSON object); absent when undefined. */
  runVariables?: Record<string, unknown>;
  /** Files sent with the run (uploadFile steps name them). */
  files: { name: string; size: number }[];
  /** What the fuzzer does when the run waits at a pause step. */
  onPause: 'resume' | 'close' | 'interrupt';
}

/** The hostile site's pages that open dialogs (the dialog fuzzer's, dialogs.ts, all of them). */
export const DIALOG_PATHS = [
  '/alert',
  '/alert-on-load',
  '/confirm',
  '/prompt',
  '/beforeunload',
  '/alert-mousedown',
  '/alerts',
  '/alert-later',
  '/alert-frame',
  '/alert-popup',
  '/alert-loop',
] as const;

const HOSTILE_PATHS = [
  '/',
  ...DIALOG_PATHS,
  '/loop',
  '/loop-on-load',
  '/closes',
  '/popups',
  '/detach',
  '/navigates',
  '/timed',
  '/slow',
  '/redirect',
  '/download',
  '/missing',
];

/** Where a step may go: the hostile site, a closed port, a name that does not resolve, addresses and schemes browsers or the policy refuse. */
const urlArb: fc.Arbitrary<string> = fc.oneof(
  { weight: 8, arbitrary: fc.constantFrom(...HOSTILE_PATHS).map((p) => `$SITE${p}`) },
  { weight: 1, arbitrary: fc.constantFrom('$REFUSED/', '$REFUSED/x?y=1') },
  { weight: 1, arbitrary: fc.constantFrom('http://no-such-host.invalid/', 'https://fuzz.invalid:8443/a') },
  {
    weight: 1,
    arbitrary: fc.constantFrom(
      'http://127.0.0.1:1/', // ERR_UNSAFE_PORT
      'http://169.254.169.254/latest/meta-data/',
      'file:///etc/passwd',
      'chrome://settings',
      'chrome://crash',
      'about:blank',
      'data:text/html,<button id=go>go</button>',
      'javascript:alert(1)',
      'view-source:about:blank',
      'not a url',
    ),
  },
);

/** Mostly what the hostile pages have (#go, #out), then what only some have or none has. */
const selectorPart = fc.oneof(
  {
    weight: 3,
    arbitrary: fc.constantFrom('#go', '#out', 'aria/go', 'text/go', 'xpath///button', 'pierce/#go', 'p', 'body'),
  },
  { weight: 1, arbitrary: fc.constantFrom('#next', '#f', '#missing', 'iframe', 'input[type=file]') },
);
/** Alternatives, each a selector or (rarely) a chain through shadow roots and frames. */
const selectorsArb = fc.array(
  fc.oneof(
    { weight: 6, arbitrary: selectorPart },
    { weight: 1, arbitrary: fc.array(selectorPart, { minLength: 1, maxLength: 3 }) },
  ),
  { minLength: 1, maxLength: 2 },
);
/** Timeouts kept small (300-3000 ms) so cases are quick. */
const timeoutArb = fc.integer({ min: 300, max: 3000 });
const assertedEventsArb = fc.array(
  fc.record(
    { type: fc.constant('navigation' as const), url: urlArb, title: fc.constantFrom('hostile', '', 'x') },
    { requiredKeys: ['type'] },
  ),
  { maxLength: 2 },
);

/** Present in `present` of `present + absent` steps: most steps carry few of the optional fields, as recorded flows do. */
const sometimes = <T>(arb: fc.Arbitrary<T>, present: number, absent: number) =>
  fc.oneof({ weight: present, arbitrary: arb }, { weight: absent, arbitrary: fc.constant(undefined) });
/** What every step may carry: timeout (most), asserted events (some), the Recorder's target and frame (few: a wrong one fails the step at once). */
const common = fc
  .record({
    timeout: sometimes(timeoutArb, 2, 1),
    assertedEvents: sometimes(assertedEventsArb, 1, 3),
    target: sometimes(fc.constantFrom('main', 'main', 'main', 'popup', ''), 1, 9),
    frame: sometimes(fc.array(fc.nat(2), { maxLength: 2 }), 1, 9),
  })
  .map((c) => Object.fromEntries(Object.entries(c).filter(([, v]) => v !== undefined)));

const clickAttributes = fc.record(
  {
    offsetX: fc.integer({ min: -5, max: 50 }),
    offsetY: fc.integer({ min: -5, max: 50 }),
    deviceType: fc.constantFrom('mouse', 'pen', 'touch'),
    button: fc.constantFrom('primary', 'auxiliary', 'secondary', 'back', 'forward'),
    duration: fc.integer({ min: 0, max: 500 }),
  },
  { requiredKeys: ['offsetX', 'offsetY'] },
);

const keyArb = fc.constantFrom('Enter', 'Tab', 'a', 'Escape', 'Backspace', 'ArrowDown', 'F5', 'Meta', 'NoSuchKey');
const expressionArb = fc.constantFrom(
  'true',
  'false',
  'document.title === "hostile"',
  'window.close(), true',
  'for(;;){}',
  'alert(1)',
  'location.href = "/redirect"',
  'throw new Error("x")',
  'new Promise(() => {})',
  'document.querySelector("#go").click(), true',
);

/** Step arbitraries by type; `names` are the flow's declared variables, for {{placeholders}}. */
function stepArb(names: string[], fileNames: string[]): fc.Arbitrary<Json> {
  const withVars = (base: fc.Arbitrary<string>) =>
    names.length
      ? fc.oneof(
          base,
          fc.tuple(base, fc.constantFrom(...names)).map(([b, n]) => `${b}{{${n}}}`),
          // The split template (issue 44): two values that join into a placeholder are typed as they are.
          fc.tuple(fc.constantFrom(...names), fc.constantFrom(...names)).map(([a, b]) => `{{${a}}}{{${b}}}`),
        )
      : base;
  const s = <T extends Json>(type: string, fields: fc.Arbitrary<T>) =>
    fc.tuple(common, fields).map(([c, f]): Json => ({ type, ...c, ...f }));
  return fc.oneof(
    { weight: 5, arbitrary: s('navigate', fc.record({ url: withVars(urlArb) })) },
    {
      weight: 4,
      arbitrary: s(
        'click',
        fc.tuple(clickAttributes, fc.record({ selectors: selectorsArb })).map(([a, b]) => ({ ...a, ...b })),
      ),
    },
    {
      weight: 1,
      arbitrary: s(
        'doubleClick',
        fc.tuple(clickAttributes, fc.record({ selectors: selectorsArb })).map(([a, b]) => ({ ...a, ...b })),
      ),
    },
    {
      weight: 2,
      arbitrary: s(
        'change',
        fc.record({
          selectors: selectorsArb,
          value: withVars(
            fc.constantFrom(
              '',
              'hello',
              'x'.repeat(50),
              '{{credentials.fuzz_any}}',
              'pw: {{credentials.fuzz_elsewhere}}',
            ),
          ),
        }),
      ),
    },
    { weight: 1, arbitrary: s('keyDown', fc.record({ key: keyArb })) },
    { weight: 1, arbitrary: s('keyUp', fc.record({ key: keyArb })) },
    {
      weight: 1,
      arbitrary: s(
        'scroll',
        fc.record(
          { selectors: selectorsArb, x: fc.integer({ min: -100, max: 5000 }), y: fc.integer({ min: -100, max: 5000 }) },
          { requiredKeys: [] },
        ),
      ),
    },
    { weight: 1, arbitrary: s('hover', fc.record({ selectors: selectorsArb })) },
    {
      weight: 2,
      arbitrary: s(
        'waitForElement',
        fc.record(
          {
            selectors: selectorsArb,
            operator: fc.constantFrom('>=', '==', '<='),
            count: fc.nat(3),
            visible: fc.boolean(),
            properties: fc.constantFrom({ textContent: 'ready' }, { textContent: 'after alert' }, {}),
            attributes: fc.constantFrom({ id: 'go' }, {}),
          },
          { requiredKeys: ['selectors'] },
        ),
      ),
    },
    { weight: 1, arbitrary: s('waitForExpression', fc.record({ expression: expressionArb })) },
    { weight: 1, arbitrary: s('close', fc.constant({})) },
    {
      weight: 1,
      arbitrary: s(
        'setViewport',
        fc.record({
          width: fc.integer({ min: 1, max: 2000 }),
          height: fc.integer({ min: 1, max: 2000 }),
          deviceScaleFactor: fc.constantFrom(0.5, 1, 2, 3),
          isMobile: fc.boolean(),
          hasTouch: fc.boolean(),
          isLandscape: fc.boolean(),
        }),
      ),
    },
    {
      weight: 1,
      arbitrary: s(
        'emulateNetworkConditions',
        fc.record({
          download: fc.constantFrom(-1, 0, 1000, 1e9),
          upload: fc.constantFrom(-1, 0, 1000),
          latency: fc.constantFrom(0, 50, 1000),
        }),
      ),
    },
    {
      weight: 1,
      arbitrary: s(
        'customStep',
        fc
          .record({ selectors: selectorsArb, file: fc.constantFrom(...fileNames, 'absent.txt') })
          .map((parameters) => ({ name: 'uploadFile', parameters })),
      ),
    },
    {
      weight: 2,
      arbitrary: s(
        'customStep',
        fc
          .record(
            {
              selectors: selectorsArb,
              as: fc.constantFrom('out', 'value', '_x1'),
              attribute: fc.constantFrom('id', 'href', 'missing'),
            },
            { requiredKeys: ['selectors', 'as'] },
          )
          .map((parameters) => ({ name: 'extract', parameters })),
      ),
    },
    {
      weight: 1,
      arbitrary: s(
        'customStep',
        fc
          .record({ message: fc.constantFrom('Solve the challenge', 'é'.repeat(500)) })
          .map((parameters) => ({ name: 'pause', parameters })),
      ),
    },
  );
}

const variableArb = fc.record({
  name: fc.constantFrom('a', 'path', 'v_1', 'Q'),
  type: fc.constantFrom('string', 'number', 'boolean'),
  required: fc.boolean(),
  withDefault: fc.boolean(),
});

export const flowCaseArb: fc.Arbitrary<FlowCase> = fc
  .record({
    strict: fc.oneof({ weight: 6, arbitrary: fc.constant(false) }, { weight: 1, arbitrary: fc.constant(true) }),
    flowTimeout: fc.option(timeoutArb, { nil: undefined }),
    vars: fc.uniqueArray(variableArb, { maxLength: 3, selector: (v) => v.name }),
    files: fc.uniqueArray(
      fc.record({ name: fc.constantFrom('a.txt', 'photo.png', 'é ü.bin'), size: fc.constantFrom(0, 10, 70_000) }),
      { maxLength: 2, selector: (f) => f.name },
    ),
    onPause: fc.constantFrom('resume' as const, 'close' as const, 'interrupt' as const),
    sendVariables: fc.constantFrom('all', 'none', 'wrongType'),
    // A string variable's value: plain, or a piece of a placeholder (the split template, issue 44).
    text: fc.constantFrom('alert', '{{credentials.fuzz_any', '}}', '{{credentials.fuzz_any}}', '{{ a }}'),
  })
  .chain(({ strict, flowTimeout, vars, files, onPause, sendVariables, text }) => {
    const names = vars.map((v) => v.name);
    const sample = (type: string) => (type === 'string' ? 'alert' : type === 'number' ? 7 : true);
    const given = (type: string) => (type === 'string' ? text : sample(type));
    const variables = vars.map((v): Json => ({
      name: v.name,
      type: v.type,
      required: v.required,
      ...(v.withDefault ? { default: sample(v.type) } : {}),
    }));
    const runVariables =
      sendVariables === 'none' || !vars.length
        ? undefined
        : Object.fromEntries(
            vars.map((v) => [v.name, sendVariables === 'all' ? given(v.type) : v.type === 'string' ? 1 : 'x']),
          );
    // Most flows start where recorded ones do, with a navigate: the steps after it then act on a page.
    const first = fc.oneof(
      { weight: 4, arbitrary: fc.record({ type: fc.constant('navigate'), url: urlArb, timeout: timeoutArb }) },
      {
        weight: 1,
        arbitrary: stepArb(
          names,
          files.map((f) => f.name),
        ),
      },
    );
    return fc
      .tuple(
        first,
        fc.array(
          stepArb(
            names,
            files.map((f) => f.name),
          ),
          { maxLength: 5 },
        ),
      )
      .map(([head, rest]): FlowCase => ({
        strict,
        flow: { title: 'fuzz', ...(flowTimeout ? { timeout: flowTimeout } : {}), steps: [head as Json, ...rest] },
        variables,
        ...(runVariables ? { runVariables } : {}),
        files,
        onPause,
      }));
  });

/** $SITE and $REFUSED put back in every string of a value. */
function resolve<T>(value: T, world: FlowWorld): T {
  return JSON.parse(
    JSON.stringify(value)
      .replaceAll('$SITE', world.site)
      .replaceAll('$REFUSED', `http://127.0.0.1:${world.refusedPort}`),
  ) as T;
}

let made = 0;

/**
 * One case: store the flow, run it, follow it to its end (acting on pauses), then the checks every
 * case ends with. Returns the run's last status (undefined when the run was refused).
 */
export async function runFlowCase(fuzz: FlowCase, world: FlowWorld): Promise<RunStatusResponse | undefined> {
  let ended: RunStatusResponse | undefined;
  const svc = await (fuzz.strict ? world.strict() : world.open.up());
  await healthy(svc);
  const flow = resolve(fuzz.flow, world);
  const create = await svc.postJson('/api/workflows', { name: `fuzz ${++made}`, flow, variables: fuzz.variables });
  const createText = await create.text();
  // Every generated flow is valid by the contract: anything but 201 is a finding.
  check(create.status === 201, `POST /api/workflows answered ${create.status}: ${createText.slice(0, 800)}`);
  const workflowId = (JSON.parse(createText) as { id: string }).id;

  const form = new FormData();
  form.append('workflow_id', workflowId);
  if (fuzz.runVariables) form.append('variables', JSON.stringify(fuzz.runVariables));
  for (const f of fuzz.files) form.append('files', new Blob([new Uint8Array(f.size).fill(65)]), f.name);
  const run = await svc.api('/api/run_workflow', { method: 'POST', body: form });
  const runText = await run.text();
  check(
    [200, 422, 503].includes(run.status),
    `POST /api/run_workflow answered ${run.status}: ${runText.slice(0, 800)}`,
  );
  if (run.status === 422) {
    // Refused before any run: only for what the caller sent (variables missing or of the wrong type, a file not sent).
    check(
      /variables|files|workflow_id/.test(runText),
      `run_workflow refused with 422 for no reason of the caller's: ${runText.slice(0, 800)}`,
    );
  } else {
    const started = RunWorkflowResponse.parse(JSON.parse(runText));
    check(
      started.succeeded === (run.status === 200),
      `run_workflow answered ${run.status} with succeeded ${started.succeeded}`,
    );
    let acted: FlowCase['onPause'] | undefined;
    const status = await untilRunEnds(svc, started.session_id, 120_000 + flow.steps.length * 5_000, async (s) => {
      if (!s.pause || acted) return;
      acted = fuzz.onPause;
      const path = {
        resume: '/api/resume_session',
        close: '/api/close_workflow_session',
        interrupt: '/api/editor_interrupt',
      }[fuzz.onPause];
      const res = await svc.api(path, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ session_id: started.session_id }),
      });
      // 409: the run moved on meanwhile (it ended, or was no longer paused).
      check(
        res.status === 200 || res.status === 409,
        `POST ${path} on a paused run answered ${res.status}: ${(await res.text()).slice(0, 500)}`,
      );
      // A resumed run may reach another pause step: resume that one too.
      if (fuzz.onPause === 'resume') acted = undefined;
    });
    if (process.env.FUZZ_DEBUG)
      console.log(
        `fuzz flows: ${flow.steps.map((st) => (st.type === 'customStep' ? st.name : st.type)).join(',')} -> ${status.status}: ${status.message.slice(0, 300)}`,
      );
    checkRunOutcome(status, flow.steps.length, { interrupted: acted === 'interrupt', stopped: acted === 'close' });
    if (acted !== 'interrupt' && run.status === 200) await runSessionEnded(svc, started.session_id);
    ended = status;
  }
  await afterCase(svc);
  return ended;
}
