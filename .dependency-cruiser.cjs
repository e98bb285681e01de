// The project's floors, lowest first. A module may import from its own floor or any floor below;
// an import from a floor above, or an import cycle, fails `make test` (test/layering.test.ts).
// docs/architecture.md explains each floor.
const FLOORS = [
  ['snapshot-contract', '^snapshot-contract/'],
  ['sources', '^sources/'],
  ['pipeline-settings', '^pipeline/settings\\.ts$'],
  ['pipeline-fetch', '^pipeline/fetch/'],
  ['pipeline-geography', '^pipeline/geography/'],
  ['pipeline-feed-parts', '^pipeline/feeds/(?!adapter-table\\.ts$)[^/]+\\.ts$'],
  ['pipeline-feed-kinds', '^pipeline/feeds/([^/]+/|adapter-table\\.ts$)'],
  ['pipeline-audit', '^pipeline/audit/'],
  ['pipeline-run', '^pipeline/run/'],
  ['pipeline-entry', '^pipeline/(?!settings\\.ts$)[^/]+\\.ts$'],
  ['server-base', '^server/base/'],
  ['server-data', '^server/(store|snapshot|geocoder)/'],
  ['server-access', '^server/access/'],
  ['server-http', '^server/http/'],
  ['server-sale', '^server/sale/'],
  ['server-lookup', '^server/(lookup|changes|webhooks)/'],
  ['server-order-tax', '^server/order-tax/'],
  ['server-portability', '^server/portability/'],
  ['server-taxjar', '^server/taxjar/'],
  ['server-dispatch', '^server/dispatch/'],
  ['server-openapi', '^server/openapi/'],
  ['server-routes', '^server/(routes|admin|console)/'],
  ['server-app', '^server/[^/]+\\.ts$'],
]

const upward = FLOORS.flatMap(([name, path], floor) => {
  const above = FLOORS.slice(floor + 1).map(([, abovePath]) => abovePath)
  if (above.length === 0) return []
  return [{
    name: `no-upward-from-${name}`,
    comment: `${name} may import only from its own floor or the floors below it`,
    severity: 'error',
    from: { path },
    to: { path: above },
  }]
})

/**
 * The pipeline never reaches into the server, and the server reads snapshots only through the
 * contract. A feed kind's folder stands apart from the other kinds': what two kinds share is a feed
 * part (pipeline/feeds/*.ts).
 */
const sides = [
  { name: 'pipeline-not-server', severity: 'error', from: { path: '^(pipeline|sources|snapshot-contract)/' }, to: { path: '^server/' } },
  { name: 'server-not-pipeline', severity: 'error', from: { path: '^server/' }, to: { path: '^pipeline/' } },
  { name: 'feed-kinds-apart', severity: 'error', from: { path: '^pipeline/feeds/([^/]+)/' }, to: { path: '^pipeline/feeds/[^/]+/', pathNot: '^pipeline/feeds/$1/' } },
]

/**
 * The client package and the web console's browser code stand alone: not even a type from the
 * server, pipeline or snapshot contract (the client's API types are generated from the server's
 * schemas by client/codegen, which may import them; the console's build script reads sources/).
 */
const standalone = [
  {
    name: 'client-standalone',
    severity: 'error',
    from: { path: '^client/', pathNot: '^client/codegen/' },
    to: { path: '^(server|pipeline|sources|snapshot-contract|console)/' },
  },
  {
    name: 'console-standalone',
    severity: 'error',
    from: { path: '^console/', pathNot: '^console/build-console\\.ts$' },
    to: { path: '^(server|pipeline|sources|snapshot-contract)/' },
  },
]

module.exports = {
  forbidden: [
    ...upward,
    ...sides,
    ...standalone,
    { name: 'no-cycles', comment: 'an import cycle', severity: 'error', from: {}, to: { circular: true } },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    exclude: { path: '^(node_modules|test|build|artifacts|client/dist)/' },
    tsPreCompilationDeps: true,
    parser: 'swc',
    tsConfig: { fileName: 'tsconfig.json' },
    moduleSystems: ['es6', 'cjs'],
  },
}
