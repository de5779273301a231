import fs from 'node:fs';
import path from 'node:path';

/**
 * Each run's own folder on this node (DATA_DIR/runs/<run id>): the files its request uploaded,
 * kept from the request until the run ends or is refused.
 */
export class RunFolders {
  constructor(private readonly dataDir: string) {}

  of(runId: string): string {
    return path.join(this.dataDir, 'runs', runId);
  }

  remove(run: { filesDir: string }): void {
    fs.rmSync(run.filesDir, { recursive: true, force: true });
  }
}
