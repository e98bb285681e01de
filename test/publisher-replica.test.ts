// The official path end to end, as production runs it: `pipeline/main.ts` as its own process with no
// source setting, only HTTPS_PROXY and NODE_EXTRA_CA_CERTS, against a replica of the publishers
// (real host names, a test CA, a CONNECT proxy on loopback; test/support/publisher-replica.ts)
// serving the real files of ../shared under their published names behind pages shaped like the
// real ones. Then the faults a real publisher or network produces: each fails its input with a
// note naming the cause, the previous data stays in service and nothing else changes.
import { readFileSync } from 'node:fs'
import { cp, readFile, rm, writeFile } from 'node:fs/promises'
import path from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { CENSUS_CODES_URL, CENSUS_RELATIONSHIP_URL } from '../pipeline/geography/load-geography.ts'
import { PLACE_BY_COUNTY_FILE, ZCTA_COUNTY_FILE } from '../pipeline/geography/census-relationship.ts'
import { defaultZipRates } from '../pipeline/run/snapshot-diff.ts'
import type { Manifest, StateRecord } from '../snapshot-contract/manifest.ts'
import { RateIndex } from '../snapshot-contract/rate-index.ts'
import { loadCurrentSnapshot } from '../snapshot-contract/snapshot-store.ts'
import { decodeText } from '../pipeline/fetch/text-decoding.ts'
import { IDOR_ORDMACHE_URL, SST_BOUNDARY_URL, SST_RATES_URL } from '../sources/descriptor.ts'
import { CDTFA_WORKBOOK_URL, NY_PUB718_URL, PUBLISHER_HOSTS, SST_BOUNDARY_LISTED, SST_E7_FILES, SST_LISTED_WITHOUT_FILE, startOfficialPublishers } from './support/official-publishers.ts'
import { AR_TYPE_69_IN_FORCE, KS_TYPE_79_IN_FORCE } from './support/sst-e7-fixture.ts'
import { iisListingHtml } from './support/publisher-pages.ts'
import type { PublisherReplica } from './support/publisher-replica.ts'
import { refreshProcessWithOnly, tempDir } from './support/refresh-run.ts'
import { sharedPath } from './support/shared.ts'
import { synthesizedBoundaryLines, writeZippedLines } from './support/synthesized-boundary.ts'

const OFFICIAL = { GA: 'sst', MN: 'sst', WI: 'sst', CA: 'cdtfa', IL: 'idor-ordmache', NY: 'ny-dtf-pub718', SC: 'sc-dor', LA: 'la-remote-sellers' } as const
const GA_FILE_URL = `${SST_RATES_URL}GAR2026Q2FEB19.csv`
// A refresh that compiles builds the national geography: on two busy cores that takes minutes.
const REFRESH_TIMEOUT = 300_000
const record = (manifest: Manifest, code: string) => manifest.states.find((s) => s.code === code) as StateRecord

type Published = { manifest: Manifest; index: RateIndex }

async function published(artifacts: string): Promise<Published> {
  const snapshot = await loadCurrentSnapshot(artifacts)
  if (!snapshot) throw new Error(`nothing published in ${artifacts}`)
  return { manifest: snapshot.manifest, index: new RateIndex(snapshot.files['rates.bin']) }
}

const answersOf = ({ index }: Published, code: string) => defaultZipRates(index, '2026-11-21', new Set([code]))

describe('a refresh through the publisher replica, with only the standard proxy and CA variables', () => {
  let dir: string
  let replica: PublisherReplica
  let first: Published
  let firstSummary: string
  const base = () => ({ artifacts: path.join(dir, 'artifacts'), build: path.join(dir, 'build') })
  const refresh = (where: { artifacts: string; build: string }, env: Record<string, string> = replica.env) =>
    refreshProcessWithOnly({ ...env, TAXATLAS_DROPS: sharedPath('drops'), TAXATLAS_ARTIFACTS: where.artifacts, TAXATLAS_BUILD: where.build })

  beforeAll(async () => {
    dir = await tempDir('replica')
    replica = await startOfficialPublishers(dir)
    const run = await refresh(base())
    expect(run.exitCode, run.stderr).toBe(0)
    first = await published(base().artifacts)
    firstSummary = run.stderr
  }, 2 * REFRESH_TIMEOUT)
  afterAll(async () => {
    await replica?.close()
    if (dir) await rm(dir, { recursive: true, force: true })
  })

  it('publishes GA, MN, WI, CA, IL, NY, SC and LA ok from the files and pages their publishers serve, every request through the proxy', () => {
    for (const [code, feed] of Object.entries(OFFICIAL)) {
      const state = record(first.manifest, code)
      expect({ code, status: state.status, feed: state.feed }).toEqual({ code, status: 'ok', feed })
      expect(answersOf(first, code).length).toBeGreaterThan(100)
    }
    // Downloaded: fetched over HTTP(S); a drop read from TAXATLAS_DROPS is recorded as manual-drops:<path>.
    const downloadedBy = (code: string) => record(first.manifest, code).sources.map((s) => s.url).filter((url) => /^https?:/.test(url))
    expect(downloadedBy('GA')).toEqual([GA_FILE_URL])
    expect(downloadedBy('CA')).toEqual([CDTFA_WORKBOOK_URL])
    expect(downloadedBy('IL')).toEqual([IDOR_ORDMACHE_URL])
    expect(downloadedBy('NY')).toEqual([NY_PUB718_URL])
    // every publisher the replica serves was reached through a CONNECT tunnel; the official hosts of
    // feeds it does not serve (TX, FL, AZ, VA, MO, AL, NM, AK) were asked for too, and the proxy refused them
    // unresolved: no request reaches a public address
    const tunnelled = new Set(replica.proxy.tunnels.map((authority) => authority.replace(/:443$/, '')))
    expect([...tunnelled]).toEqual(expect.arrayContaining([...PUBLISHER_HOSTS]))
  })

  it('a name the SST listing carries whose file is then gone (404) fails that feed with a note naming the file, and its state falls back', () => {
    for (const name of SST_LISTED_WITHOUT_FILE) {
      const state = record(first.manifest, name.slice(0, 2))
      expect(state.notes.join(' '), name).toContain(`${name}: GET ${SST_RATES_URL}${name}`)
      expect(state.notes.join(' '), name).toMatch(/404/)
      expect(state.feed).not.toBe('sst')
    }
  })

  it('E7: Kansas and Arkansas files holding type-79 and type-69 rows serve their decoded layers, the rows in force counted as left out', () => {
    for (const [code, type, inForce] of [
      ['KS', '79', KS_TYPE_79_IN_FORCE],
      ['AR', '69', AR_TYPE_69_IN_FORCE],
    ] as const) {
      const state = record(first.manifest, code)
      expect({ code, feed: state.feed, edition: state.edition }).toEqual({ code, feed: 'sst', edition: SST_E7_FILES[code].slice(3, 14) })
      expect(state.left_out).toEqual([expect.objectContaining({ kind: `type-${type} rows (meaning not decoded)`, count: inForce })])
      expect(answersOf(first, code).length).toBeGreaterThan(100)
    }
  })

  it('reads the SST Boundary listing beside the Rates one: GA, MN and WI, with no boundary file there, serve from their rate files, and the summary names them', () => {
    expect(replica.requests).toContainEqual({ method: 'GET', url: SST_BOUNDARY_URL, status: 200, conditional: false })
    for (const code of ['GA', 'MN', 'WI']) {
      const state = record(first.manifest, code)
      expect(state.notes, code).toContain(`no boundary file listed for ${code} on ${SST_BOUNDARY_URL}: its ZIP+4 and address lookups answer as its ZIP does`)
    }
    // KS and AR, whose rate files the replica serves in the shapes of E7, have none there either
    expect(firstSummary).toContain("5 SST states served without a boundary file (none in the Boundary listing, or the one listed set aside: see the state's notes): AR GA KS MN WI.")
  })

  it('a boundary file the Boundary listing names is found and downloaded as the rate file is, and read with it', async () => {
    // The published sample's rows all ended in 2019 (trap P12); reopened, they are a current boundary file made of real rows.
    const reopened = decodeText(readFileSync(sharedPath('fixtures/sst/MNB2026Q2FEB18-sample.csv')), 'MNB2026Q2FEB18-sample.csv').replace(/^([^,]*,[^,]*,)20190331,/gm, '$129991231,')
    const boundaryFile = `${SST_BOUNDARY_URL}MNB2026Q2FEB18.csv`
    await replica.serveBytes(boundaryFile, reopened)
    const { host, pathname } = new URL(SST_BOUNDARY_URL)
    const restore = replica.override(SST_BOUNDARY_URL, { kind: 'page', html: iisListingHtml(host, pathname, [...SST_BOUNDARY_LISTED, 'MNB2026Q2FEB18.csv']) })
    const before = replica.requests.length
    try {
      const { run, after } = await faultRun('MN')
      expect(run.exitCode, run.stderr).toBe(0)
      expect(replica.requests.slice(before)).toContainEqual({ method: 'GET', url: boundaryFile, status: 200, conditional: false })
      // Read with the rate file, the sample binds 55401 to district 80004 alone (its Z row), not to the
      // districts of 2023 MN's anchor counts: held to the anchors, the new data is refused and MN's stays.
      const mn = record(after.manifest, 'MN')
      expect(mn.feeds_tried[0]).toEqual({ feed: 'sst', edition: '2026Q2FEB18', outcome: 'anchor_regression', message: 'new data not published: anchor 55401 on 2026-04-01: expected 0.09025, got 0.08025' })
      expect({ status: mn.status, feed: mn.feed }).toEqual({ status: 'anchor_regression', feed: 'sst' })
      expect(answersOf(after, 'MN')).toEqual(answersOf(first, 'MN'))
    } finally {
      restore()
    }
  }, REFRESH_TIMEOUT)

  it('a second refresh asks with conditional requests, gets 304s and publishes the same data', async () => {
    const before = replica.requests.length
    const run = await refresh(base())
    expect(run.exitCode, run.stderr).toBe(0)
    expect(run.stderr).toContain('no source changed')
    const second = replica.requests.slice(before).filter((r) => r.method === 'GET')
    expect(second.length).toBeGreaterThan(0)
    const fetchedAgain = second.filter((r) => r.status === 200).map((r) => r.url)
    // nothing is downloaded again: every page and file answered 304 (the listed-but-gone names 404 again)
    expect(fetchedAgain).toEqual([])
    expect(second.filter((r) => r.status === 304).every((r) => r.conditional)).toBe(true)
    const again = await published(base().artifacts)
    expect(again.manifest.snapshot).not.toBe(first.manifest.snapshot)
    for (const code of Object.keys(OFFICIAL)) expect(answersOf(again, code)).toEqual(answersOf(first, code))
  }, REFRESH_TIMEOUT)

  /** A refresh of `states` on a copy of the first run's artifacts and raw downloads (inside `dir`, so afterAll removes it even after a timeout). */
  let faultRuns = 0
  async function faultRun(states: string, env: Record<string, string> = replica.env) {
    const copy = path.join(dir, `fault-${++faultRuns}`)
    const where = { artifacts: path.join(copy, 'artifacts'), build: path.join(copy, 'build') }
    try {
      await cp(base().artifacts, where.artifacts, { recursive: true })
      await cp(base().build, where.build, { recursive: true })
      const run = await refreshProcessWithOnly({ ...env, TAXATLAS_STATES: states, TAXATLAS_DROPS: sharedPath('drops'), TAXATLAS_ARTIFACTS: where.artifacts, TAXATLAS_BUILD: where.build })
      return { run, after: await published(where.artifacts) }
    } finally {
      await rm(copy, { recursive: true, force: true })
    }
  }

  function keptPrevious(after: Published, code: string) {
    const state = record(after.manifest, code)
    expect(state.status, state.notes.join(' ')).toBe('failed')
    expect(state.edition).toBe(record(first.manifest, code).edition)
    expect(answersOf(after, code)).toEqual(answersOf(first, code))
    return state.notes.join(' ')
  }

  // Each state-level fault makes its state try its fallback feed, which compiles against the
  // geography; two faults share a run to keep the test short.
  it('a listing with no files fails the SST state with a note that the listing changed, and CA still refreshes', async () => {
    const { host, pathname } = new URL(SST_RATES_URL)
    const restore = replica.override(SST_RATES_URL, { kind: 'page', html: iisListingHtml(host, pathname, []) })
    try {
      const { run, after } = await faultRun('WI,CA')
      expect(run.exitCode, run.stderr).toBe(0)
      expect(keptPrevious(after, 'WI')).toMatch(/lists no SST file names/)
      expect(record(after.manifest, 'CA').status).toBe('ok')
    } finally {
      restore()
    }
  }, REFRESH_TIMEOUT)

  it('a file deleted between listing and download (404), and a sign-in page answered 200 in place of a data file, fail only their states', async () => {
    const signIn = '<!DOCTYPE html><html><head><title>Sign In | Illinois Department of Revenue</title></head><body><form action="/login" method="post"><input name="user"><input type="password" name="password"></form></body></html>'
    const restore = [replica.override(GA_FILE_URL, { kind: 'status', status: 404 }), replica.override(IDOR_ORDMACHE_URL, { kind: 'page', html: signIn })]
    try {
      const { run, after } = await faultRun('GA,IL,MN')
      expect(run.exitCode, run.stderr).toBe(0)
      expect(keptPrevious(after, 'GA')).toMatch(/GAR2026Q2FEB19\.csv: GET https:\/\/www\.streamlinedsalestax\.org\/.* 404/)
      expect(keptPrevious(after, 'IL')).toMatch(/ordmache-current\.txt: the server answered an HTML page \("Sign In \| Illinois Department of Revenue"\)/)
      expect(record(after.manifest, 'MN').status).toBe('ok')
    } finally {
      for (const undo of restore) undo()
    }
  }, REFRESH_TIMEOUT)

  it('a proxy that refuses CONNECT fails the state with the refusal named; the geography is taken from the copies held, and the run publishes', async () => {
    replica.proxy.refuseAll = true
    try {
      const { run, after } = await faultRun('GA')
      expect(run.exitCode, run.stderr).toBe(0)
      expect(run.stderr).toMatch(/through the proxy http:\/\/127\.0\.0\.1:\d+ failed: the proxy refused the CONNECT tunnel \(HTTP 403\)/)
      expect(run.stderr).toMatch(/geography input not downloaded or unreadable, earlier copy used: census-rel2020\/tab20_zcta520_county20_natl\.txt: .*refused the CONNECT tunnel.*; the copy the data in service was built on is used/)
      expect(keptPrevious(after, 'GA')).toMatch(/refused the CONNECT tunnel/)
      expect(after.manifest.geography.inputs).toEqual(first.manifest.geography.inputs)
      expect(answersOf(after, 'CA')).toEqual(answersOf(first, 'CA'))
    } finally {
      replica.proxy.refuseAll = false
    }
  }, REFRESH_TIMEOUT)

  it('a certificate not trusted (no NODE_EXTRA_CA_CERTS) fails the state with the trust problem named; the data in service stays', async () => {
    const { run, after } = await faultRun('GA', { HTTPS_PROXY: replica.env.HTTPS_PROXY })
    expect(run.exitCode, run.stderr).toBe(0)
    expect(run.stderr).toMatch(/certificate is not trusted \(a proxy that inspects TLS needs its CA in NODE_EXTRA_CA_CERTS\)/)
    expect(keptPrevious(after, 'GA')).toMatch(/not trusted/)
    expect(answersOf(after, 'IL')).toEqual(answersOf(first, 'IL'))
  }, REFRESH_TIMEOUT)

  it('E9 boundary files the Boundary listing names for GA, MN and WI that then answer 404 are set aside: each state is served from its rate file, ok, and says so', async () => {
    const gone = ['GAB2026Q4AUG20.zip', 'MNB2026Q4AUG18.zip', 'WIB2026Q4AUG17.zip']
    const { host, pathname } = new URL(SST_BOUNDARY_URL)
    const restore = replica.override(SST_BOUNDARY_URL, { kind: 'page', html: iisListingHtml(host, pathname, [...SST_BOUNDARY_LISTED, ...gone]) })
    const before = replica.requests.length
    try {
      const { run, after } = await faultRun('GA,MN,WI')
      expect(run.exitCode, run.stderr).toBe(0)
      for (const name of gone) {
        const code = name.slice(0, 2)
        const state = record(after.manifest, code)
        expect({ code, status: state.status, feed: state.feed }).toEqual({ code, status: 'ok', feed: 'sst' })
        // asked for under both extensions (a state switches between .csv and .zip), both gone
        expect(replica.requests.slice(before)).toContainEqual({ method: 'GET', url: `${SST_BOUNDARY_URL}${name}`, status: 404, conditional: false })
        const note = state.notes.find((n) => n.includes(name))
        expect(note, code).toMatch(new RegExp(`^edition \\w+: ${name}: the newest of 1 ${code} boundary file\\(s\\) listed on .*; not fetched, set aside \\(${name}: GET ${SST_BOUNDARY_URL}${name} .*failed: .*404.*; retried as ${name.replace('.zip', '.csv')}: .*404.*\\): ${code} is served from its rate file alone, as with no boundary file: its ZIP\\+4 and address lookups answer as its ZIP does$`))
        expect(state.sources.map((source) => source.name)).toEqual(record(first.manifest, code).sources.map((source) => source.name))
        expect(answersOf(after, code)).toEqual(answersOf(first, code))
      }
      // AR and KS, served in the shapes of E7 with no boundary file listed, are counted with them
      expect(run.stderr).toContain("5 SST states served without a boundary file (none in the Boundary listing, or the one listed set aside: see the state's notes): AR GA KS MN WI.")
    } finally {
      restore()
    }
  }, REFRESH_TIMEOUT)

  it('E10 a Census file refused to scripted clients (403) is asked again as a browser and read; one refused to every client is taken from the copy the data in service was built on', async () => {
    const forbidden = `${CENSUS_RELATIONSHIP_URL}${ZCTA_COUNTY_FILE}`
    const browsersOnly = `${CENSUS_CODES_URL}${PLACE_BY_COUNTY_FILE}`
    const restore = [
      replica.override(forbidden, { kind: 'status', status: 403 }),
      replica.override(browsersOnly, { kind: 'file', file: path.join(dir, 'census-codes2020', PLACE_BY_COUNTY_FILE), browserOnly: true }),
    ]
    const before = replica.requests.length
    try {
      const { run, after } = await faultRun('GA')
      expect(run.exitCode, run.stderr).toBe(0)
      const asked = replica.requests.slice(before)
      expect(asked.filter((r) => r.url === forbidden).map((r) => r.status)).toEqual([403, 403])
      expect(asked.filter((r) => r.url === browsersOnly).map((r) => r.status)).toEqual([403, 304])
      expect(run.stderr).toMatch(new RegExp(`geography input not downloaded or unreadable, earlier copy used: census-rel2020/${ZCTA_COUNTY_FILE}: GET .*403.*; asked again as a browser: GET .*403.*; the copy the data in service was built on is used`))
      expect(run.stderr).not.toMatch(new RegExp(`earlier copy used: census-codes2020`))
      expect(after.manifest.geography.inputs).toEqual(first.manifest.geography.inputs)
      const ga = record(after.manifest, 'GA')
      expect(ga.status).toBe('ok')
      expect(ga.notes).toContain(`geography inputs: 1 could not be downloaded or read (census-rel2020/${ZCTA_COUNTY_FILE}); earlier copies used, the refresh log says why`)
      expect(answersOf(after, 'GA')).toEqual(answersOf(first, 'GA'))
    } finally {
      for (const undo of restore) undo()
    }
  }, REFRESH_TIMEOUT)

  it('E8 a boundary file of a million rows, zipped, with rows of an unknown record type among them, is read as a stream: GA is served with its ZIP+4 ranges, the unknown rows counted and named', async () => {
    const name = 'GAB2026Q2FEB16.zip'
    const entries = [...first.index.entriesOfState('GA')].map((i) => first.index.entryAt(i))
    // "a row of an unknown type": a record type no layout documents, five times, far under the share a file may reject
    const unknown = Array.from({ length: 5 }, (_, i) => `X,20250101,29991231${',' .repeat(86)}${i}`)
    const file = path.join(dir, name)
    await writeZippedLines(file, name.replace('.zip', '.csv'), synthesizedBoundaryLines(entries, '13', 1_000_000, unknown))
    replica.answer(`${SST_BOUNDARY_URL}${name}`, { kind: 'file', file })
    const { host, pathname } = new URL(SST_BOUNDARY_URL)
    const restore = replica.override(SST_BOUNDARY_URL, { kind: 'page', html: iisListingHtml(host, pathname, [...SST_BOUNDARY_LISTED, name]) })
    try {
      const { run, after } = await faultRun('GA')
      expect(run.exitCode, run.stderr).toBe(0)
      const ga = record(after.manifest, 'GA')
      expect({ status: ga.status, feed: ga.feed }, ga.notes.join('\n')).toEqual({ status: 'ok', feed: 'sst' })
      expect(ga.sources.find((source) => source.name === name)).toMatchObject({ member: 'GAB2026Q2FEB16.csv' })
      const parsed = ga.notes.find((note) => note.startsWith('GAB2026Q2FEB16.csv: ') && note.includes('boundary rows parsed'))!
      const [, rowsParsed, rowsRead] = /^GAB2026Q2FEB16\.csv: (\d+) of (\d+) boundary rows parsed \(Z \d+, 4 \d+, A \d+; unknown types \{"X":5\}\)$/.exec(parsed)!
      expect(Number(rowsRead) - Number(rowsParsed)).toBe(5)
      expect(Number(rowsParsed)).toBeGreaterThanOrEqual(1_000_000)
      // a ZIP+4 is answered from the file's ranges: 30303-1234 lies in Fulton, in Atlanta, by its 4 row and the ZIP's Z row
      const matches = after.index.plus4Matches('30303', 1234, 'GA', '2026-11-21')
      expect(matches.map((match) => match.record).sort()).toEqual(['4', 'Z'])
      for (const match of matches) expect(match.candidate).toMatchObject({ county: { fips: '13121' }, place: { geoid: '1304000' } })
      expect(answersOf(after, 'GA')).toEqual(answersOf(first, 'GA'))
    } finally {
      restore()
    }
  }, 2 * REFRESH_TIMEOUT)

  it('a Census relationship file whose header changed is checked as it arrives: the copy the data in service was built on is used, the missing column named, and the run publishes', async () => {
    // the published file with one column renamed, as a new vintage might
    const published = await readFile(path.join(dir, 'census-rel2020', ZCTA_COUNTY_FILE), 'utf8')
    const renamed = path.join(dir, `renamed-column-${ZCTA_COUNTY_FILE}`)
    const [header, ...rows] = published.split('\n')
    await writeFile(renamed, [header!.replace('|AREALAND_PART|', '|AREALAND_PART_20|'), ...rows].join('\n'))
    const restore = replica.override(`${CENSUS_RELATIONSHIP_URL}${ZCTA_COUNTY_FILE}`, { kind: 'file', file: renamed })
    try {
      const { run, after } = await faultRun('GA')
      expect(run.exitCode, run.stderr).toBe(0)
      expect(run.stderr).toMatch(new RegExp(`geography input not downloaded or unreadable, earlier copy used: census-rel2020/${ZCTA_COUNTY_FILE}: downloaded but unreadable: ${ZCTA_COUNTY_FILE} lacks the column\\(s\\) AREALAND_PART \\(header: .*\\); the copy the data in service was built on is used`))
      expect(after.manifest.geography.inputs).toEqual(first.manifest.geography.inputs)
      const ga = record(after.manifest, 'GA')
      expect(ga.status).toBe('ok')
      expect(ga.notes).toContain(`geography inputs: 1 could not be downloaded or read (census-rel2020/${ZCTA_COUNTY_FILE}); earlier copies used, the refresh log says why`)
      expect(answersOf(after, 'GA')).toEqual(answersOf(first, 'GA'))
      expect(answersOf(after, 'IL')).toEqual(answersOf(first, 'IL'))
    } finally {
      restore()
    }
  }, REFRESH_TIMEOUT)
})
