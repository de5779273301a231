import { Worker } from 'node:worker_threads';
import { afterAll, expect, it } from 'vitest';
import { EngineThreads } from '../server/runs/engine/engineThreads.ts';

// Once a run took a thread, the next one is started ahead and waits: a run then takes a thread
// that has loaded the engine already instead of waiting for one to load.
const threads = new EngineThreads();
afterAll(() => threads.close());

it('hands the next run a thread started before it asked, and a thread waits for its run without ending', async () => {
  const first = await threads.take();
  // Thread ids grow with every thread this process starts: a thread made now is newer than one
  // started ahead, and older than one started only when asked.
  const probe = new Worker('', { eval: true });
  const second = await threads.take();
  expect(second.threadId).toBeLessThan(probe.threadId);
  expect(second.threadId).toBeGreaterThan(first.threadId);
  // Neither has ended: a thread waits for its start message.
  const exited: number[] = [];
  for (const w of [first, second]) w.once('exit', () => exited.push(w.threadId));
  await new Promise((r) => setTimeout(r, 300));
  expect(exited).toEqual([]);
  await Promise.all([first.terminate(), second.terminate(), probe.terminate()]);
});

it('starts none ahead once closed', async () => {
  await threads.close();
  const taken = await threads.take();
  const probe = new Worker('', { eval: true });
  // Started after the close, on demand; and nothing was started ahead of it since.
  expect(taken.threadId).toBeLessThan(probe.threadId);
  const after = await threads.take();
  expect(after.threadId).toBeGreaterThan(probe.threadId);
  await Promise.all([taken.terminate(), after.terminate(), probe.terminate()]);
});
