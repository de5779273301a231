import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Writable } from 'node:stream';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../server/config.ts';
import { Bus } from '../server/events/bus.ts';
import { SessionLifecycle, type Phase } from '../server/sessions/lifecycle.ts';
import { BrowserSessionManager } from '../server/sessions/sessionManager.ts';
import { openStore, type Sql } from '../server/store/db.ts';
import { sessionsRepo } from '../server/store/sessions.ts';
import { workflowsRepo } from '../server/store/workflows.ts';
import { waitForNoServiceProcesses } from './helpers/processes.ts';
import { testDatabaseEnv } from './helpers/testDatabase.ts';

/** A logger whose warnings land in `lines`, parsed, for the test to read. */
function capturingLog() {
  const lines: { msg: string; subscriber?: string; phase?: string; session_id?: string }[] = [];
  const stream = new Writable({
    write(chunk: Buffer, _enc, done) {
      lines.push(JSON.parse(chunk.toString('utf8')));
      done();
    },
  });
  return { log: pino({ level: 'warn' }, stream), lines };
}

/** Short bounds, so an overrun shows within the test (the real ones are PHASE_BOUNDS_MS). */
const SHORT: Record<Phase, number> = { starting: 300, live: 300, beforeEnd: 300, afterEnd: 300 };

describe('SessionLifecycle on its own', () => {
  it('runs every subscriber of a phase, and logs one that throws or overruns by name', async () => {
    const { log, lines } = capturingLog();
    const lifecycle = new SessionLifecycle(log, SHORT);
    const ran: string[] = [];
    lifecycle.subscribe(
      {
        name: 'thrower',
        afterEnd: () => {
          throw new Error('boom');
        },
      },
      { name: 'sleeper', afterEnd: () => new Promise<void>(() => undefined) },
      { name: 'steady', afterEnd: (id, reason) => void ran.push(`${id}:${reason}`) },
    );
    expect(lifecycle.names).toEqual(['thrower', 'sleeper', 'steady']);
    await lifecycle.afterEnd('s1', 'stopped');
    expect(ran).toEqual(['s1:stopped']);
    const warned = lines.map((l) => [l.subscriber, l.phase, l.session_id]);
    expect(warned).toEqual(
      expect.arrayContaining([
        ['thrower', 'afterEnd', 's1'],
        ['sleeper', 'afterEnd', 's1'],
      ]),
    );
    expect(lines.find((l) => l.subscriber === 'sleeper')?.msg).toContain('sleeper');
    expect(lines).toHaveLength(2);
  });
});

describe('a session whose subscribers fail still starts and ends', () => {
  let dataDir: string;
  let sql: Sql;
  beforeAll(async () => {
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'bd-lifecycle-'));
    sql = await openStore({ dataDir, databaseUrl: (await testDatabaseEnv({}, dataDir)).DATABASE_URL });
  });
  afterAll(async () => {
    await sql?.close();
    fs.rmSync(dataDir, { recursive: true, force: true, maxRetries: 3 });
  });

  it('names the one that throws and the one that overruns in the log', async () => {
    const config = loadConfig({
      DATA_DIR: dataDir,
      LOG_LEVEL: 'silent',
      WARM_POOL_SIZE: '0',
      BROWSER_ALLOW_PRIVATE_NETWORKS: '1',
    });
    const { log, lines } = capturingLog();
    const lifecycle = new SessionLifecycle(log, SHORT);
    const seen: string[] = [];
    lifecycle.subscribe(
      {
        name: 'throws when live',
        live: () => {
          throw new Error('this subscriber is broken');
        },
      },
      { name: 'hangs before the end', beforeEnd: () => new Promise<void>(() => undefined) },
      {
        name: 'well behaved',
        starting: () => void seen.push('starting'),
        live: () => void seen.push('live'),
        beforeEnd: () => void seen.push('beforeEnd'),
        afterEnd: () => void seen.push('afterEnd'),
      },
    );
    const repo = sessionsRepo(sql, config.nodeId);
    const manager = new BrowserSessionManager({ config, repo, bus: new Bus(), log, lifecycle });
    try {
      await manager.start();
      const workflow = await workflowsRepo(sql).findOrCreateByName('lifecycle subscribers');
      const { session } = await manager.create({ workflowId: workflow.id, timeoutSeconds: 60, proxies: false });
      expect(session.state).toBe('live');
      expect(manager.get(session.id)).toBe(session);
      expect((await repo.get(session.id))?.state).toBe('live');

      await manager.end(session.id, 'stopped');
      expect(manager.get(session.id)).toBeUndefined();
      expect(await repo.get(session.id)).toMatchObject({ state: 'ended', end_reason: 'stopped' });
      expect(seen).toEqual(['starting', 'live', 'beforeEnd', 'afterEnd']);

      const named = (subscriber: string) =>
        lines.find((l) => l.subscriber === subscriber && l.session_id === session.id);
      expect(named('throws when live')).toMatchObject({ phase: 'live' });
      expect(named('throws when live')?.msg).toContain('throws when live');
      expect(named('hangs before the end')).toMatchObject({ phase: 'beforeEnd' });
      expect(named('hangs before the end')?.msg).toContain('hangs before the end');
    } finally {
      await manager.closeAll();
    }
    expect(await waitForNoServiceProcesses(dataDir)).toEqual([]);
  });
});
