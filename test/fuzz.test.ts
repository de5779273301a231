import fs from 'node:fs';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, it } from 'vitest';
import { startHostileSite, type HostileSite } from './fixtures/hostileSite.ts';
import { freePort } from './helpers/wait.ts';
import { cdpCaseArb, runCdpCase } from './fuzz/cdp.ts';
import { flowCaseArb, runFlowCase, type FlowWorld } from './fuzz/flows.ts';
import { dialogCaseArb, runDialogCase } from './fuzz/dialogs.ts';
import { FUZZ_API_KEY, fuzzEnv, Service } from './fuzz/harness.ts';
import { routeCaseArb, runRouteCase, type RouteWorld } from './fuzz/routes.ts';
import { mcpCaseArb, runMcpCase } from './fuzz/mcp.ts';
import { agentCaseArb, runAgentCase, type AgentWorld } from './fuzz/agent.ts';
import { startFakeModel, type FakeModel } from './helpers/fakeModel.ts';

/**
 * Issue 23: nothing a caller sends ends the service. Six properties, each case against the real
 * server as a child process (a crash is a failed check, not the end of vitest):
 * - flows: random Recorder flows over a hostile site, run through the API;
 * - dialogs: flows over pages that open dialogs during their steps, none outlasting its timeout (test/fuzz/dialogs.ts);
 * - cdp: random connect_url traffic;
 * - routes: every contract route with random and mutated bodies, encodings and headers;
 * - mcp: arbitrary JSON-RPC on /api/mcp (test/fuzz/mcp.ts);
 * - agent: editor sessions whose model (a fake) answers at random, with random messages (test/fuzz/agent.ts).
 * After every case the server answers /api/healthz, every run is terminal with a message naming
 * its step, no process is left, and a next session starts.
 *
 * In `npm test` each property runs CI_RUNS cases with a fresh seed (printed; FUZZ_SEED=… replays
 * it, FUZZ_PATH=… too, as fast-check's failure report says). `npm run fuzz -- --minutes N` sets
 * FUZZ_MINUTES and loops the properties until the time is up (scripts/fuzz.mjs). FUZZ_DEBUG=1
 * prints what each case sent and how it ended.
 */

/** Cases per property in `npm test`: about 100 s for the file on two cores (flows ~4 s a case, cdp ~2 s, routes ~2 s, agent ~2 s), two minutes at worst. */
export const CI_RUNS = { flows: 10, dialogs: 4, cdp: 10, routes: 15, mcp: 6, agent: 6 } as const;
type Name = keyof typeof CI_RUNS;

let site: HostileSite;
const credentials = async (svc: Service) => {
  for (const body of [
    { name: 'fuzz_any', value: 's3cret-any' },
    { name: 'fuzz_elsewhere', value: 's3cret-elsewhere', allowed_origins: ['https://example.com'] },
  ]) {
    const res = await svc.postJson('/api/store_credential', body);
    if (res.status !== 200) throw new Error(`store_credential answered ${res.status}: ${await res.text()}`);
  }
};
// A shared browser (context sessions, in the cdp property) stops as its last session ends: every case ends with no process left.
const open = new Service('open', { CONTEXT_BROWSER_IDLE_S: '0' }, credentials);
let strict: Service | undefined;
let flowWorld: FlowWorld;
let routeWorld: RouteWorld;
/** The agent's model: one fake for the whole file, its answers set per case (test/fuzz/agent.ts). */
let fake: FakeModel | undefined;
let agentSvc: Service | undefined;
let agentWorld: AgentWorld;

beforeAll(async () => {
  site = await startHostileSite();
  await open.up();
  flowWorld = {
    site: site.origin,
    paths: site.paths,
    refusedPort: await freePort(),
    open,
    strict: async () => (strict ??= new Service('strict', { BROWSER_ALLOW_PRIVATE_NETWORKS: '0' }, credentials)).up(),
  };
  routeWorld = { svc: open, apiKey: FUZZ_API_KEY };
  fake = await startFakeModel();
  const model = fake.env('openai-compatible', { MODEL_MAX_RETRIES: '0', MODEL_TIMEOUT_MS: '3000' });
  agentWorld = {
    site: site.origin,
    fake,
    svc: async () => (agentSvc ??= new Service('agent', model)).up(),
  };
});

afterAll(async () => {
  await open.down();
  await strict?.down();
  await agentSvc?.down();
  await fake?.close();
  await site?.close();
});

type Property = fc.IAsyncPropertyWithHooks<[unknown]>;
const property = <T>(arb: fc.Arbitrary<T>, run: (c: T) => Promise<void>): Property =>
  fc.asyncProperty(arb, run) as unknown as Property;
const properties: Record<Name, () => Property> = {
  flows: () => property(flowCaseArb, async (c) => void (await runFlowCase(c, flowWorld))),
  dialogs: () => property(dialogCaseArb, (c) => runDialogCase(c, flowWorld)),
  cdp: () => property(cdpCaseArb, (c) => runCdpCase(c, open)),
  routes: () => property(routeCaseArb, (c) => runRouteCase(c, routeWorld)),
  mcp: () => property(mcpCaseArb, (c) => runMcpCase(c, open, FUZZ_API_KEY)),
  agent: () => property(agentCaseArb, (c) => runAgentCase(c, agentWorld)),
};
const names = (Object.keys(properties) as Name[]).filter((n) => !fuzzEnv.only || fuzzEnv.only.includes(n));

if (!fuzzEnv.minutes) {
  describe('fuzz: nothing a caller sends ends the service', () => {
    for (const name of names) {
      it(
        `${name}: ${CI_RUNS[name]} cases`,
        async () => {
          console.log(
            `fuzz ${name}: seed ${fuzzEnv.seed}${fuzzEnv.path ? ` path ${fuzzEnv.path}` : ''} (replay: FUZZ_SEED=${fuzzEnv.seed} FUZZ_ONLY=${name} npx vitest run test/fuzz.test.ts)`,
          );
          await fc.assert(properties[name](), {
            seed: fuzzEnv.seed,
            ...(fuzzEnv.path ? { path: fuzzEnv.path } : {}),
            numRuns: CI_RUNS[name],
            verbose: fc.VerbosityLevel.Verbose,
            // A failure's shrinking replays cases against a real browser: bounded, keeping the smallest found so far.
            interruptAfterTimeLimit: 4 * 60_000,
          });
        },
        6 * 60_000,
      );
    }
  });
} else {
  describe(`fuzz for ${fuzzEnv.minutes} minutes`, () => {
    it(
      'loops the properties until the time is up',
      async () => {
        const deadline = Date.now() + fuzzEnv.minutes * 60_000;
        const cases: Record<string, number> = Object.fromEntries(names.map((n) => [n, 0]));
        const failures: Record<string, unknown>[] = [];
        for (let round = 0; Date.now() < deadline; round++) {
          for (const [i, name] of names.entries()) {
            const left = deadline - Date.now();
            if (left <= 0) break;
            const seed = (fuzzEnv.seed + round * names.length + i) % 2 ** 31;
            const details = await fc.check(properties[name](), {
              seed,
              numRuns: { flows: 4, dialogs: 2, cdp: 4, routes: 6, mcp: 4, agent: 3 }[name],
              interruptAfterTimeLimit: left + 3 * 60_000,
            });
            cases[name]! += details.numRuns;
            const line = `fuzz round ${round} ${name}: seed ${seed}, ${details.numRuns} cases${details.failed ? ' FAILED' : ''}`;
            console.log(line);
            if (details.failed) {
              const failure = {
                property: name,
                seed,
                path: details.counterexamplePath,
                counterexample: details.counterexample ? fc.stringify(details.counterexample[0]) : null,
                error:
                  details.errorInstance instanceof Error
                    ? details.errorInstance.message.slice(0, 4000)
                    : String(details.errorInstance).slice(0, 4000),
                shrinks: details.numShrinks,
              };
              console.log(JSON.stringify(failure));
              failures.push(failure);
            }
          }
        }
        const crashes = [open, ...(strict ? [strict] : []), ...(agentSvc ? [agentSvc] : [])].flatMap((s) =>
          s.crashes.map((c) => ({ server: s.name, crash: c.slice(0, 4000) })),
        );
        const summary = { minutes: fuzzEnv.minutes, seed: fuzzEnv.seed, cases, failures, crashes };
        if (fuzzEnv.summary) fs.writeFileSync(fuzzEnv.summary, JSON.stringify(summary));
        else console.log(JSON.stringify(summary));
      },
      (fuzzEnv.minutes + 15) * 60_000,
    );
  });
}
