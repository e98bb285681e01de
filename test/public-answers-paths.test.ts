// No answer shows where the deployment keeps its files. The README's refresh reads the sources from
// local directories (TAXATLAS_MIRROR and TAXATLAS_DROPS as paths): the snapshot it publishes names
// those files by their place in the mirror or the drops (`local-mirror:sst/…`), and no route of the
// server answers with an absolute path of the machine, public (/v1/freshness, /healthz) or keyed
// (lookups of a state served by a fallback, whose warning says why, in both shapes).
import { readFile } from 'node:fs/promises'
import path from 'node:path'
import { afterAll, beforeAll, expect, it } from 'vitest'
import { API_ROUTES } from '../server/routes/index.ts'
import { openSnapshot } from '../server/snapshot/open-snapshot.ts'
import { machinePathsIn } from './support/machine-paths.ts'
import { pipelineSettings, runRefresh } from './support/refresh-run.ts'
import { startTestServer, withKey, type TestServer } from './support/server-harness.ts'
import { sharedPath } from './support/shared.ts'
import { tempDir } from './support/temp-dirs.ts'

// WA: an SST member with no file in the mirror, served by its drop with feed_fallback; GA its SST
// file; CA the CDTFA workbook; CT its statute.
const STATES = ['WA', 'GA', 'CA', 'CT']

let artifacts: string
let snapshotDir: string
let server: TestServer
let key: string
const zipOf = new Map<string, string>()

beforeAll(async () => {
  artifacts = await tempDir('paths-artifacts')
  const settings = pipelineSettings({ mirror: sharedPath('mirror'), artifacts, build: await tempDir('paths-build'), states: STATES.join(',') })
  const { manifest, reason } = await runRefresh(settings)
  if (!manifest) throw new Error(`no snapshot published: ${reason}`)
  snapshotDir = path.join(artifacts, 'snapshots', manifest.snapshot)
  const snapshot = await openSnapshot(artifacts, manifest.snapshot, Date.now())
  for (const state of STATES) zipOf.set(state, snapshot.rates.entryAt(snapshot.rates.entriesOfState(state).next().value!).zip)
  server = await startTestServer({ artifactsDir: artifacts })
  key = (await server.createAccount('enterprise')).api_key
})
afterAll(() => server?.close())

it('the published manifest and freshness records name local files by their place in the mirror or the drops', async () => {
  const manifest = await readFile(path.join(snapshotDir, 'manifest.json'), 'utf8')
  const freshness = await readFile(path.join(snapshotDir, 'freshness.json'), 'utf8')
  expect(machinePathsIn(manifest, [artifacts])).toEqual([])
  expect(machinePathsIn(freshness, [artifacts])).toEqual([])
  const wa = (JSON.parse(freshness) as { states: { code: string; fallback_reason: string | null }[] }).states.find((s) => s.code === 'wa')
  expect(wa?.fallback_reason).toMatch(/^sst has no file: index page https:\/\/\S+ \(local mirror sst\/\) lists no rate file for WA/)
  expect(manifest).toContain('"url": "local-mirror:sst/GAR')
  expect(manifest).toMatch(/"url": "manual-drops:avalara-zip5\/\d{6}\/TAXRATES_ZIP5_WA\d{6}\.csv"/)
})

/** Every GET route of the API, its path parameters filled for each state served. */
function requests(): string[] {
  const paths = ['/', '/openapi.json', '/no-such-route']
  for (const route of API_ROUTES.filter((r) => r.method === 'GET')) {
    for (const [state, zip] of zipOf) {
      const filled = route.path
        .replace(':state', state.toLowerCase())
        .replace(':zip', zip)
        .replace(/:\w+_id\b/, 'missing_id')
      const query = route.path === '/v1/tax/:state' ? [`?zip=${zip}`, `?zip=${zip}&mode=full`] : route.path === '/v1/portability/rates' ? [`?zip=${zip}&state=${state}`] : ['']
      paths.push(...query.map((q) => `${filled}${q}`))
    }
  }
  return [...new Set(paths)]
}

it('no route answers with an absolute path of the machine, with or without a key', async () => {
  const wa = await fetch(`${server.url}/v1/tax/wa?zip=${zipOf.get('WA')}`, withKey(key))
  expect(await wa.json()).toMatchObject({ meta: { warnings: expect.arrayContaining([expect.objectContaining({ code: 'feed_fallback', reason: expect.stringMatching(/\(local mirror sst\/\)/) })]) } })
  const answered: string[] = []
  for (const route of requests()) {
    for (const init of [withKey(key), {}]) {
      const response = await fetch(`${server.url}${route}`, init)
      const text = await response.text()
      answered.push(route)
      expect(machinePathsIn(text, [artifacts]), `${route} (${response.status})`).toEqual([])
    }
  }
  expect(answered.length).toBeGreaterThan(40)
})
