import { afterAll, beforeAll } from 'vitest';
import { startAgentSite, type AgentSite } from '../fixtures/agentSite.ts';
import { startFakeModel, type FakeModel } from './fakeModel.ts';
import { startServer, type TestServer } from './server.ts';

/** What the agent's tests run against: the real server, the fake model as its writer, and the agent's local site. */
export interface AgentBed {
  server: TestServer;
  fake: FakeModel;
  site: AgentSite;
}

/**
 * Start the bed before the calling file's tests and end it after them (call at the file's top
 * level). The model is not retried, so a scripted failure is seen at once.
 */
export function agentBed(): AgentBed {
  const bed = {} as AgentBed;
  beforeAll(async () => {
    bed.fake = await startFakeModel();
    bed.server = await startServer(bed.fake.env('openai-compatible', { WRITER_MAX_RETRIES: '0' }));
    bed.site = await startAgentSite();
  }, 60_000);
  afterAll(async () => {
    await bed.server?.discard();
    await bed.site?.close();
    await bed.fake?.close();
  });
  return bed;
}
