// GET /v1/tax/mn with a street address through a real server, on a snapshot the real refresh built
// from a mirror served over HTTP: the MN rate file and the MN boundary sample with address records
// derived from its 55101 rows (fixture sst-boundary-address-records, test/support/boundary-address-records.ts).
// Expected bindings are read from the rows the address records copy.
import { readFileSync } from 'node:fs'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { refresh } from '../pipeline/run/refresh.ts'
import { SST_BOUNDARY_URL, type StateDescriptor } from '../sources/descriptor.ts'
import { STATES } from '../sources/index.ts'
import { FullLookupBody } from '../server/lookup/tax-response.ts'
import { BOUNDARY_WITH_ADDRESSES, DAKOTA, ST_PAUL, UNRATED_CODE } from './support/boundary-address-records.ts'
import { censusAnswer, censusMatch } from './support/geocoder-census-bodies.ts'
import { startFakeCensusGeocoder, type FakeCensusGeocoder } from './support/geocoder-fake.ts'
import { fullLookup, simpleLookup, warningCodes, warningOf } from './support/lookup-bodies.ts'
import { startLookupServer, type LookupServer } from './support/lookup-server.ts'
import { pipelineSettings } from './support/refresh-run.ts'
import { sharedPath } from './support/shared.ts'
import { tempDir } from './support/temp-dirs.ts'
import { serveTempMirror, type TempMirror } from './support/temp-mirror.ts'

const MN_ZIP = 'MNR2026Q2FEB18.zip'

/** MN with its boundary file listed; the sample's 2016–2019 rows predate MN's 2026 anchors, so they are not held against them. */
const withBoundary = (d: StateDescriptor): StateDescriptor =>
  d.code === 'MN' ? { ...d, anchors: [], feeds: d.feeds.map((feed) => (feed.kind === 'sst' ? { ...feed, boundaryUrl: SST_BOUNDARY_URL } : feed)) } : d

let mirror: TempMirror
let lookup: LookupServer
let fake: FakeCensusGeocoder
let geocoded: LookupServer

beforeAll(async () => {
  mirror = await serveTempMirror({ [`sst/${MN_ZIP}`]: readFileSync(sharedPath('mirror/sst', MN_ZIP)), 'sst/MNB2026Q2FEB18.csv': BOUNDARY_WITH_ADDRESSES.join('\n') })
  const artifacts = await tempDir('address-artifacts')
  const settings = pipelineSettings({ mirror: mirror.url, artifacts, build: await tempDir('address-build'), drops: await tempDir('address-no-drops'), states: 'MN' })
  const silent = { start() {}, state() {}, info() {}, finish() {} }
  const run = await refresh(settings, silent, STATES.map(withBoundary))
  if (!run.manifest) throw new Error(`no snapshot: ${run.reason}: ${JSON.stringify(run.states.find((s) => s.code === 'MN')?.notes)}`)
  lookup = await startLookupServer({ dir: artifacts })
  fake = await startFakeCensusGeocoder()
  geocoded = await startLookupServer({ dir: artifacts }, { TAXATLAS_GEOCODER_URL: fake.baseUrl, TAXATLAS_GEOCODER_TIMEOUT_MS: '30000' })
}, 300_000)
afterAll(async () => {
  await Promise.all([lookup?.close(), geocoded?.close()])
  await fake?.close()
  await mirror?.close()
})

const full = (address: string) => fullLookup(lookup, `/v1/tax/mn?address=${encodeURIComponent(address)}&mode=full`)
const simple = (path: string) => simpleLookup(lookup, path)
const at = (street: string) => `${street}, Saint Paul, MN 55101`
const codes = warningCodes
const plus4 = (row: string[]) => row[18]!.padStart(4, '0')
/** The answer of the row's +4: the binding's own rates, as the ZIP+4 lookup gives them. */
const zip4Answer = (row: string[]) => simple(`/v1/tax/mn?zip=55101-${plus4(row)}`)

describe('an address in a ZIP whose boundary file has address ranges', () => {
  it('answers the binding of the range holding the house, exactly, on either side of the street', async () => {
    for (const [house, row] of [['101', ST_PAUL], ['150', DAKOTA]] as const) {
      const body = await full(at(`${house} Robert St N`))
      expect(body.meta.confidence).toBe('exact')
      expect(body.meta.resolved_via).toBe('address_range')
      expect(body.resolved_place.county?.fips).toBe(`27${row[24]}`)
      expect(body.resolved_place.city?.geoid ?? null).toBe(row[25] ? `27${row[25]}` : null)
      expect(codes(body.warnings)).not.toContain('unplaced_jurisdictions')
      expect(body.rate).toEqual((await zip4Answer(row)).rate)
    }
    const [odd, even] = [await full(at('101 Robert St N')), await full(at('150 Robert St N'))]
    expect(odd.rate.combined_rate).not.toBe(even.rate.combined_rate)
  })

  it('reads the street however it is spelled: suffix and directional written out, the directional before the name, a unit after it', async () => {
    for (const street of ['151 Robert Street North', '151 North Robert St', '151 Robert St N Apt 4']) {
      const body = await full(at(street))
      expect(body.meta.resolved_via, street).toBe('address_range')
      expect(body.resolved_place.county?.fips).toBe(`27${ST_PAUL[24]}`)
    }
  })

  it('address-ranges-overlapping-different-bindings: the ZIP5 answer at medium with address_ambiguous, not a guess', async () => {
    const zip5 = await simple('/v1/tax/mn?zip=55101')
    const body = await simple(`/v1/tax/mn?address=${encodeURIComponent(at('75 E 7th St'))}`)
    const ambiguous = warningOf(body.meta.warnings, 'address_ambiguous')
    expect(ambiguous.bindings.map((b: { county: string }) => b.county)).toHaveLength(2)
    expect(body.meta.resolved_via).toBe('address_locator')
    expect(body.meta.confidence).toBe('medium')
    expect(body.rate).toEqual(zip5.rate)
    // Outside the overlap one range holds the house.
    expect((await simple(`/v1/tax/mn?address=${encodeURIComponent(at('125 E 7th St'))}`)).meta.resolved_via).toBe('address_range')
  })

  it('address-range-unreadable-house-numbers: an unread range makes its street ambiguous and never answers alone', async () => {
    const beside = await simple(`/v1/tax/mn?address=${encodeURIComponent(at('20 Wabasha St N'))}`)
    expect(codes(beside.meta.warnings)).toContain('address_ambiguous')
    for (const street of ['500 Wabasha St N', '5 Kellogg Blvd W']) {
      const body = await simple(`/v1/tax/mn?address=${encodeURIComponent(at(street))}`)
      expect(body.meta.resolved_via, street).toBe('address_locator')
      expect(codes(body.meta.warnings)).not.toContain('address_ambiguous')
    }
  })

  it('a house in no range, or a street with none, answers as the ZIP5 does, without an address warning', async () => {
    const zip5 = await simple('/v1/tax/mn?zip=55101')
    for (const street of ['300 Robert St N', '10 Cedar St', '10 Minnesota St', '10 Robert St S']) {
      const body = await simple(`/v1/tax/mn?address=${encodeURIComponent(at(street))}`)
      expect(body.meta.resolved_via, street).toBe('address_locator')
      expect(body.rate, street).toEqual(zip5.rate)
      expect(codes(body.meta.warnings).filter((code) => code.startsWith('address_'))).toEqual([])
    }
  })

  it('boundary-district-without-rate-row: the binding answers, names the unrated district, and is low, never exact', async () => {
    const body = await simple(`/v1/tax/mn?address=${encodeURIComponent(at('10 Jackson St'))}`)
    expect(warningOf(body.meta.warnings, 'address_unrated_district')).toMatchObject({ districts: [UNRATED_CODE] })
    expect(body.meta.confidence).toBe('low')
    expect(body.meta.resolved_via).toBe('address_range')
  })

  it("an address's own ZIP+4 wins over its street's range", async () => {
    const withPlus4 = await simple(`/v1/tax/mn?address=${encodeURIComponent(`101 Robert St N, Saint Paul, MN 55101-${plus4(DAKOTA)}`)}`)
    expect(withPlus4.meta.resolved_via).toBe('zip4')
    expect(withPlus4.rate).toEqual((await zip4Answer(DAKOTA)).rate)
    expect(withPlus4.rate).not.toEqual((await simple(`/v1/tax/mn?address=${encodeURIComponent(at('101 Robert St N'))}`)).rate)
  })

  it('ZIP mode carries no street: the ZIP5 answer', async () => {
    const body = await simple('/v1/tax/mn?zip=55101')
    expect(body.meta.resolved_via).toBe('zip5')
  })
})

describe('with the upstream geocoder', () => {
  // The geocoder places every Robert St N house in Ramsey County's St. Paul, as the +4 row ST_PAUL binds.
  const answer = (oneLine: string) => {
    const stPaul = censusMatch({ address: `${oneLine}`, zip: '55101', state: 'MN', county: [`27${ST_PAUL[24]}`, 'Ramsey'], place: [`27${ST_PAUL[25]}`, 'St. Paul'], x: -93.09, y: 44.95 })
    fake.behavior = { kind: 'body', text: JSON.stringify(censusAnswer(oneLine, [stPaul])) }
  }

  it("the address ranges of the geocoder's ZIP answer before its county and place choose", async () => {
    answer('150 ROBERT ST N, SAINT PAUL, MN 55101')
    const ranged = await geocoded.get(`/v1/tax/mn?address=${encodeURIComponent(at('150 Robert St N'))}&mode=full`)
    const body = FullLookupBody.parse(ranged.body)
    expect(fake.requests.length).toBeGreaterThan(0)
    expect(body.meta.resolved_via).toBe('address_range')
    expect(body.resolved_place.county?.fips).toBe(`27${DAKOTA[24]}`)
    expect(body.meta.confidence).toBe('exact')

    answer('300 ROBERT ST N, SAINT PAUL, MN 55101')
    const unranged = FullLookupBody.parse((await geocoded.get(`/v1/tax/mn?address=${encodeURIComponent(at('300 Robert St N'))}&mode=full`)).body)
    expect(unranged.meta.resolved_via).toBe('census_geocoder')
    expect(unranged.resolved_place.county?.fips).toBe(`27${ST_PAUL[24]}`)
  })
})
