import type { Log } from '../../log.ts';
import { runStartSteps } from '../startSteps.ts';
import type { CreateSessionInput } from '../types.ts';
import type { ContextBrowsers } from './contextBrowsers.ts';
import type { ContextLease } from './sharedBrowser.ts';

/**
 * A context session's start: its context in a browser of its key, then what it asked for (its
 * storage state, its first address). `onLease` is told as soon as the context exists, so the
 * session's end can release it meanwhile; a start the end overtook releases what it got itself.
 */
export async function startContext(opts: {
  id: string;
  input: CreateSessionInput;
  contexts: ContextBrowsers;
  signal: AbortSignal;
  refusable: boolean;
  log: Log;
  onLease: (lease: ContextLease) => void;
}): Promise<ContextLease> {
  const { id, input, contexts, signal, log } = opts;
  const lease = await contexts.open(id, input.apiKeyId ?? null, signal, opts.refusable);
  if (signal.aborted) {
    await contexts.release(id, lease);
    signal.throwIfAborted();
  }
  opts.onLease(lease);
  await runStartSteps(lease.cdp, { sessionData: input.storageState, startUrl: input.startUrl }, signal, log);
  if (!lease.alive) throw new Error('the shared browser died while the session started');
  return lease;
}
