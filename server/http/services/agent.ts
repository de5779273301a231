import fp from 'fastify-plugin';
import type { FastifyInstance } from 'fastify';
import { EditorSessions } from '../../agent/editorSessions.ts';
import { AgentRunAi } from '../../agent/runAi.ts';
import { chooseModel } from '../../writer/model.ts';
import { modelFetch } from '../../writer/modelFetch.ts';

declare module 'fastify' {
  interface FastifyInstance {
    agent: EditorSessions;
  }
}

/** How many tool calls one turn of the agent may make before it stops and says so. */
const AGENT_STEPS_PER_TURN = 30;

/**
 * app.agent: the browser agent of editor sessions (server/agent), over the agent tools and the
 * writer's model settings (WRITER_*), with the writer's per-attempt timeout and retries; and the
 * runs' AI steps (extract with an instruction, act, self-healing) on the same.
 */
export const agentService = fp(
  async (app: FastifyInstance) => {
    const { config } = app;
    const fetcher = modelFetch(config.WRITER_TIMEOUT_MS);
    const model = chooseModel(config, fetcher.fetch);
    const agent = new EditorSessions({
      records: app.sessionRecords,
      sessions: app.sessions,
      workflows: app.workflows,
      tools: app.agentTools,
      credentials: app.credentials,
      events: app.sessionEvents,
      urls: app.urls,
      model: () => model,
      limits: {
        maxSteps: AGENT_STEPS_PER_TURN,
        maxRetries: config.WRITER_MAX_RETRIES,
        maxOutputTokens: config.WRITER_MAX_OUTPUT_TOKENS,
        timeoutMs: config.WRITER_TIMEOUT_MS,
      },
      log: app.log,
    });
    app.decorate('agent', agent);
    // Runs' AI steps and self-healing (runs/ai.ts) go through the same model, browsers and agent.
    app.runs.useAi(
      new AgentRunAi({
        model: () => model,
        page: (id) => app.agentTools.page(id),
        snapshots: app.agentTools.snapshots,
        act: (id, instruction, maxSteps, signal, secrets) => agent.act(id, instruction, maxSteps, signal, secrets),
      }),
    );
    // preClose: turns under way stop before the sessions (and the tools' connections) go.
    app.addHook('preClose', async () => agent.close());
    app.addHook('onClose', async () => fetcher.close());
  },
  {
    name: 'agent',
    dependencies: ['agentTools', 'runs', 'sessionRecords', 'sessions', 'workflows', 'credentials', 'sessionEvents'],
  },
);
