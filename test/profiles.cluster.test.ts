import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Profile } from '../contract/profiles.ts';
import { LOGIN, loginStateIn, startLoginSite, visitLoginSite, type LoginSite } from './fixtures/loginSite.ts';
import { keyedCalls, type ChildServer } from './helpers/childServer.ts';
import { startClusterNode } from './helpers/clusterNode.ts';
import { createDatabase, startPostgres, type TestPostgres } from './helpers/postgres.ts';
import { waitForAsync } from './helpers/wait.ts';

// Profiles on two nodes of one Postgres (issue 35): a login saved by a session on one node starts a
// session on the other signed in, and the one-persisting-session lock holds across nodes.
const apiKey = `test_${randomBytes(16).toString('hex')}`;
const secretKey = randomBytes(32).toString('hex');
let postgres: TestPostgres;
let site: LoginSite;
const dirs: string[] = [];
const nodes: ChildServer[] = [];

beforeAll(async () => {
  [postgres, site] = await Promise.all([startPostgres(), startLoginSite()]);
  const databaseUrl = await createDatabase(postgres.adminUrl);
  // One after another: the first migrates, the other finds the schema there.
  for (let i = 0; i < 2; i++) {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'bd-node-'));
    dirs.push(dataDir);
    nodes.push(await startClusterNode({ databaseUrl, apiKey, secretKey, dataDir }));
  }
});

afterAll(async () => {
  await Promise.all(nodes.map((n) => n.stop()));
  await site?.close();
  await postgres?.stop();
  for (const d of dirs) fs.rmSync(d, { recursive: true, force: true });
});

const { api, post } = keyedCalls(apiKey);

async function started(node: ChildServer, persist: boolean): Promise<{ session_id: string; connect_url: string }> {
  const res = await post(node, '/api/create_workflow_session', {
    workflow_name: 'profiles on two nodes',
    profile: { name: 'team', persist },
  });
  expect(res.status, await res.clone().text()).toBe(200);
  return (await res.json()) as { session_id: string; connect_url: string };
}

describe('a profile in a cluster', () => {
  it('saved on one node, starts a session on the other signed in; the persist lock holds across nodes', async () => {
    const [a, b] = nodes as [ChildServer, ChildServer];
    expect((await post(a, '/api/profiles', { name: 'team' })).status).toBe(201);

    const writer = await started(a, true);
    expect(await visitLoginSite(writer.connect_url, site, '/login')).toBe('signed in');
    const second = await post(b, '/api/create_workflow_session', {
      workflow_name: 'profiles on two nodes',
      profile: { name: 'team', persist: true },
    });
    expect(second.status).toBe(409);
    expect(((await second.json()) as { message: string }).message).toContain(writer.session_id);
    expect((await api(b, '/api/profiles/team', { method: 'DELETE' })).status).toBe(409);

    expect((await api(a, `/api/sessions/${writer.session_id}`, { method: 'DELETE' })).status).toBe(200);
    const saved = await waitForAsync('the save, seen from the other node', async () => {
      const p = Profile.parse(await (await api(b, '/api/profiles/team')).json());
      return p.version === 1 && p.in_use_by.length === 0 ? p : undefined;
    });
    expect(saved.versions[0]).toMatchObject({ source: 'session', session_id: writer.session_id });

    const reader = await started(b, false);
    expect(await loginStateIn(reader.connect_url, site)).toEqual({
      cookie: true,
      localStorage: LOGIN.token,
      indexedDb: LOGIN.record,
    });
    expect((await api(b, `/api/sessions/${reader.session_id}`, { method: 'DELETE' })).status).toBe(200);
  });
});
