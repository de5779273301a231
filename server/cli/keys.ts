import { loadConfig } from '../config.ts';
import { openStore } from '../store/db.ts';
import { apiKeysRepo } from '../store/apiKeys.ts';
import { Conflict } from '../domain/errors.ts';
import { createApiKey } from '../secrets/apiKeys.ts';

/** npm run keys -- create [name] | list | revoke <id or prefix> */
const USAGE = 'usage: npm run keys -- create [name] | list | revoke <id-or-prefix>';

async function run(argv: string[]): Promise<number> {
  const [cmd, arg] = argv;
  const config = loadConfig();
  const db = await openStore({ dataDir: config.dataDir, databaseUrl: config.DATABASE_URL });
  const repo = apiKeysRepo(db);
  try {
    switch (cmd) {
      case 'create': {
        const created = await createApiKey(repo, arg ?? 'cli').catch((err: unknown) => {
          if (!(err instanceof Conflict)) throw err;
          console.error(err.message);
          return null;
        });
        if (!created) return 1;
        const { key, id } = created;
        console.log(`Created key ${id}. It is shown once; store it now:\n${key}`);
        return 0;
      }
      case 'list':
        for (const k of await repo.list()) {
          console.log(
            [
              k.id,
              k.prefix + '…',
              k.name,
              k.revoked_at ? `revoked ${k.revoked_at}` : 'active',
              `created ${k.created_at}`,
            ].join('\t'),
          );
        }
        return 0;
      case 'revoke': {
        if (!arg) break;
        const n = await repo.revoke(arg);
        console.log(n ? `Revoked ${n} key(s).` : `No active key matches ${arg}.`);
        return n ? 0 : 1;
      }
    }
    console.error(USAGE);
    return 2;
  } finally {
    await db.close();
  }
}

process.exit(await run(process.argv.slice(2)));
