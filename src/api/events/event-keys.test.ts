import { QueryClient, type QueryKey } from '@tanstack/react-query';
import { describe, expect, it } from 'vitest';
import { overviewKeys } from '../overview/keys.ts';
import { profileKeys } from '../profiles/keys.ts';
import { runKeys } from '../runs/keys.ts';
import { sessionKeys } from '../sessions/keys.ts';
import { workflowKeys } from '../workflows/keys.ts';
import { keysFor, liveKeys } from './event-keys.ts';

const A = '11111111-2222-4333-8444-555555555555';
const B = '99999999-2222-4333-8444-555555555555';

/** Every cached key a dashboard can hold, for sessions A and B, as labels. */
const cached: Record<string, QueryKey> = {
  'sessions list': sessionKeys.list({ limit: 50 }),
  'live sessions list': sessionKeys.list({ limit: 50, state: 'live' }),
  'A one': sessionKeys.one(A),
  'A status': sessionKeys.status(A),
  'A events': sessionKeys.events(A),
  'A store': sessionKeys.store(A),
  'A views': sessionKeys.views(A),
  'A run': runKeys.status(A),
  'B one': sessionKeys.one(B),
  'B status': sessionKeys.status(B),
  'B events': sessionKeys.events(B),
  'B views': sessionKeys.views(B),
  'B run': runKeys.status(B),
  'runs list': runKeys.list({}),
  'failed runs list': runKeys.list({ status: 'failed' }),
  'workflows list': workflowKeys.list(100),
  overview: overviewKeys.one('2026-11-25T00:00:00+01:00'),
  'profiles list': profileKeys.list(),
  'one profile': profileKeys.one('shop-login'),
};

/** The labels of the cached queries left invalidated after invalidating `keys`. */
async function invalidatedBy(keys: QueryKey[]): Promise<string[]> {
  const client = new QueryClient();
  for (const key of Object.values(cached)) client.setQueryData(key, {});
  for (const queryKey of keys) await client.invalidateQueries({ queryKey });
  return Object.keys(cached)
    .filter((label) => client.getQueryState(cached[label]!)?.isInvalidated)
    .sort();
}

describe('keysFor', () => {
  it('session.changed: that session (not its views or storage state), the sessions and runs lists, the overview and the profiles', async () => {
    expect(await invalidatedBy(keysFor({ type: 'session.changed', session_id: A }))).toEqual(
      [
        'A events',
        'A one',
        'A run',
        'A status',
        'failed runs list',
        'live sessions list',
        'one profile',
        'overview',
        'profiles list',
        'runs list',
        'sessions list',
      ].sort(),
    );
  });

  it("run.step and run.completed: that session's run, status and log, and the runs lists; an outcome also the overview", async () => {
    const expected = ['A events', 'A run', 'A status', 'failed runs list', 'runs list'].sort();
    expect(await invalidatedBy(keysFor({ type: 'run.step', session_id: A, index: 2 }))).toEqual(expected);
    expect(await invalidatedBy(keysFor({ type: 'run.completed', session_id: A, succeeded: true }))).toEqual(
      [...expected, 'overview'].sort(),
    );
  });
});

describe('liveKeys', () => {
  it('covers what any event could change, for every session, and nothing that mints tokens or is not live', async () => {
    const all = await invalidatedBy(liveKeys());
    expect(all).not.toContain('A views');
    expect(all).not.toContain('A store');
    expect(all).not.toContain('workflows list');
    for (const id of [A, B])
      for (const e of [
        keysFor({ type: 'session.changed', session_id: id }),
        keysFor({ type: 'run.step', session_id: id, index: 0 }),
        keysFor({ type: 'run.completed', session_id: id, succeeded: false }),
      ]) {
        for (const label of await invalidatedBy(e)) expect(all).toContain(label);
      }
  });
});
