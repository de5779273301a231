import pino from 'pino';
import { expect, it } from 'vitest';
import { Membership } from '../server/cluster/membership.ts';
import { nodesRepo } from '../server/store/nodes.ts';
import { storeForFile } from './helpers/fileStore.ts';

// A node restarting on its address beat before it listened, with its room: the other nodes placed
// sessions on it at once and their forwards found nothing listening (503). Over a real store
// (SQLite here, Postgres in the Postgres pass), another node asks where a session can go.
const store = storeForFile('bd-membership-');

const member = (nodeId: string) =>
  new Membership({
    config: { nodeId, MAX_SESSIONS: 3 },
    nodes: nodesRepo(store.sql),
    load: () => 0,
    draining: () => false,
    onBeat: async () => undefined,
    log: pino({ level: 'silent' }),
  });

it('a node is placed on only once it listens, and not once it has stopped', async () => {
  const starting = member('http://127.0.0.1:1');
  const other = member('http://127.0.0.1:2');
  await Promise.all([starting.start(), other.start()]);
  // Known alive (its heartbeat is there) but with no room while it does not listen.
  expect(await other.liveNode('http://127.0.0.1:1')).toBe('http://127.0.0.1:1');
  expect(await other.nodeWithRoom()).toBeNull();

  starting.listens();
  await expect.poll(() => other.nodeWithRoom()).toBe('http://127.0.0.1:1');

  await starting.stop();
  expect(await other.nodeWithRoom()).toBeNull();
  await other.stop();
});
