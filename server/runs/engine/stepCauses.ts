import { lookup } from 'node:dns/promises';
import net from 'node:net';
import os from 'node:os';
import type { Flow } from '../../../contract/steps.ts';
import { isPrivateAddress } from '../../webhooks/destination.ts';
import type { DialogSeen } from '../../domain/runFacts.ts';
import { describeDialogs } from './dialogs.ts';
import { PAGE_SILENT_ERROR } from './stepWatch.ts';
import { withinOr } from '../../domain/within.ts';

type Step = Flow['steps'][number];

export interface CauseContext {
  step?: Step;
  /** Set when the run was stopped (session closed, timed out, interrupted) while the step ran: why, as stoppedBecause says it. */
  stopped: string | null;
  privateNetworksAllowed: boolean;
  /** Dialogs the page opened during the step. */
  dialogs: readonly DialogSeen[];
  /**
   * Whether the step's pages answer (engine/stepWatch.ts), asked only when nothing else names the
   * cause; absent: taken to answer.
   */
  answering?: () => Promise<boolean>;
  /** The main-frame navigation that failed during the step, as the browser said it when it happened. */
  failedNavigation?: { url: string; errorText: string };
  /** The URL a navigation outside any step was asked to load (an agent tool's goTo), when there is no step to name it. */
  navigatedTo?: string;
}

/**
 * What the egress filter refuses: non-public ranges (the webhook check's list) and every address of
 * this host's own interfaces (server/sessions/isolation/egress.ts refuses `fib daddr type local`).
 */
function refusedByEgress(address: string): boolean {
  if (isPrivateAddress(address)) return true;
  return Object.values(os.networkInterfaces()).some((list) => list?.some((i) => i.address === address));
}

/** How long the name of a refused site may take to resolve again before it is taken not to be private. */
const LOOKUP_WITHIN_MS = 1000;

/** The addresses of `host`, or none when they do not come within LOOKUP_WITHIN_MS (a slow resolver on a busy host). */
async function addressesOf(host: string): Promise<string[]> {
  const found = lookup(host, { all: true }).then(
    (list) => list.map((a) => a.address),
    () => [],
  );
  return withinOr(found, LOOKUP_WITHIN_MS, []);
}

/** True when `url` names, or resolves to, an address the egress filter refuses. */
async function towardsPrivate(url: unknown): Promise<boolean> {
  if (typeof url !== 'string') return false;
  let host: string;
  try {
    host = new URL(url).hostname.replace(/^\[|\]$/g, '');
  } catch {
    return false;
  }
  if (net.isIP(host)) return refusedByEgress(host);
  if (host === 'localhost' || host.endsWith('.localhost')) return true;
  return (await addressesOf(host)).some(refusedByEgress);
}

const NET_ERRORS: [RegExp, string][] = [
  [/ERR_NAME_NOT_RESOLVED|ERR_NAME_RESOLUTION_FAILED/, "the site's name does not resolve (DNS)"],
  [/ERR_CONNECTION_REFUSED/, 'the site refused the connection (nothing answers at that address and port)'],
  [/ERR_CONNECTION_TIMED_OUT|ERR_TIMED_OUT/, 'the connection to the site timed out'],
  [/ERR_CONNECTION_RESET|ERR_CONNECTION_CLOSED|ERR_EMPTY_RESPONSE/, 'the site closed the connection without an answer'],
  [/ERR_ADDRESS_UNREACHABLE|ERR_INTERNET_DISCONNECTED|ERR_NETWORK_/, 'the site cannot be reached from this host'],
  [/ERR_CERT_|ERR_SSL_|ERR_BAD_SSL|ERR_TLS/, "TLS error: the site's certificate or encryption was refused"],
  [/ERR_UNSAFE_PORT/, 'browsers do not connect to that port (it is kept for another protocol)'],
  [/ERR_TOO_MANY_REDIRECTS/, 'the site redirects without end'],
];

const NOT_ANSWERING = 'the page stopped answering (a script that never ends, or a hung renderer)';

/**
 * A step's cause as a person reads it: a session closed mid-step said plainly, a crashed renderer,
 * which network failure (DNS, refused, timeout, TLS) with a refusal by the egress policy named as
 * such, a page that stopped answering, and any dialog the page opened meanwhile. `line` is the
 * library's first line, kept at the end. What the browser said as it happened (the failed
 * navigation) comes before asking the page: a page is asked only for a failure nothing else names.
 */
export async function explainCause(line: string, ctx: CauseContext): Promise<string> {
  const dialogs = ctx.dialogs.length ? ` (meanwhile ${describeDialogs(ctx.dialogs)})` : '';
  if (
    ctx.stopped &&
    /detached|Target closed|Session closed|Connection closed|disconnected|Protocol error/i.test(line)
  ) {
    return `${ctx.stopped} while this step ran`;
  }
  if (/Page crashed|Target crashed/i.test(line)) return `the page's renderer crashed${dialogs}`;
  const fromLine = /net::(ERR_[A-Z_]+)/.exec(line)?.[1];
  const code = fromLine ?? /net::(ERR_[A-Z_]+)/.exec(ctx.failedNavigation?.errorText ?? '')?.[1];
  if (code) {
    const url = fromLine
      ? (ctx.navigatedTo ?? (ctx.step as { url?: unknown } | undefined)?.url)
      : ctx.failedNavigation?.url;
    if (
      /ERR_CONNECTION_REFUSED|ERR_ADDRESS_UNREACHABLE|ERR_NETWORK_ACCESS_DENIED|ERR_CONNECTION_RESET/.test(code) &&
      !ctx.privateNetworksAllowed &&
      (await towardsPrivate(url))
    ) {
      return `the address is on a private network, loopback or this host, which sessions may not reach (set BROWSER_ALLOW_PRIVATE_NETWORKS=true to allow it) (${code})${dialogs}`;
    }
    const known = NET_ERRORS.find(([re]) => re.test(code));
    return `${known ? known[1] : 'the page did not load'} (${code})${dialogs}`;
  }
  if (line.includes(PAGE_SILENT_ERROR) || (ctx.answering && !(await ctx.answering())))
    return `${NOT_ANSWERING}${dialogs}`;
  const frame = (ctx.step as { frame?: unknown } | undefined)?.frame;
  if (Array.isArray(frame) && frame.length && /Cannot read properties of undefined/.test(line)) {
    return `the frame this step was recorded in (frame ${JSON.stringify(frame)}) is not on the page now: the page loaded differently than when it was recorded${dialogs}`;
  }
  const navTimeout = /Navigation timeout of (\d+) ms exceeded/.exec(line);
  if (navTimeout) return `the page did not finish loading within ${Number(navTimeout[1]) / 1000} s${dialogs}`;
  if (
    /ProtocolError: .*timed out|Runtime\.callFunctionOn timed out|timed out\. Increase the 'protocolTimeout'/i.test(
      line,
    )
  ) {
    return `${NOT_ANSWERING}${dialogs}`;
  }
  return `${line}${dialogs}`;
}
