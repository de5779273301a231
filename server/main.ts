import { buildApp } from './app.ts';
import { ConfigError, loadConfig } from './config.ts';
import { logFileLimit, raiseFileLimit } from './http/connectionLimits.ts';

/** Read the environment, start listening; drain on SIGTERM, and shut down cleanly once drained or on SIGINT. */
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
  const shutdown = async (why: string) => {
    if (closing) return;
    closing = true;
    app.log.info(`${why}: ending sessions and closing`);
    await app.close();
    process.exit(0);
  };
  // A drain (SIGTERM, or POST /api/nodes/{id}/drain) ends with the process once what ran has ended.
  void app.drain.finished.then(() => shutdown('drained'));
  process.on('SIGINT', () => void shutdown('SIGINT'));
  // The first SIGTERM drains within DRAIN_TIMEOUT_S; a second one stops at once, as SIGINT does.
  process.on('SIGTERM', () => {
    if (!app.drain.state()) {
      app.log.info(`SIGTERM: draining (DRAIN_TIMEOUT_S=${config.DRAIN_TIMEOUT_S}) before closing`);
      app.drain.begin();
    } else void shutdown('SIGTERM again');
  });
  await app.listen({ port: config.PORT, host: config.HOST });
  app.log.info(`Browserdesk is up: dashboard at ${app.publicUrl()}/ and API at ${app.publicUrl()}/api`);
}

main().catch((e: unknown) => {
  console.error(e instanceof Error ? e.message : e);
  process.exit(1);
});
