// The bundled server production runs (`make serve` runs build/server/main.mjs, built by the
// Makefile's rule, which this file runs too): what start-up loads, and every feature that loads
// code on first use — webhook deliveries, metrics, the census geocoder, the DuckDB and PostgreSQL
// stores, the scheduled refresh, the console — run against the bundle as its own process. Every
// module the bundle imports on first use must have been loaded by these runs (a preloaded hook
// records what each process loads), so an import that only works unbundled cannot pass. Then the
// loud failures: an optional feature that cannot load stops start-up, and a webhook attempt that
// fails for a reason of ours is logged, counted and shown, not held against the endpoint.
import { createHmac } from 'node:crypto'
import { existsSync, readFileSync } from 'node:fs'
import { cp, readdir, readFile, rm, symlink } from 'node:fs/promises'
import path from 'node:path'
import { execa } from 'execa'
import { afterAll, beforeAll, describe, expect, inject, it, onTestFinished } from 'vitest'
import { pointTo } from './support/server-snapshot.ts'
import { announcingArtifacts, type AnnouncingArtifacts } from './support/announcing-artifacts.ts'
import { censusAnswer, censusMatch } from './support/geocoder-census-bodies.ts'
import { startFakeCensusGeocoder, type FakeCensusGeocoder } from './support/geocoder-fake.ts'
import { createTestDatabase } from './support/postgres-server.ts'
import { keyCaller, startServerProcess, type ServerProcess } from './support/reliability-server-process.ts'
import { PROJECT_ROOT } from './support/shared.ts'
import { tempDir } from './support/temp-dirs.ts'
import { startReceiver, type Receiver } from './support/webhook-receiver.ts'

const BUNDLE_DIR = path.join(PROJECT_ROOT, 'build/server')
const METRICS_TOKEN = 'bundle-lane-metrics-token'
const SECRET = 'whsec_bundle_lane_0123456789'

/** The chunks a module imports statically (`import … from "./chunks/x.mjs"`) and dynamically (`import("./chunks/x.mjs")`). */
function importsOf(file: string): { statics: string[]; dynamics: string[] } {
  const text = readFileSync(path.join(BUNDLE_DIR, file), 'utf8')
  const resolve = (specifier: string) => path.relative(BUNDLE_DIR, path.resolve(path.dirname(path.join(BUNDLE_DIR, file)), specifier))
  return {
    statics: [...text.matchAll(/^import\s+(?:[^;]*?\s+from\s+)?"(\.{1,2}\/[^"]+)"/gm)].map((m) => resolve(m[1]!)),
    dynamics: [...text.matchAll(/\bimport\("(\.{1,2}\/[^"]+)"\)/g)].map((m) => resolve(m[1]!)),
  }
}

/** The bundled packages' files a chunk holds, from esbuild's `// node_modules/<path>` comments. */
const packagesIn = (file: string) => [...readFileSync(path.join(BUNDLE_DIR, file), 'utf8').matchAll(/^\/\/ node_modules\/(\S+)$/gm)].map((m) => m[1]!)

/**
 * main.mjs and the chunks it reaches through static imports only (`static`: what start-up loads) or
 * through any import (`any`: every file of this build; chunks/ also holds those of earlier builds,
 * which the Makefile leaves for a server still running one); and the chunks imported dynamically
 * on the way.
 */
function reachedFromMain(through: 'static' | 'any'): { files: Set<string>; dynamics: Set<string> } {
  const files = new Set<string>()
  const dynamics = new Set<string>()
  const pending = ['main.mjs']
  while (pending.length) {
    const file = pending.pop()!
    if (files.has(file)) continue
    files.add(file)
    const imports = importsOf(file)
    pending.push(...imports.statics, ...(through === 'any' ? imports.dynamics : []))
    for (const chunk of imports.dynamics) dynamics.add(chunk)
  }
  return { files, dynamics }
}
const bundleFiles = () => reachedFromMain('any').files

let tmp = ''
let artifacts: AnnouncingArtifacts
let fake: FakeCensusGeocoder
let receiver: Receiver
const servers: ServerProcess[] = []
/** the file every lane process appends the URLs of the modules it loads to */
let loadedModules = ''

beforeAll(async () => {
  await execa('make', ['-s', 'build/server/main.mjs', 'build/console/index.html'], { cwd: PROJECT_ROOT })
  tmp = await tempDir('server-bundle')
  loadedModules = path.join(tmp, 'loaded-modules.txt')
  artifacts = await announcingArtifacts(inject('mirrorUrl'))
  fake = await startFakeCensusGeocoder()
  receiver = await startReceiver()
})
afterAll(async () => {
  for (const server of servers) await server.kill9()
  await receiver?.close()
  await fake?.close()
  if (artifacts) await rm(artifacts.dir, { recursive: true, force: true })
  if (tmp) await rm(tmp, { recursive: true, force: true })
})

/** The bundle as its own process, recording the modules it loads. */
async function startBundle(options: { name: string; env: Record<string, string>; entry?: { bundle: string }; artifacts?: AnnouncingArtifacts }): Promise<ServerProcess> {
  const server = await startServerProcess({
    artifactsDir: (options.artifacts ?? artifacts).dir,
    storePath: path.join(tmp, `${options.name}.duckdb`),
    entry: options.entry ?? 'bundle',
    nodeArgs: options.entry ? [] : ['--import', './test/support/record-loaded-modules.mjs'],
    env: { TAXATLAS_TEST_LOADED_MODULES: loadedModules, ...options.env },
  })
  servers.push(server)
  return server
}

const eventOf = (server: ServerProcess, event: string, match: Record<string, unknown> = {}) =>
  server.events().find((e) => e.event === event && Object.entries(match).every(([key, value]) => e[key] === value))

/** Serves the next snapshot (SIGHUP reloads CURRENT), whose GA changes are announced to webhook endpoints. */
async function publishNext(server: ServerProcess, on = artifacts): Promise<string> {
  const id = await on.add()
  await pointTo(on.dir, id)
  process.kill(server.pid, 'SIGHUP')
  await expect.poll(() => eventOf(server, 'snapshot_loaded', { snapshot: id })).toBeDefined()
  return id
}

const metricsText = async (server: ServerProcess) => {
  const response = await fetch(`${server.url}/metrics`, { headers: { Authorization: `Bearer ${METRICS_TOKEN}` } })
  expect(response.status).toBe(200)
  return response.text()
}

describe('the bundled server', () => {
  it('loads at start-up only what every start needs; the rest is imported on first use', async () => {
    const { files: atStartup, dynamics: later } = reachedFromMain('static')
    const loaded = [...atStartup].flatMap(packagesIn)
    expect(loaded.some((file) => file.startsWith('zod/'))).toBe(true)
    expect(loaded.filter((file) => file.startsWith('zod/v4/locales/'))).toEqual(['zod/v4/locales/en.js'])
    for (const lazy of ['undici/', 'execa/', 'prom-client/', 'pg/']) {
      expect(loaded.filter((file) => file.startsWith(lazy)), lazy).toEqual([])
      const chunks = [...later].filter((chunk) => !atStartup.has(chunk) && packagesIn(chunk).some((file) => file.startsWith(lazy)))
      expect(chunks.length, `a chunk imported on first use holds ${lazy}`).toBeGreaterThan(0)
    }
  })

  it('imports every module on first use through onFirstUse, which names a module that cannot load', async () => {
    // build-bundle.ts builds the bundle and is not in it.
    const sources = (await readdir(path.join(PROJECT_ROOT, 'server'), { recursive: true })).filter((file) => file.endsWith('.ts') && file !== 'build-bundle.ts')
    const imports: string[] = []
    for (const file of sources) {
      const lines = (await readFile(path.join(PROJECT_ROOT, 'server', file), 'utf8')).split('\n')
      for (const line of lines) if (/(?<!typeof )\bimport\(/.test(line) && !line.trimStart().startsWith('//')) imports.push(`${file}: ${line.trim()}`)
    }
    expect(imports.length).toBeGreaterThanOrEqual(6)
    expect(imports.filter((line) => !/\bonFirstUse[<(]/.test(line))).toEqual([])
  })

  describe('on the DuckDB store, with metrics, the census geocoder, webhooks and the console on', () => {
    let server: ServerProcess
    let key: string
    beforeAll(async () => {
      server = await startBundle({
        name: 'duckdb',
        env: {
          TAXATLAS_METRICS_TOKEN: METRICS_TOKEN,
          TAXATLAS_GEOCODER_URL: fake.baseUrl,
          TAXATLAS_WEBHOOK_ALLOW_LOOPBACK: '1',
          TAXATLAS_WEBHOOK_POLL_MS: '100',
          TAXATLAS_CONSOLE_DIR: path.join(PROJECT_ROOT, 'build/console'),
        },
      })
      key = (await server.createAccount('enterprise', 'bundle lane')).api_key
    })

    it('delivers a webhook to a real receiver, signed with the endpoint secret', async () => {
      // The snapshot served at start is the baseline: announced with no deliveries.
      await expect.poll(() => eventOf(server, 'webhook_announced', { snapshot: artifacts.baseId })).toBeDefined()
      const call = keyCaller(server, key)
      const created = await call('POST', '/v1/webhooks', { url: receiver.url, secret: SECRET })
      expect(created.status, created.text).toBe(201)
      const snapshot = await publishNext(server)

      await expect.poll(() => receiver.received.length).toBeGreaterThan(0)
      const [{ headers, body }] = receiver.received
      const signature = /^t=(\d+),v1=([0-9a-f]{64})$/.exec(String(headers['taxatlas-signature']))
      expect(signature, String(headers['taxatlas-signature'])).not.toBeNull()
      expect(signature![2]).toBe(createHmac('sha256', SECRET).update(`${signature![1]}.${body}`).digest('hex'))
      const event = JSON.parse(body)
      expect(event).toMatchObject({ type: 'rate_changes.announced', webhook_id: created.body.id, snapshot, previous_snapshot: artifacts.baseId })
      expect(event.changes.length).toBeGreaterThan(0)
      expect(new Set(event.changes.map((change: { state: string }) => change.state))).toEqual(new Set(['GA']))
      await expect.poll(async () => (await call('GET', `/v1/webhooks/${created.body.id}/deliveries`)).body.deliveries[0]?.status).toBe('delivered')
      expect((await (await fetch(`${server.url}/healthz`)).json()).webhooks).toEqual({ status: 'ok', own_failures: 0 })
    })

    it('answers /metrics to the token (TAXATLAS_METRICS_TOKEN)', async () => {
      expect((await fetch(`${server.url}/metrics`)).status).toBe(401)
      const text = await metricsText(server)
      expect(text).toMatch(/^taxatlas_http_requests_total\{route="\/healthz",method="GET",status="200"\} \d+$/m)
      expect(text).toMatch(/^taxatlas_store_state\{state="ok"\} 1$/m)
      expect(text).toMatch(/^taxatlas_webhook_own_failures_total 0$/m)
      expect(text).toMatch(/^taxatlas_process_resident_memory_bytes \d+/m)
    })

    it('asks the census geocoder over HTTP (TAXATLAS_GEOCODER_URL)', async () => {
      const oneLine = '100 MAIN ST, GA 30011'
      const gwinnett = censusMatch({ address: '100 MAIN ST, DACULA, GA, 30011', zip: '30011', state: 'GA', county: ['13135', 'Gwinnett'], place: null, x: -83.9, y: 34.0 })
      fake.behavior = { kind: 'body', text: JSON.stringify(censusAnswer(oneLine, [gwinnett])) }
      const answer = await keyCaller(server, key)('GET', `/v1/tax/ga?${new URLSearchParams({ address: '100 Main St, GA 30011' })}`)
      expect(answer.status, answer.text).toBe(200)
      expect(answer.body.rate).toMatchObject({ county: 'GWINNETT', combined_rate: '0.06000' })
      expect(answer.body.meta.resolved_via).toBe('census_geocoder')
      expect(fake.requests.map((url) => url.searchParams.get('address'))).toContain(oneLine)
    })

    it('serves the console built by make (TAXATLAS_CONSOLE_DIR)', async () => {
      const page = await fetch(`${server.url}/`)
      expect(page.status).toBe(200)
      const html = await page.text()
      const script = /<script[^>]+src="([^"]+)"/.exec(html)
      expect(script, html.slice(0, 300)).not.toBeNull()
      const asset = await fetch(new URL(script![1]!, `${server.url}/`))
      expect(asset.status).toBe(200)
      expect((await asset.text()).length).toBeGreaterThan(0)
    })
  })

  describe('on the PostgreSQL store, with the scheduled refresh on', () => {
    it('keeps orders in PostgreSQL and runs the refresh command as a child', async () => {
      const server = await startBundle({
        name: 'postgres',
        env: {
          TAXATLAS_STORE: await createTestDatabase(inject('postgresUrl'), 'bundle'),
          TAXATLAS_ADMIN_ENDPOINT_FILE: path.join(tmp, 'postgres.duckdb.admin.json'),
          TAXATLAS_REFRESH_SCHEDULE: '* * * * * *',
          TAXATLAS_REFRESH_COMMAND: `${process.execPath} -e process.exit(0)`,
        },
      })
      await expect.poll(() => eventOf(server, 'store_ready')).toMatchObject({ engine: 'postgres' })
      const call = keyCaller(server, (await server.createAccount('enterprise', 'bundle postgres')).api_key)
      const order = { transaction_id: 'bundle-1', transaction_date: new Date().toISOString().slice(0, 10), to_zip: '30303', to_state: 'GA', amount: '10.00' }
      const created = await call('POST', '/v1/portability/orders', order)
      expect(created.status, created.text).toBe(201)
      expect((await call('GET', '/v1/portability/orders/bundle-1')).body.order).toMatchObject({ transaction_id: 'bundle-1', amount: '10.00' })
      await expect.poll(() => eventOf(server, 'refresh_finished', { trigger: 'schedule' })).toBeDefined()
      expect(eventOf(server, 'refresh_failed')).toBeUndefined()
    })
  })

  it('was made to load every module the bundle imports on first use', () => {
    const everyChunk = bundleFiles()
    const onFirstUse = [...reachedFromMain('static').dynamics]
    expect(onFirstUse.length).toBeGreaterThanOrEqual(6)
    const loaded = new Set(readFileSync(loadedModules, 'utf8').split('\n').filter((url) => url.startsWith('file:')).map((url) => path.relative(BUNDLE_DIR, new URL(url).pathname)))
    expect([...everyChunk].filter((chunk) => !loaded.has(chunk)).sort()).toEqual([])
  })
})

describe('a bundle missing a chunk', () => {
  /** A copy of the bundle without the chunk holding `module`; node_modules beside it, for DuckDB's client. */
  let copies = 0
  async function bundleWithout(module: string): Promise<{ bundle: string }> {
    const dir = path.join(tmp, `without-${module}-${++copies}`)
    const files = [...bundleFiles()]
    expect(files.filter((file) => file.startsWith(`chunks/${module}-`))).toHaveLength(1)
    for (const file of files) if (!file.startsWith(`chunks/${module}-`)) await cp(path.join(BUNDLE_DIR, file), path.join(dir, 'server', file))
    await symlink(path.join(PROJECT_ROOT, 'node_modules'), path.join(dir, 'node_modules'))
    return { bundle: path.join(dir, 'server/main.mjs') }
  }

  const startFails = async (entry: { bundle: string }, env: Record<string, string>) => {
    const run = await execa(process.execPath, [entry.bundle], {
      cwd: PROJECT_ROOT,
      env: { PORT: '0', TAXATLAS_ADMIN_PORT: '0', TAXATLAS_ARTIFACTS: artifacts.dir, TAXATLAS_STORE: path.join(tmp, 'never.duckdb'), ...env },
      reject: false,
    })
    expect(run.exitCode).toBe(1)
    const failed = run.stdout.split('\n').filter((line) => line.startsWith('{')).map((line) => JSON.parse(line)).find((e) => e.event === 'startup_failed')
    expect(failed, run.stdout).toBeDefined()
    expect(run.stdout).not.toContain('"event":"listening"')
    return String(failed.reason)
  }

  it('does not start with an optional feature it cannot load, and names the feature and its setting', async () => {
    expect(await startFails(await bundleWithout('prom-client'), { TAXATLAS_METRICS_TOKEN: METRICS_TOKEN })).toMatch(/^metrics \(TAXATLAS_METRICS_TOKEN\): could not load prom-client: Cannot find module/)
    const withoutUndici = await bundleWithout('undici')
    expect(await startFails(withoutUndici, { TAXATLAS_GEOCODER_URL: fake.baseUrl })).toMatch(/^census geocoder \(TAXATLAS_GEOCODER_URL\): could not load undici: Cannot find module/)
    const withoutExeca = await bundleWithout('execa')
    expect(await startFails(withoutExeca, { TAXATLAS_REFRESH_SCHEDULE: 'weekly', TAXATLAS_REFRESH_COMMAND: 'true' })).toMatch(/^scheduled refresh \(TAXATLAS_REFRESH_SCHEDULE\): could not load execa: Cannot find module/)
    const withoutPg = await bundleWithout('pg-engine')
    expect(await startFails(withoutPg, { TAXATLAS_STORE: 'postgres://nobody@127.0.0.1:1/none' })).toMatch(/^PostgreSQL store \(TAXATLAS_STORE\): could not load the PostgreSQL store engine: Cannot find module/)
  })

  it("logs, counts and shows a webhook attempt that fails for a reason of ours, and does not hold it against the endpoint", async () => {
    // Artifacts of its own: the others' next snapshot has announced GA's changes already.
    const own = await announcingArtifacts(inject('mirrorUrl'))
    onTestFinished(() => rm(own.dir, { recursive: true, force: true }))
    const server = await startBundle({
      name: 'no-undici',
      artifacts: own,
      entry: await bundleWithout('undici'),
      env: { TAXATLAS_METRICS_TOKEN: METRICS_TOKEN, TAXATLAS_WEBHOOK_ALLOW_LOOPBACK: '1', TAXATLAS_WEBHOOK_POLL_MS: '100' },
    })
    const call = keyCaller(server, (await server.createAccount('enterprise', 'bundle no undici')).api_key)
    const created = await call('POST', '/v1/webhooks', { url: receiver.url, secret: SECRET })
    expect(created.status, created.text).toBe(201)
    const before = receiver.received.length
    // This server's own baseline is the snapshot it started on; the next one has changes for the endpoint.
    await expect.poll(() => eventOf(server, 'webhook_announced', { snapshot: own.baseId })).toBeDefined()
    await publishNext(server, own)

    await expect.poll(() => eventOf(server, 'webhook_own_failure')).toMatchObject({ level: 'error', webhook: created.body.id, reason: expect.stringMatching(/^Error: could not load undici: Cannot find module/) })
    const health = await (await fetch(`${server.url}/healthz`)).json()
    expect(health.status).toBe('ok')
    expect(health.webhooks).toMatchObject({ status: 'degraded', problem: 'own_failure', reason: expect.stringMatching(/could not load undici/), own_failures: expect.any(Number) })
    expect(health.webhooks.own_failures).toBeGreaterThan(0)
    expect(Number(/^taxatlas_webhook_own_failures_total (\d+)$/m.exec(await metricsText(server))?.[1])).toBeGreaterThan(0)
    // Nothing sent, nothing recorded against the endpoint: the delivery waits, the endpoint is not failing.
    expect(receiver.received.length).toBe(before)
    const [delivery] = (await call('GET', `/v1/webhooks/${created.body.id}/deliveries`)).body.deliveries
    expect(delivery).toMatchObject({ status: 'pending', last_error: null })
    const [endpoint] = (await call('GET', '/v1/webhooks')).body.webhooks
    expect(endpoint).toMatchObject({ id: created.body.id, status: 'enabled', failing_since: null })
    expect(existsSync(loadedModules)).toBe(true)
  })
})
