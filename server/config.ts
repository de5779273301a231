import os from 'node:os';
import path from 'node:path';
import { z } from 'zod';
import { parseSecretKey, SECRET_KEY_FORMAT } from './secrets/secretKey.ts';
import { SessionIsolation } from '../contract/sessions.ts';

const flag = z
  .enum(['1', '0', 'true', 'false', 'yes', 'no', ''])
  .transform((v) => v === '1' || v === 'true' || v === 'yes');

const optionalUrl = z
  .string()
  .optional()
  .transform((v) => (v === '' ? undefined : v))
  .pipe(z.url().optional());

/** A session (Xvfb + Chromium + x11vnc) takes about 250 MB; keep half the memory for everything else. */
const defaultMaxSessions = Math.max(2, Math.floor(os.totalmem() / 2 / (250 * 1024 * 1024)));

/** Every environment variable the service reads, validated once at start. */
export const EnvSchema = z.object({
  PORT: z.coerce.number().int().min(0).max(65535).default(8080),
  HOST: z.string().min(1).default('127.0.0.1'),
  PUBLIC_URL: optionalUrl,
  DATA_DIR: z.string().min(1).default('./data'),
  /** postgres://… puts the store on Postgres, shared by every node given the same URL. Unset: SQLite in DATA_DIR. */
  DATABASE_URL: z
    .string()
    .refine((v) => /^postgres(ql)?:\/\//.test(v), 'must be a postgres:// or postgresql:// URL')
    .optional(),
  /**
   * Where the other nodes of a cluster reach this one (http://10.0.0.5:8080): its id in the shared
   * store, and the address session traffic is passed on to. Unset: a single node, 'local'.
   */
  NODE_URL: optionalUrl,
  BROWSERDESK_API_KEY: z.string().min(16, 'must be at least 16 characters').optional(),
  /** 32 bytes, as 64 hex digits or base64: encrypts credentials and signs URLs. Unset: DATA_DIR/secret-key, created once. */
  BROWSERDESK_SECRET_KEY: z
    .string()
    .refine((v) => parseSecretKey(v) !== null, SECRET_KEY_FORMAT)
    .optional(),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),

  /** The one model the writer, the agent, AI steps, self-healing and MCP's browser_extract use. */
  MODEL_PROVIDER: z.enum(['openai-compatible', 'openai', 'anthropic']).optional(),
  MODEL_BASE_URL: optionalUrl,
  MODEL_NAME: z.string().min(1).optional(),
  MODEL_API_KEY: z.string().optional(),
  MODEL_MAX_OUTPUT_TOKENS: z.coerce.number().int().min(1).max(200_000).default(4096),
  MODEL_TIMEOUT_MS: z.coerce.number().int().min(100).default(60_000),
  MODEL_MAX_RETRIES: z.coerce.number().int().min(0).max(10).default(2),

  CHROMIUM_PATH: z.string().min(1).default('/usr/bin/chromium'),
  /** Browsers always kept ready; the pool grows from here with the create rate, up to WARM_POOL_MAX. */
  WARM_POOL_SIZE: z.coerce.number().int().min(0).max(50).default(1),
  /** Ten: the field's benchmark sends ten creates at once, and a batch client does the same. */
  WARM_POOL_MAX: z.coerce.number().int().min(0).max(50).default(10),
  MAX_SESSIONS: z.coerce.number().int().min(1).max(1000).default(defaultMaxSessions),
  /** What a session is when its create does not say (`isolation`): a browser of its own, or a context in a shared one. */
  SESSION_ISOLATION: SessionIsolation.default('browser'),
  /** Context sessions one shared browser holds at once; a shared browser takes one of MAX_SESSIONS' places. */
  CONTEXTS_PER_BROWSER: z.coerce.number().int().min(1).max(64).default(8),
  /** A shared browser is stopped and replaced once it has served this many sessions (what a long-lived browser keeps grows). */
  CONTEXT_BROWSER_RECYCLE_AFTER: z.coerce.number().int().min(1).max(100_000).default(200),
  /** A shared browser with no session for this long is stopped (its key's next session takes a warm one). */
  CONTEXT_BROWSER_IDLE_S: z.coerce.number().int().min(0).max(86_400).default(60),
  /**
   * Browser starts that run at once; more wait in line (a create before the pool's refills). Two on
   * two cores: measured (bench/arena.ts), one start leaves a core idle while it waits on I/O and IPC.
   */
  BROWSER_STARTS_AT_ONCE: z.coerce.number().int().min(1).max(64).default(Math.max(2, os.availableParallelism())),
  /** A profile version's stored size (compressed); a save over it keeps the previous version. */
  PROFILE_MAX_BYTES: z.coerce
    .number()
    .int()
    .min(64 * 1024)
    .max(4 * 1024 * 1024 * 1024)
    .default(100 * 1024 * 1024),
  /**
   * Seconds a stopping node (SIGTERM, or POST /api/nodes/{id}/drain) gives its runs under way and
   * live sessions to end on their own, taking nothing new meanwhile; then it ends what is left and exits.
   */
  DRAIN_TIMEOUT_S: z.coerce.number().int().min(0).max(86_400).default(300),
  /** Runs that wait for a browser on a full host; beyond it run_workflow answers 429. 0: no queue. */
  MAX_QUEUED_RUNS: z.coerce.number().int().min(0).max(100_000).default(1000),
  PROXY_URL: optionalUrl,

  MAX_FILES: z.coerce.number().int().min(0).max(1000).default(10),
  MAX_FILE_BYTES: z.coerce
    .number()
    .int()
    .min(1)
    .default(25 * 1024 * 1024),

  /** Bytes of downloads one session may keep; a download that goes over is cancelled. */
  MAX_DOWNLOAD_BYTES: z.coerce
    .number()
    .int()
    .min(0)
    .default(500 * 1024 * 1024),
  /**
   * Bytes of requests (headers and text bodies) one session's network record keeps: the oldest go
   * first past it; a body over a quarter of it is only sized, and a kept body is cut at 256 KB.
   */
  NETWORK_LOG_MAX_BYTES: z.coerce
    .number()
    .int()
    .min(64 * 1024)
    .default(16 * 1024 * 1024),
  /** Session artifacts (recordings, downloads, storage states) kept in all; the oldest ended sessions' go first. 0: no limit. */
  ARTIFACTS_MAX_BYTES: z.coerce
    .number()
    .int()
    .min(0)
    .default(10 * 1024 * 1024 * 1024),
  /** Days a session's artifacts are kept after it ended. 0: no age limit. */
  ARTIFACTS_TTL_DAYS: z.coerce.number().min(0).max(36_500).default(7),

  WEBHOOK_ALLOW_PRIVATE: flag.default(false),
  /** Each session runs as one uid of this range (gid the same); never root or a system user. */
  SESSION_UIDS: z
    .string()
    .regex(/^\d+-\d+$/, 'must be FIRST-LAST, e.g. 200000-200999')
    .default('200000-200999')
    .transform((v) => {
      const [first, last] = v.split('-').map(Number) as [number, number];
      return { first, last };
    })
    .refine(
      (r) => r.first >= 1000 && r.last >= r.first && r.last < 2 ** 31,
      'must be a range of uids from 1000 up, FIRST no greater than LAST',
    ),
  BROWSER_ALLOW_PRIVATE_NETWORKS: flag.default(false),
  /** The built-in agent may call browser_evaluate (JavaScript of the model's in the page): off unless set. */
  AGENT_ALLOW_EVALUATE: flag.default(false),
  /** Screen recordings (README, Recording): every session, only the sessions of workflow runs, or none. */
  RECORD_SESSIONS: z.enum(['all', 'runs', 'off']).default('runs'),
  /**
   * Connections one client address (an IPv6 client's /64) may hold at once; a connection over it is
   * closed as it comes in. Behind a proxy every client has the proxy's address: raise it, or 0 (no cap).
   */
  MAX_CONNECTIONS_PER_ADDRESS: z.coerce.number().int().min(0).max(1_000_000).default(256),
  /** A connection silent this long while the server waits on the client (no request yet, or one not fully sent) is closed. */
  CONNECTION_IDLE_TIMEOUT_MS: z.coerce.number().int().min(100).max(3_600_000).default(30_000),
  CORS_ORIGINS: z
    .string()
    .default('')
    .transform((s) =>
      s
        .split(',')
        .map((o) => o.trim())
        .filter(Boolean),
    ),
});

export type Config = z.infer<typeof EnvSchema> & {
  dataDir: string;
  /** This node's id in the store: NODE_URL without a trailing slash, or 'local'. */
  nodeId: string;
};

export class ConfigError extends Error {}

/**
 * The model's settings were first the writer's alone (WRITER_*): those names are still read, each
 * where its MODEL_* name is unset, so an existing deployment keeps its model.
 */
export const OLDER_NAMES: Readonly<Record<string, string>> = {
  MODEL_PROVIDER: 'WRITER_PROVIDER',
  MODEL_BASE_URL: 'WRITER_BASE_URL',
  MODEL_NAME: 'WRITER_MODEL',
  MODEL_API_KEY: 'WRITER_API_KEY',
  MODEL_MAX_OUTPUT_TOKENS: 'WRITER_MAX_OUTPUT_TOKENS',
  MODEL_TIMEOUT_MS: 'WRITER_TIMEOUT_MS',
  MODEL_MAX_RETRIES: 'WRITER_MAX_RETRIES',
};

/** Parse the environment; a bad value throws one line naming the variable as it was set. */
export function loadConfig(env: Record<string, string | undefined> = process.env): Config {
  const picked: Record<string, string | undefined> = {};
  const setAs = new Map<string, string>();
  for (const key of Object.keys(EnvSchema.shape)) {
    // An empty variable counts as unset.
    const name = [key, OLDER_NAMES[key]].find((n) => n !== undefined && env[n] !== undefined && env[n] !== '');
    if (name === undefined) continue;
    picked[key] = env[name];
    setAs.set(key, name);
  }
  const parsed = EnvSchema.safeParse(picked);
  if (!parsed.success) {
    const first = parsed.error.issues[0]!;
    const key = String(first.path[0]);
    throw new ConfigError(`Invalid environment variable ${setAs.get(key) ?? key}: ${first.message}`);
  }
  return {
    ...parsed.data,
    dataDir: path.resolve(parsed.data.DATA_DIR),
    nodeId: parsed.data.NODE_URL?.replace(/\/+$/, '') ?? 'local',
  };
}
