import { buildApp } from './app.ts';
import { ConfigError, loadConfig } from './config.ts';
import { logFileLimit, raiseFileLimit } from './http/connectionLimits.ts';

/** Read the environment, start listening, and shut down cleanly on SIGINT/SIGTERM. */
async function main(): Promise<void> {
  let config;
  try {
    config = loadConfig();
  } catch (e) {
    if (e instanceof ConfigError) {
      console.error(e.message);
      process.exit(2);
    }
    throw e;
  }
  // Before the app: its cap on connections follows the file limit.
  const files = raiseFileLimit();
  const app = await buildApp(config);
  logFileLimit(app.log, files);
  let closing = false;
  const shutdown = async (signal: string) => {
    if (closing) return;
    closing = true;
    app.log.info(`${signal}: ending sessions and closing`);
    await app.close();
    process.exit(0);
  };
  process.on('SIGINT', () => void shutdown('SIGINT'));
  process.on('SIGTERM', () => void shutdown('SIGTERM'));
  await app.listen({ port: config.PORT, host: config.HOST });
  app.log.info(`Browserdesk is up: dashboard at ${app.publicUrl()}/ and API at ${app.publicUrl()}/api`);
}

main().catch((e: unknown) => {
  console.error(e instanceof Error ? e.message : e);
  process.exit(1);
});
