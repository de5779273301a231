import type { BaseLogger } from 'pino';

/**
 * The logger domains write to: pino's, which Fastify's app.log is (less msgPrefix, which Fastify's type leaves out). Domains take it as a plain
 * dependency, so they need not know Fastify (tests can hand them any pino logger).
 */
export type Log = Omit<BaseLogger, 'msgPrefix'>;
