import fp from 'fastify-plugin';
import type { FastifyInstance } from 'fastify';
import { createAgentTools, type AgentTools } from '../../agentTools/index.ts';
import { PublicUrls } from '../../sessions/publicUrls.ts';
import { chooseModel } from '../../writer/model.ts';

declare module 'fastify' {
  interface FastifyInstance {
    agentTools: AgentTools;
  }
}

/**
 * app.agentTools: the browser tools for AI agents (server/agentTools), which /api/mcp exposes. They
 * connect to a session as a CDP client of this very server over loopback: PUBLIC_URL may name a
 * proxy this host cannot reach, and the session is on this node anyway.
 */
export const agentToolsService = fp(
  async (app: FastifyInstance) => {
    const loopback = new PublicUrls({
      base: () => {
        const addr = app.server.address();
        const port = addr && typeof addr === 'object' ? addr.port : app.config.PORT;
        const host = app.config.HOST === '0.0.0.0' || app.config.HOST === '::' ? '127.0.0.1' : app.config.HOST;
        return `http://${host.includes(':') ? `[${host}]` : host}:${port}`;
      },
      signingKey: app.urlSigningKey,
    });
    const model = chooseModel(app.config, globalThis.fetch);
    const tools = createAgentTools({
      sessions: app.sessions,
      records: app.sessionRecords,
      urls: app.urls,
      cdpUrl: (id, token) => loopback.session(id, { cdp: token }).connect_url!,
      events: app.sessionEvents,
      log: app.log,
      privateNetworksAllowed: app.config.BROWSER_ALLOW_PRIVATE_NETWORKS,
      runs: app.runs,
      workflows: app.workflows,
      downloads: (id) => app.urls.fileMetadata(id, app.artifacts.files(id)),
      // The writer's provider settings (WRITER_*); fixed for the process, so chosen once.
      model: () => model,
    });
    app.decorate('agentTools', tools);
    // Before the sessions end (preClose): the connections close as a client's would.
    app.addHook('preClose', () => tools.close());
  },
  {
    name: 'agentTools',
    dependencies: ['sessions', 'sessionRecords', 'sessionEvents', 'runs', 'workflows', 'artifacts'],
  },
);
