#!/usr/bin/env node
/**
 * `browserdesk mcp --url http://host:8080 --key KEY`: Browserdesk's MCP tools for desktop agents
 * that speak MCP over stdio only. It relays each JSON-RPC message between stdin/stdout and a
 * running server's /api/mcp (Streamable HTTP), using the MCP SDK's own transports on both sides;
 * the tools run in the server. The key can come from BROWSERDESK_API_KEY instead of --key, which
 * keeps it out of the process list. Nothing but protocol goes to stdout; notes go to stderr.
 */
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';

const USAGE =
  'usage: browserdesk mcp --url http://127.0.0.1:8080 [--key KEY]   (or BROWSERDESK_URL, BROWSERDESK_API_KEY)';

function parseArgs(argv) {
  const [command, ...rest] = argv;
  const opts = {};
  for (let i = 0; i < rest.length; i++) {
    const [flag, inline] = rest[i].split(/=(.*)/s, 2);
    if (flag !== '--url' && flag !== '--key') throw new Error(`unknown option ${flag}`);
    const value = inline ?? rest[++i];
    if (value === undefined) throw new Error(`${flag} needs a value`);
    opts[flag.slice(2)] = value;
  }
  return { command, url: opts.url ?? process.env.BROWSERDESK_URL, key: opts.key ?? process.env.BROWSERDESK_API_KEY };
}

/** The server's MCP endpoint from what the person gave: the base URL, or /api/mcp itself. */
function endpointOf(url) {
  const u = new URL(url);
  if (!/^https?:$/.test(u.protocol)) throw new Error('--url must be an http:// or https:// URL');
  if (!u.pathname.endsWith('/api/mcp')) u.pathname = `${u.pathname.replace(/\/+$/, '')}/api/mcp`;
  return u;
}

async function main() {
  let args;
  try {
    args = parseArgs(process.argv.slice(2));
    if (args.command !== 'mcp') throw new Error(args.command ? `unknown command ${args.command}` : 'no command');
    if (!args.url) throw new Error('--url is missing');
    if (!args.key) throw new Error('--key (or BROWSERDESK_API_KEY) is missing');
    args.endpoint = endpointOf(args.url);
  } catch (err) {
    process.stderr.write(`browserdesk: ${err.message}\n${USAGE}\n`);
    process.exit(2);
  }
  const remote = new StreamableHTTPClientTransport(args.endpoint, {
    requestInit: { headers: { 'x-api-key': args.key } },
  });
  const local = new StdioServerTransport();
  const stop = async (code) => {
    await Promise.allSettled([remote.close(), local.close()]);
    process.exit(code);
  };
  local.onmessage = (message) => {
    remote.send(message).catch((err) => {
      // The server refused or could not be reached: a request is answered with the reason, so the
      // agent's client reports it instead of waiting; a notification has nobody to tell.
      const reason =
        err?.code === 401
          ? 'the server refused the API key (401): check --key'
          : `the server at ${args.endpoint.origin} did not answer: ${err?.message ?? err}`;
      process.stderr.write(`browserdesk: ${reason}\n`);
      if ('id' in message && 'method' in message)
        void local.send({ jsonrpc: '2.0', id: message.id, error: { code: -32000, message: reason } });
    });
  };
  remote.onmessage = (message) => void local.send(message);
  remote.onerror = (err) => process.stderr.write(`browserdesk: ${err.message}\n`);
  local.onclose = () => void stop(0);
  process.stdin.on('end', () => void stop(0));
  await remote.start();
  await local.start();
}

await main();
