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

/** fetch against a node with the cluster's key, and a JSON POST: what a client of the cluster sends. */
export function clusterClient(apiKey: string) {
  const api = (node: ChildServer, pathname: string, init: RequestInit = {}) =>
    fetch(node.url + pathname, {
      ...init,
      headers: { 'x-api-key': apiKey, ...(init.headers as Record<string, string>) },
    });
  const post = (node: ChildServer, pathname: string, body: unknown) =>
    api(node, pathname, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
  return { api, post };
}
