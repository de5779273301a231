import { startChildServer, type ChildServer } from './childServer.ts';
import { freePort } from './wait.ts';

export interface ClusterNodeOptions {
  /** The Postgres every node of the cluster shares. */
  databaseUrl: string;
  apiKey: string;
  /** The same on every node: each checks the URLs the others signed. */
  secretKey: string;
  dataDir: string;
  /** A restart on the node's old address; a free port otherwise. */
  port?: number;
  /** Added to, or overriding, the cluster defaults below (MAX_SESSIONS=2, …). */
  env?: Record<string, string>;
}

/** One node of a test cluster as its own process: NODE_URL is its own loopback address. */
export async function startClusterNode(opts: ClusterNodeOptions): Promise<ChildServer> {
  const port = opts.port ?? (await freePort());
  return startChildServer({
    dataDir: opts.dataDir,
    apiKey: opts.apiKey,
    port,
    env: {
      DATABASE_URL: opts.databaseUrl,
      NODE_URL: `http://127.0.0.1:${port}`,
      BROWSERDESK_SECRET_KEY: opts.secretKey,
      MAX_SESSIONS: '2',
      WEBHOOK_ALLOW_PRIVATE: '1',
      RECORD_SESSIONS: 'off',
      ...opts.env,
    },
  });
}
