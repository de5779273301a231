import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RunsPage } from '../contract/runs.ts';
import { runsRepo } from '../server/store/runs.ts';
import { postJson, startServer, type TestServer } from './helpers/server.ts';

// GET /api/runs over runs recorded the way RunService records them (no browser needed to list).
let server: TestServer;
let workflowId: string;
beforeAll(async () => {
  server = await startServer();
  const res = await postJson(server, '/api/workflows', {
    name: 'listed',
    flow: { title: 'listed', steps: [] },
    variables: [],
  });
  workflowId = ((await res.json()) as { id: string }).id;
  const repo = runsRepo(server.app.db, server.app.config.nodeId);
  for (const [i, status] of (['succeeded', 'failed', 'running', 'succeeded', 'failed'] as const).entries()) {
    const id = randomUUID();
    await repo.insert({
      id,
      session_id: randomUUID(),
      workflow_id: i === 4 ? randomUUID() : workflowId,
      status: 'running',
      message: `run ${i}`,
      total_actions: 3,
      metadata: null,
      webhook_url: null,
    });
    if (status !== 'running')
      await repo.complete(id, { status, message: `run ${i} ${status}`, results: [], outputs: {}, screenshot: null });
    await new Promise((r) => setTimeout(r, 5));
  }
});
afterAll(() => server?.close());

const list = async (query: string) => {
  const res = await server.api(`/api/runs${query}`);
  expect(res.status).toBe(200);
  return RunsPage.parse(await res.json());
};

describe('GET /api/runs', () => {
  it('lists newest first with workflow names and durations, pages by cursor, filters by status and workflow', async () => {
    const all = await list('');
    expect(all.items.map((r) => r.message)).toEqual([
      'run 4 failed',
      'run 3 succeeded',
      'run 2',
      'run 1 failed',
      'run 0 succeeded',
    ]);
    expect(all.items[0]!.workflow_name).toBeNull(); // its workflow is not stored
    expect(all.items[1]).toMatchObject({ workflow_name: 'listed', status: 'succeeded' });
    expect(all.items[1]!.duration_ms).toBeGreaterThanOrEqual(0);
    expect(all.items[2]).toMatchObject({ status: 'running', completed_at: null, duration_ms: null });

    const first = await list('?limit=2');
    expect(first.items).toHaveLength(2);
    const second = await list(`?limit=2&cursor=${first.next_cursor}`);
    expect(second.items.map((r) => r.message)).toEqual(['run 2', 'run 1 failed']);

    expect((await list('?status=failed')).items.map((r) => r.message)).toEqual(['run 4 failed', 'run 1 failed']);
    expect((await list(`?workflow_id=${workflowId}&status=succeeded`)).items.map((r) => r.message)).toEqual([
      'run 3 succeeded',
      'run 0 succeeded',
    ]);
  });

  it('refuses a bad filter or cursor with a 422 naming it, and needs the key', async () => {
    for (const [query, field] of [
      ['?status=done', 'status'],
      ['?workflow_id=x', 'workflow_id'],
      ['?cursor=nope', 'cursor'],
      ['?limit=0', 'limit'],
    ]) {
      const res = await server.api(`/api/runs${query}`);
      expect(res.status, query).toBe(422);
      expect(JSON.stringify(await res.json())).toContain(field);
    }
    expect((await fetch(`${server.url}/api/runs`)).status).toBe(401);
  });
});
