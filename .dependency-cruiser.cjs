/**
 * The server's layers, lowest first: a folder imports only from its own layer or the ones below.
 * Every folder and top-level file of server/ is in one; one in none fails the check
 * (server-in-a-layer). `npm test` runs this (npm run deps); see README "Where things are".
 */
const layers = [
  ['config.ts', 'log.ts', 'domain', 'secrets'],
  ['store', 'events'],
  ['model', 'sessions', 'workflows', 'credentials', 'cliAuth', 'webhooks', 'writer'],
  ['artifacts', 'network', 'sessionEvents', 'overview', 'profiles'],
  ['runs'],
  ['agentTools'],
  ['agent', 'recorder'],
  ['cluster'],
  ['services.ts', 'serverParts.ts', 'http', 'routes', 'app.ts', 'main.ts', 'cli'],
];
const folder = (names) => `^server/(${names.map((n) => n.replace('.', '\\.')).join('|')})(/|$)`;
const unlayered = { path: '^server/', pathNot: folder(layers.flat()) };
const inNoLayer = 'Every folder of server/ is in a layer (the list at the top of this file): add it to one.';

module.exports = {
  forbidden: [
    {
      name: 'no-circular',
      severity: 'error',
      comment: 'Modules that import each other cannot be read, tested or moved one at a time.',
      from: {},
      to: { circular: true },
    },
    ...layers.slice(0, -1).map((layer, i) => ({
      name: `layer-${i}-imports-upward`,
      severity: 'error',
      comment: `${layer.join(', ')} may import only from their own layer or below: ${layers
        .slice(i + 1)
        .flat()
        .join(', ')} are above.`,
      from: { path: folder(layer) },
      to: { path: folder(layers.slice(i + 1).flat()) },
    })),
    // A module in no layer is caught whether it imports, is imported, or neither.
    { name: 'server-in-a-layer', severity: 'error', comment: inNoLayer, from: unlayered, to: {} },
    { name: 'server-in-a-layer-imported', severity: 'error', comment: inNoLayer, from: {}, to: unlayered },
    {
      name: 'server-in-a-layer-alone',
      severity: 'error',
      comment: inNoLayer,
      from: { ...unlayered, orphan: true },
      to: {},
    },
    {
      name: 'fastify-only-in-http',
      severity: 'error',
      comment:
        'Domains take plain dependencies and return domain results; only http/, routes/ and app.ts know Fastify.',
      from: { path: '^server/', pathNot: folder(['http', 'routes', 'app.ts']) },
      to: { path: '^node_modules/(fastify|fastify-plugin|@fastify/[^/]+)/' },
    },
    {
      name: 'contract-stands-alone',
      severity: 'error',
      comment: 'contract/ is shared by the server and the dashboard: it imports neither.',
      from: { path: '^contract/' },
      to: { path: '^(server|src)/' },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    exclude: { path: '\\.test\\.ts$' },
  },
};
