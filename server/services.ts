import type { AddressInfo } from 'node:net';
import type { Config } from './config.ts';
import type { Log } from './log.ts';
import { openStore } from './store/db.ts';
import { apiKeysRepo } from './store/apiKeys.ts';
import { cliAuthTicketsRepo } from './store/cliAuthTickets.ts';
import { credentialsRepo } from './store/credentials.ts';
import { profilesRepo } from './store/profiles.ts';
import { nodesRepo } from './store/nodes.ts';
import { outboxRepo } from './store/outbox.ts';
import { overviewRepo } from './store/overview.ts';
import { runsRepo } from './store/runs.ts';
import { sessionEventsRepo } from './store/sessionEvents.ts';
import { sessionsRepo } from './store/sessions.ts';
import { workflowsRepo } from './store/workflows.ts';
import { writesRepo } from './store/writes.ts';
import { Bus } from './events/bus.ts';
import { onBusServerEvents, ServerEvents } from './events/serverEvents.ts';
import { ApiKeyAdmin, bootstrapApiKey } from './secrets/apiKeys.ts';
import { CliAuthTickets } from './cliAuth/cliAuthTickets.ts';
import { credentialCipher } from './secrets/credentialCipher.ts';
import { loadSecretKey, subKey } from './secrets/secretKey.ts';
import { openModel } from './model/model.ts';
import { BrowserSessionManager } from './sessions/sessionManager.ts';
import { SessionLifecycle } from './sessions/lifecycle.ts';
import { SessionClientCounts } from './sessions/clientCounts.ts';
import { PrivateCdpEndpoint } from './sessions/cdp/privateEndpoint.ts';
import { PublicUrls } from './sessions/publicUrls.ts';
import { SessionRecords } from './sessions/sessionRecords.ts';
import { WorkflowService } from './workflows/workflowService.ts';
import { CredentialsService } from './credentials/service.ts';
import { ProfileService } from './profiles/profileService.ts';
import { WebhookDispatcher } from './webhooks/dispatcher.ts';
import { forwardBusToWebhooks } from './webhooks/fromBus.ts';
import { WriteService } from './writer/service.ts';
import { Artifacts } from './artifacts/service.ts';
import { RetentionSchedule } from './artifacts/retentionSchedule.ts';
import { SessionRecordings } from './artifacts/sessionRecordings.ts';
import { SessionEventLog } from './sessionEvents/log.ts';
import { logSessionEvents } from './sessionEvents/sessionLogging.ts';
import { SessionNetworks } from './network/sessionNetworks.ts';
import { OverviewService } from './overview/overviewService.ts';
import { RunService } from './runs/runService.ts';
import { createAgentTools } from './agentTools/index.ts';
import { EditorSessions } from './agent/editorSessions.ts';
import { AgentRunAi } from './agent/runAi.ts';
import { Membership } from './cluster/membership.ts';
import { reapDeadNodes } from './cluster/reaper.ts';
import { EventRelay } from './cluster/eventRelay.ts';
import { NodeDrain } from './cluster/drain.ts';
import { ServerParts } from './serverParts.ts';
import { SessionRecorders } from './recorder/sessionRecorders.ts';

/** Every service of the server, built once, in dependency order, by buildServices (app.<name> in routes). */
export type Services = Awaited<ReturnType<typeof buildServices>>['services'];

/** How often artifact retention looks again after the sweep at start. */
const RETENTION_SWEEP_MS = 5 * 60_000;

/**
 * The composition root: every service built once, each handed the ones it needs, in the order they
 * depend on each other, each followed by its part in the server's life (ServerParts: started in
 * this order, quiesced and closed in the reverse). The one dependency that points back up is the
 * runs' AI (runs → agent → agent tools → runs): the runs are built first and given their AI once
 * the agent exists (useAi). `address` is the server's listening address, known once it listens
 * (publicUrl without PUBLIC_URL).
 */
export async function buildServices(
  config: Config,
  { log, address }: { log: Log; address: () => AddressInfo | string | null },
) {
  const parts = new ServerParts();
  // Before the database: a key we cannot use stops the start with nothing else opened.
  const secretKey = loadSecretKey(config.dataDir, config.BROWSERDESK_SECRET_KEY, log);
  const db = await openStore({ dataDir: config.dataDir, databaseUrl: config.DATABASE_URL });
  parts.add({ closeLast: () => db.close() });

  const bus = new Bus();
  /** What GET /api/events streams: this node's bus events, and in a cluster the other nodes' (cluster/eventRelay.ts). */
  const serverEvents = new ServerEvents();
  onBusServerEvents(bus, (e) => serverEvents.emit(e));
  // Each repository once; a service takes the ones it reads.
  const store = { apiKeys: apiKeysRepo(db), workflows: workflowsRepo(db) };
  const repos = { sessions: sessionsRepo(db, config.nodeId), runs: runsRepo(db, config.nodeId) };

  /** Base URL handed out in session URLs: PUBLIC_URL, else the address we listen on. Never the Host header. */
  const publicUrl = () => {
    if (config.PUBLIC_URL) return config.PUBLIC_URL.replace(/\/$/, '');
    const addr = address();
    const port = addr && typeof addr === 'object' ? addr.port : config.PORT;
    const host = config.HOST === '0.0.0.0' || config.HOST === '::' ? '127.0.0.1' : config.HOST;
    return `http://${host.includes(':') ? `[${host}]` : host}:${port}`;
  };
  /** Signs the tokens of URLs we hand out that must outlive a session (logs_url, screenshot_url). */
  const urlSigningKey = subKey(secretKey, 'signed-urls');
  const urls = new PublicUrls({ base: publicUrl, signingKey: urlSigningKey });

  const written = await bootstrapApiKey(store.apiKeys, config.dataDir, config.BROWSERDESK_API_KEY);
  if (written) log.warn(`Created the first API key; it is in ${written} (readable by this user only)`);

  const model = openModel(config);
  /** Named browser states (logins) sessions start from and save back to. */
  const profiles = new ProfileService({
    repo: profilesRepo(db),
    master: secretKey,
    maxBytes: config.PROFILE_MAX_BYTES,
    bus,
    log,
  });
  // Who acts when a session starts and ends: subscribed below, in one list, once all are built.
  const lifecycle = new SessionLifecycle(log);
  const sessions = new BrowserSessionManager({ config, repo: repos.sessions, bus, log, lifecycle, profiles });
  // A previous process's browsers reaped and its sessions marked, then the pool fills. Turns under
  // way, tool connections and model calls stop before the sessions go (quiesced after them).
  parts.add({ start: () => sessions.start(), quiesce: () => sessions.closeAll() });

  const sessionEvents = new SessionEventLog(
    sessionEventsRepo(db),
    (err) => log.warn({ err }, 'session event not recorded'),
    // Events are written after startup, when `networks` (below) is set.
    () => networks.redact(),
  );
  const credentials = new CredentialsService(credentialsRepo(db), credentialCipher(secretKey));
  /** Each live session's network and console record, and the HAR each leaves. */
  const networks = new SessionNetworks({
    dataDir: config.dataDir,
    maxBytes: config.NETWORK_LOG_MAX_BYTES,
    credentials,
    log,
  });
  const sessionLogging = logSessionEvents({ events: sessionEvents, bus, networks, log });
  parts.add({ close: () => sessionLogging.stop() });

  const artifacts = new Artifacts({
    dataDir: config.dataDir,
    maxDownloadBytes: config.MAX_DOWNLOAD_BYTES,
    maxBytes: config.ARTIFACTS_MAX_BYTES,
    ttlDays: config.ARTIFACTS_TTL_DAYS,
    sessions,
    sessionRow: (id) => repos.sessions.get(id),
    bus,
    log,
    storageKey: subKey(secretKey, 'session-store'),
  });
  const retention = new RetentionSchedule(artifacts, RETENTION_SWEEP_MS, log);
  parts.add({ start: () => retention.start(), close: () => retention.stop() });

  const recordings = new SessionRecordings({ config, sessions, log });
  parts.add({ close: () => recordings.close() });

  const recorders = new SessionRecorders({ events: sessionEvents, log });
  parts.add({ close: () => recorders.close() });

  const workflows = new WorkflowService(store.workflows);
  await warnUnreadableCredentials(credentials, log);

  const writer = new WriteService(model, writesRepo(db), log);
  // Model calls under way would keep the server's close waiting on their requests.
  parts.add({ quiesce: () => writer.abortAll() });

  const webhooks = new WebhookDispatcher(outboxRepo(db), { allowPrivate: config.WEBHOOK_ALLOW_PRIVATE, log });
  const stopForwarding = forwardBusToWebhooks(bus, (url, event) => {
    webhooks.enqueue(url, event).catch((err: unknown) => log.error({ err }, 'could not queue a webhook'));
  });
  parts.add({
    start: () => webhooks.start(),
    close: async () => {
      stopForwarding();
      await webhooks.stop();
    },
  });

  const runs = new RunService({
    config,
    db,
    runRows: repos.runs,
    sessionRows: repos.sessions,
    bus,
    log,
    sessions,
    urls,
    workflows,
    credentials,
    profiles,
    webhooks,
    sessionEvents,
    artifacts,
    recordings,
  });
  // After the session manager has reaped their browsers and the webhook loop has started.
  parts.add({ start: async () => void (await runs.recoverInterrupted()), close: () => runs.closeAll() });

  const clients = new SessionClientCounts(bus);
  parts.add({ close: () => clients.stop() });
  /** Sessions as the API shows them, for the session, run-control, log and artifact routes. */
  const sessionRecords = new SessionRecords({
    config,
    sessions: repos.sessions,
    runs: repos.runs,
    manager: sessions,
    workflows,
    clients,
    activity: runs,
  });

  // The tools' Playwright reaches a session's browser on a channel of its hub, as a run does.
  const cdpEndpoint = new PrivateCdpEndpoint();
  parts.add({ close: () => cdpEndpoint.close() });
  /** The browser tools for AI agents, which /api/mcp exposes. */
  const agentTools = createAgentTools({
    sessions,
    records: sessionRecords,
    urls,
    endpoint: cdpEndpoint,
    events: sessionEvents,
    log,
    privateNetworksAllowed: config.BROWSER_ALLOW_PRIVATE_NETWORKS,
    runs,
    workflows,
    downloads: (id) => urls.fileMetadata(id, artifacts.files(id)),
    model,
    keepFile: (id, name, bytes) => artifacts.keepFile(id, name, bytes),
    keptFile: (id, filename) => artifacts.fileOf(id, filename),
    networks,
    recorders,
  });
  parts.add({ quiesce: () => agentTools.close() });
  /** The browser agent of editor sessions. */
  const agent = new EditorSessions({
    records: sessionRecords,
    sessions,
    workflows,
    tools: agentTools,
    credentials,
    events: sessionEvents,
    urls,
    model,
    runs,
    log,
    allowEvaluate: config.AGENT_ALLOW_EVALUATE,
  });
  // Turns under way stop first, before the sessions and the tools' connections go.
  parts.add({ quiesce: () => agent.close() });
  // The late binding named in the doc comment above: runs' AI steps and self-healing go through
  // the same model, browsers and agent.
  runs.useAi(
    new AgentRunAi({
      model,
      page: (id) => agentTools.page(id),
      snapshots: agentTools.snapshots,
      act: (id, instruction, maxSteps, signal, secrets) => agent.act(id, instruction, maxSteps, signal, secrets),
    }),
  );
  parts.add({ close: () => model.close() });

  const apiKeyAdmin = new ApiKeyAdmin(store.apiKeys);
  /** Browser logins of command-line clients (`simplex login`), approved in the dashboard. */
  const cliAuth = new CliAuthTickets({
    repo: cliAuthTicketsRepo(db),
    keys: {
      create: (name, currentId) => apiKeyAdmin.create(name, currentId),
      find: (id, currentId) => apiKeyAdmin.find(id, currentId),
      revoke: (id) => store.apiKeys.revoke(id),
    },
    sealingKey: subKey(secretKey, 'cli-auth'),
    authUrl: (id) => `${publicUrl()}/cli-auth/${id}`,
  });

  /** This node in the shared store (and where a session it does not hold lives). */
  const cluster = new Membership({
    config,
    nodes: nodesRepo(db),
    load: () => sessions.placesUsed,
    draining: () => sessions.draining,
    onBeat: (deadBefore) => reapDeadNodes({ sessions: repos.sessions, bus, log, runs }, deadBefore),
    log,
  });
  bus.on('session.changed', () => cluster.reportLoad());
  // It says it stopped only once its sessions and runs have ended in order (closeLast).
  parts.add({ start: () => cluster.start(), listening: () => cluster.listens(), closeLast: () => cluster.stop() });
  // Queued runs only once other nodes can see this one alive (runs/queue/sharedRunQueue.ts).
  parts.add({ start: () => runs.queue.take() });
  /** Taking this node out gently before it stops (SIGTERM, POST /api/nodes/{id}/drain). */
  const drain = new NodeDrain({
    config,
    sessions,
    runs,
    reportLoad: () => cluster.reportLoad(),
    events: sessionEvents,
    log,
  });
  const overview = new OverviewService({
    store: overviewRepo(db),
    capacity: () => ({
      sessions: sessions.active,
      places: sessions.placesUsed,
      pool: sessions.poolStats,
      draining: drain.window(),
    }),
    config,
  });
  // A cluster's nodes tell each other what changed, for every node's /api/events (on SQLite or a
  // single node there is no one to tell).
  const relay =
    db.engine === 'postgres' && config.NODE_URL && config.DATABASE_URL
      ? new EventRelay({ databaseUrl: config.DATABASE_URL, nodeId: config.nodeId, db, bus, serverEvents, log })
      : null;
  parts.add({ start: () => relay?.listen(), closeLast: () => relay?.stop() });

  // What happens as each session starts and ends, in this order (each phase's subscribers run
  // together; one that fails or overruns is logged by name and stops nothing: sessions/lifecycle.ts).
  lifecycle.subscribe(
    { name: 'network record', ...networks.phases },
    { name: 'page events', ...sessionLogging.phases },
    { name: 'artifacts', ...artifacts.phases },
    { name: 'screen recording', ...recordings.phases },
    { name: 'run queue', afterEnd: () => runs.queue.sessionEnded() },
    // A session's snapshot dies with it (its connection is dropped by SessionBrowsers itself).
    { name: 'agent tool snapshots', afterEnd: (id) => agentTools.snapshots.forget(id) },
    { name: 'editor sessions', afterEnd: (id, reason) => agent.sessionEnded(id, reason) },
    { name: 'workflow recorder', ...recorders.phases },
  );

  const services = {
    config,
    /** The store's engine (SQLite or Postgres); repositories in store/ are built over it. */
    db,
    store,
    bus,
    serverEvents,
    /** The server's master key (BROWSERDESK_SECRET_KEY or DATA_DIR/secret-key): only subKey() derivations of it are used. */
    secretKey,
    urlSigningKey,
    publicUrl,
    /** The URLs a session's holder is handed (capability and signed ones), over publicUrl(). */
    urls,
    model,
    sessions,
    lifecycle,
    sessionEvents,
    artifacts,
    networks,
    recordings,
    workflows,
    credentials,
    profiles,
    webhooks,
    writer,
    runs,
    sessionRecords,
    agentTools,
    agent,
    overview,
    apiKeyAdmin,
    cliAuth,
    cluster,
    drain,
    recorders,
  };
  return {
    services,
    /** When the server is ready, before it listens: settle what a previous process left, then take work. */
    start: () => parts.start(),
    /** Once it listens: other nodes of a cluster may place sessions here. */
    listening: () => parts.listening(),
    /** Before connections close: agent turns, tool connections, model calls and every session end. */
    quiesce: () => parts.quiesce(),
    /** After connections closed: the rest, in the reverse of the order it was built; the store last. */
    close: () => parts.close(),
  };
}

/** Said at start, not at the first run, when the key no longer opens what was stored under it. */
async function warnUnreadableCredentials(credentials: CredentialsService, log: Log): Promise<void> {
  const unreadable = await credentials.unreadable();
  if (!unreadable.length) return;
  log.error(
    `${unreadable.length} stored credential(s) do not decrypt with this server's secret key (${unreadable.join(', ')}): ` +
      'the key changed since they were stored. Restore DATA_DIR/secret-key or BROWSERDESK_SECRET_KEY, or store them again',
  );
}
