import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { SessionEventLog } from '../server/sessionEvents/log.ts';
import { sessionEventsRepo } from '../server/store/sessionEvents.ts';
import { storeForFile } from './helpers/fileStore.ts';

// Two nodes' logs over one store (SQLite here, Postgres in the Postgres pass).
const store = storeForFile('bd-eventlog-');

describe("a session's event log written by two nodes", () => {
  it("puts an event whose counted index another node took after that node's, and loses none", async () => {
    const errors: unknown[] = [];
    const owner = new SessionEventLog(sessionEventsRepo(store.sql), (e) => errors.push(e));
    const reaper = new SessionEventLog(sessionEventsRepo(store.sql), (e) => errors.push(e));
    const id = randomUUID();
    const workflow_id = randomUUID();
    owner.append(id, { event: 'SessionStarted', workflow_id });
    expect(await owner.total(id)).toBe(1); // the owner now counts on index 1 being its next
    // The owner's node seemed dead: another node logs for the session (the run's end, then the session's).
    reaper.append(id, { event: 'RunError', message: 'node lost', outputs: {} });
    expect(await reaper.total(id)).toBe(2);
    // The owner, alive after all, writes at the index it counted: taken, so it goes after.
    owner.append(id, { event: 'RunCompleted', message: 'late', outputs: {} });
    await owner.total(id);
    expect(errors).toEqual([]);
    const { events } = await reaper.page(id, 0, 10);
    expect(events.map((e) => [e.index, e.event])).toEqual([
      [0, 'SessionStarted'],
      [1, 'RunError'],
      [2, 'RunCompleted'],
    ]);
  });
});
