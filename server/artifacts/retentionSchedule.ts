import type { Log } from '../log.ts';
import type { Artifacts } from './service.ts';

/**
 * Artifact retention at start (after the session manager has marked a previous process's sessions
 * ended) and then every `everyMs` on an unref'd timer; stop() waits for a sweep under way.
 */
export class RetentionSchedule {
  private timer: NodeJS.Timeout | undefined;
  private sweeping: Promise<unknown> = Promise.resolve();

  constructor(
    private readonly artifacts: Pick<Artifacts, 'sweep'>,
    private readonly everyMs: number,
    private readonly log: Log,
  ) {}

  async start(): Promise<void> {
    await this.sweep();
    this.timer = setInterval(() => void this.sweep(), this.everyMs).unref();
  }

  async stop(): Promise<void> {
    clearInterval(this.timer);
    await this.sweeping;
  }

  private sweep(): Promise<unknown> {
    this.sweeping = this.artifacts.sweep().catch((err: unknown) => this.log.warn({ err }, 'artifact retention failed'));
    return this.sweeping;
  }
}
