// GET /v1/tax/{state} through a real server on port 0 with real snapshots: the pinned anchors of
// every state, a sample of ZIPs, the spec's error cases, ambiguous ZIPs in both shapes, place and
// coordinate lookups, dates (SST history, earlier snapshots, out of range), billing and OpenAPI.
import { cp, mkdtemp, rm } from 'node:fs/promises'
import os from 'node:os'
import path from 'node:path'
import { readFileSync } from 'node:fs'
import Papa from 'papaparse'
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest'
import { extractMember } from '../pipeline/fetch/archive.ts'
import { parseCdtfaWorkbook } from '../pipeline/feeds/cdtfa/workbook.ts'
import { parseRateFile } from '../pipeline/feeds/sst/rate-file.ts'
import { decodeText } from '../pipeline/fetch/text-decoding.ts'
import { formatRate } from '../snapshot-contract/rate-units.ts'
import { pointerPath, snapshotDir } from '../snapshot-contract/snapshot-store.ts'
import { writeAtomically } from '../snapshot-contract/file-bytes.ts'
import { ErrorBody } from '../server/base/errors.ts'
import { taxingUnplaced } from '../server/lookup/lookup-warnings.ts'
import { factsOf } from '../server/lookup/snapshot-facts.ts'
import { placeName } from '../server/lookup/taxing-place.ts'
import { FullLookupBody, SimpleLookupBody } from '../server/lookup/tax-response.ts'
import type { Snapshot } from '../server/snapshot/open-snapshot.ts'
import { STATES } from '../sources/index.ts'
import { warningCodes, warningOf } from './support/lookup-bodies.ts'
import { startLookupServer, type LookupServer } from './support/lookup-server.ts'
import { HISTORY_EDITION, HISTORY_STATE, ambiguousZip as findAmbiguousZip, avalaraRows, dropCombined, dropUnits, lookupArtifacts, openLookupSnapshot, type LookupArtifacts } from './support/lookup-snapshots.ts'
import { sharedPath } from './support/shared.ts'

let artifacts: LookupArtifacts
let lookup: LookupServer
let snapshot: Snapshot
const TODAY = new Date().toISOString().slice(0, 10)
const CDTFA_FILE = 'SalesTaxRates1-1-26.xlsx'

beforeAll(async () => {
  artifacts = await lookupArtifacts(inject('mirrorUrl'))
  snapshot = await openLookupSnapshot(artifacts)
  lookup = await startLookupServer(artifacts)
})
afterAll(async () => {
  await lookup?.close()
})

const get = (path: string, key?: string) => lookup.get(path, key)

async function ok(path: string) {
  const response = await get(path)
  expect(response.status, `${path}: ${JSON.stringify(response.body)}`).toBe(200)
  return response
}

async function simple(path: string) {
  const response = await ok(path)
  expect(response.headers.get('x-service-mode')).toBe('simple')
  return SimpleLookupBody.parse(response.body)
}

async function full(path: string) {
  const response = await ok(path)
  expect(response.headers.get('x-service-mode')).toBe('full')
  return FullLookupBody.parse(response.body)
}

async function refused(path: string, status: number, code: string) {
  const response = await get(path)
  expect(response.status, `${path}: ${JSON.stringify(response.body)}`).toBe(status)
  expect(ErrorBody.parse(response.body).error.code).toBe(code)
  return response.body.error as Record<string, any>
}


describe('the pinned anchors of every state', () => {
  it('answer their expected combined rate on their date, for the editions in service', async () => {
    let checked = 0
    for (const descriptor of STATES) {
      const record = factsOf(snapshot).record(descriptor.code)!
      for (const anchor of descriptor.anchors) {
        if (anchor.edition !== record.edition) continue
        const { rate } = await simple(`/v1/tax/${descriptor.code.toLowerCase()}?zip=${anchor.zip}&as_of=${anchor.asOf}`)
        expect(rate.combined_rate, `${descriptor.code} ${anchor.zip} on ${anchor.asOf}`).toBe(anchor.expected)
        checked++
      }
    }
    expect(checked).toBeGreaterThanOrEqual(STATES.length)
  })

  it('GA 30303 on 2022-06-01 is 0.08500 (Atlanta at 1.5% then), and 0.08900 now', async () => {
    const then = await simple('/v1/tax/ga?zip=30303&as_of=2022-06-01')
    expect(then.rate).toMatchObject({ state: 'GA', county: 'FULTON', city: 'ATLANTA', city_rate: '0.01500', combined_rate: '0.08500' })
    // medium: GA's district taxes cannot be placed without the boundary file (unplaced_jurisdictions)
    expect(then.meta).toMatchObject({ effective_date_basis: 'publisher_effective_date', effective_date: '2022-04-01', period: '20262', confidence: 'medium', resolved_via: 'zip5' })
    const now = await simple('/v1/tax/ga?zip=30303')
    expect(now.rate.combined_rate).toBe('0.08900')
    expect(now.meta.effective_date).toBe('2022-10-01')
  })
})

describe('ZIP mode', () => {
  it('a sample of every state\'s ZIPs answers over HTTP exactly as the index holds them', async () => {
    for (const state of snapshot.rates.states) {
      const indices = [...snapshot.rates.entriesOfState(state)]
      for (const i of [indices[0]!, indices[indices.length >> 1]!, indices[indices.length - 1]!]) {
        const entry = snapshot.rates.entryAt(i)
        const { rate } = await simple(`/v1/tax/${state.toLowerCase()}?zip=${entry.zip}`)
        expect(rate.combined_rate, `${state} ${entry.zip}`).toBe(formatRate(snapshot.rates.combinedRate(entry.candidates[0]!.stack, TODAY)))
        expect(rate.state).toBe(state)
      }
    }
  })

  it('serves the spec 2.1 rate object: 5-decimal strings, exact sums, freight from the rules, country US', async () => {
    const { rate, meta } = await simple('/v1/tax/WA?zip=98101')
    const row = (await avalaraRows('WA', '202512')).get('98101')!
    expect(rate).toEqual({
      zip: '98101',
      state: 'WA',
      state_rate: formatRate(dropUnits(row.StateRate!)),
      county: 'KING',
      county_rate: '0.00000',
      city: 'SEATTLE',
      city_rate: formatRate(dropUnits(row.EstimatedCityRate!)),
      combined_district_rate: formatRate(dropUnits(row.EstimatedSpecialRate!)),
      combined_rate: formatRate(dropCombined(row)),
      freight_taxable: true,
      country: 'US',
      country_rate: '0.00000',
    })
    expect(meta).toMatchObject({ resolved_via: 'zip5', confidence: 'medium', effective_date: null, effective_date_basis: 'edition_only', period: null })
    expect(warningCodes(meta.warnings)).toContain('aggregator_estimate')
    expect(meta.normalization).toBeUndefined()
  })

  it('CA: the 7.25% statewide rate is the state level, everything above it is district', async () => {
    const { rate, meta } = await simple('/v1/tax/ca?zip=95814')
    expect(rate).toMatchObject({ state_rate: '0.07250', county: 'SACRAMENTO', city: 'SACRAMENTO', city_rate: '0.00000', combined_district_rate: '0.01500', combined_rate: '0.08750', freight_taxable: false })
    expect(meta.confidence).toBe('high')
    expect(meta.effective_date_basis).toBe('edition_only')
  })

  it('no-tax states answer 200 with zeros, exactly; AK ZIPs without local tax too', async () => {
    for (const [state, zip] of [['de', '19801'], ['nh', '03301'], ['or', '97201']]) {
      const { rate, meta } = await simple(`/v1/tax/${state}?zip=${zip}`)
      expect(rate.combined_rate).toBe('0.00000')
      expect(rate.state_rate).toBe('0.00000')
      expect(meta).toMatchObject({ resolved_via: 'static_statewide', confidence: 'exact', effective_date_basis: 'no_published_date', effective_date: null })
    }
    const row = (await avalaraRows('AK', '202512')).get('99501')!
    expect(dropCombined(row)).toBe(0)
    const { rate } = await simple('/v1/tax/ak?zip=99501')
    expect(rate.combined_rate).toBe('0.00000')
  })

  it('an unknown ZIP is a 404 that says so; never 0%', async () => {
    const error = await refused('/v1/tax/ga?zip=00000', 404, 'NOT_FOUND')
    expect(error.message).toMatch(/ZIP 00000 is not known/)
  })

  it("an official state's ZIP the ZIP geography lacks is placed by the aggregator's region name, at low confidence", async () => {
    // P28: Los Angeles PO-box and unique ZIPs such as 90080 are not in the HUD crosswalk.
    const rows = await avalaraRows('CA', '202512')
    const zip = [...rows.keys()].find((z) => rows.get(z)!.TaxRegionName === 'LOS ANGELES' && snapshot.rates.lookupZip(z)[0]?.unlisted)!
    expect(zip).toBeDefined()
    const byZip = await simple(`/v1/tax/ca?zip=${zip}`)
    const place = await simple(`/v1/tax/ca?location=${encodeURIComponent('Los Angeles, CA')}`)
    expect(byZip.rate).toEqual({ ...place.rate, zip })
    expect(byZip.meta).toMatchObject({ resolved_via: 'zip5', confidence: 'low' })
    expect(byZip.meta.warnings).toContainEqual(expect.objectContaining({ code: 'zip_placed_by_region_name' }))
    // An aggregator state's ZIPs are its own rows: no such warning there.
    const tx = [...snapshot.rates.entriesOfState('TX')].map((i) => snapshot.rates.entryAt(i)).find((entry) => entry.unlisted)!
    expect((await simple(`/v1/tax/tx?zip=${tx.zip}`)).meta.warnings).not.toContainEqual(expect.objectContaining({ code: 'zip_placed_by_region_name' }))
  })

  it("an unknown ZIP of a served state's prefix says which list lacks it; an address naming its city is placed by the city", async () => {
    // MN ZIPs Avalara lists under a name no place with ZIPs of its own carries (55067 ROCK CREEK): still unknown.
    const rows = await avalaraRows('MN', '202512')
    const [zip, row] = [...rows].find(([z]) => snapshot.rates.lookupZip(z).length === 0)!
    const error = await refused(`/v1/tax/mn?zip=${zip}`, 404, 'NOT_FOUND')
    expect(error.message).toMatch(new RegExp(`^ZIP ${zip} is not known for MN: MN's rates are placed on the ZIPs of the HUD–USPS ZIP–county crosswalk, which does not list it`))
    const city = row.TaxRegionName!
    const byCity = await simple(`/v1/tax/mn?city=${encodeURIComponent(city)}&zip=${zip}`)
    const place = await simple(`/v1/tax/mn?location=${encodeURIComponent(`${city}, MN`)}`)
    expect(byCity.rate).toEqual(place.rate)
    expect(byCity.meta).toMatchObject({ resolved_via: 'place_gazetteer', confidence: 'low' })
    expect(byCity.meta.warnings).toContainEqual(expect.objectContaining({ code: 'zip_not_known', zip }))
    // A city that is no place keeps the ZIP's 404; the ZIP alone has no city to fall back on.
    expect((await refused(`/v1/tax/mn?city=Nowhereville&zip=${zip}`, 404, 'NOT_FOUND')).message).toMatch(`ZIP ${zip} is not known for MN`)
    // An aggregator state's ZIPs are its edition's rows: a gap between two TX ZIPs.
    const tx = [...snapshot.rates.entriesOfState('TX')].map((i) => Number(snapshot.rates.entryAt(i).zip))
    const gap = String(tx.find((z, i) => tx[i + 1]! > z + 1 && String(z + 1).slice(0, 3) === String(z).slice(0, 3))! + 1)
    expect((await refused(`/v1/tax/tx?zip=${gap}`, 404, 'NOT_FOUND')).message).toBe(
      `ZIP ${gap} is not known for TX: the TX source edition (${factsOf(snapshot).record('TX')!.edition}) lists no such ZIP. No rate is given rather than a guess.`,
    )
    // A prefix no served state holds says only that.
    expect((await refused('/v1/tax/ca?zip=00009', 404, 'NOT_FOUND')).message).toMatch(/^ZIP 00009 is not known for CA: no served state holds it\./)
  })

  it('a withheld ZIP with nothing known to answer is a 404 saying the source figure failed validation', async () => {
    const withheld = snapshot.manifest.states.flatMap((s) => s.withheld.map((w) => ({ state: s.code, ...w })))
    const unresolved = withheld.find((w) => !w.known_layers && !w.carried_from)!
    const { state, zip } = unresolved
    const error = await refused(`/v1/tax/${state.toLowerCase()}?zip=${zip}`, 404, 'NOT_FOUND')
    expect(error.message).toMatch(/withheld: the source figure failed validation/)
    expect(error).toMatchObject({ zip, state, withheld: true })
    // the path state is repaired before the refusal: the ZIP is still its state's
    const other = state === 'CA' ? 'ga' : 'ca'
    expect((await refused(`/v1/tax/${other}?zip=${zip}`, 404, 'NOT_FOUND')).state).toBe(state)
  })

  it('a withheld ZIP whose state and county layers hold the bounds answers them at low confidence, naming the rejected figure', async () => {
    const nv = factsOf(snapshot).record('NV')!
    const layered = nv.withheld.find((w) => w.known_layers)!
    const { rate, meta } = await simple(`/v1/tax/nv?zip=${layered.zip}`)
    expect(meta.confidence).toBe('low')
    expect(rate.city_rate).toBe('0.00000')
    expect(rate.combined_district_rate).toBe('0.00000')
    expect(warningOf(meta.warnings, 'zip_figure_rejected').message).toContain(layered.reason)
  })

  it('ZIP+4: no +4 data is held, the ZIP5 is answered with a warning', async () => {
    const { rate, meta } = await simple('/v1/tax/ga?zip=30303-1234')
    expect(rate.zip).toBe('30303')
    expect(warningOf(meta.warnings, 'zip4_not_used')).toMatchObject({ zip4: '1234' })
    const body = await full('/v1/tax/ga?zip=30303-1234&mode=full')
    expect(body.resolved_place).toMatchObject({ zip: '30303', zip4: '1234' })
  })

  it('a straddling ZIP answers for the path state when it is one of its states', async () => {
    const states = snapshot.rates.lookupZip('42223').map((e) => e.state)
    expect(states.sort()).toEqual(['KY', 'TN'])
    expect((await simple('/v1/tax/ky?zip=42223')).rate.state).toBe('KY')
    expect((await simple('/v1/tax/tn?zip=42223')).rate.state).toBe('TN')
    const error = await refused('/v1/tax/ga?zip=42223', 400, 'INVALID_INPUT')
    expect(error.message).toMatch(/not one of the states of ZIP 42223/)
  })

  it('MN answers warn that its unplaced transit districts may apply and are not included', async () => {
    const record = factsOf(snapshot).record('MN')!
    const districts = record.unplaced.filter((u) => u.level === 'district' && u.rate !== '0.00000')
    expect(districts.length).toBeGreaterThan(0)
    const { meta } = await simple('/v1/tax/mn?zip=55101')
    expect(warningOf(meta.warnings, 'unplaced_jurisdictions').message).toMatch(/may apply and are not included/)
    const body = await full('/v1/tax/mn?zip=55101&mode=full')
    const listed = warningOf(body.warnings, 'unplaced_jurisdictions').jurisdictions as { code: string }[]
    for (const d of districts) expect(listed.map((j) => j.code)).toContain(d.code)
  })

  it("the unplaced warning's example is not a tax the answer already includes, or says that it has the same rate", async () => {
    // Every GA ZIP of the snapshot whose answer carries the warning: the example it names either has
    // a rate no answered tax of its level has, or the message says which answered tax it matches.
    const zips = [...snapshot.rates.entriesOfState('GA')].map((i) => snapshot.rates.entryAt(i).zip).filter((_, i) => i % 25 === 0)
    let checked = 0
    for (const zip of zips) {
      const body = await full(`/v1/tax/ga?zip=${zip}&mode=full`)
      const warning = body.warnings.flatMap((w) => (typeof w === 'object' && w.code === 'unplaced_jurisdictions' ? [w] : []))[0]
      if (!warning) continue
      checked++
      const [, level, code, rate] = /e\.g\. (?:.*?\()?(\w+) (\w+)\)? at (\d\.\d{5})/.exec(warning.message)!
      const twins = body.rows.filter((row: { level: string; code: string; rate: string }) => row.level === level && row.rate === rate && row.code !== code)
      if (twins.length) expect(warning.message).toMatch(new RegExp(`the rate of the ${level} tax .*${twins[0].code}.* this answer includes`))
    }
    expect(checked).toBeGreaterThan(0)
  })
})

describe('ambiguous ZIPs', () => {
  // A real GA ZIP whose candidates (one per county holding its addresses) differ in combined rate.
  const ambiguousZip = () => findAmbiguousZip(snapshot, 'GA', TODAY)

  it('simple mode answers the highest-weight candidate with confidence medium and an ambiguous_zip5 warning', async () => {
    const entry = ambiguousZip()
    // the candidates' counties are the HUD crosswalk's counties of the ZIP
    const hud = Papa.parse<Record<string, string>>(readFileSync(sharedPath('geo/hud/ZIP_COUNTY_032023.csv'), 'utf8'), { header: true, skipEmptyLines: true }).data
    const hudCounties = hud.filter((row) => row.ZIP === entry.zip && row.COUNTY!.startsWith('13') && Number(row.TOT_RATIO) > 0).map((row) => row.COUNTY)
    expect(entry.candidates.map((c) => c.county!.fips).sort()).toEqual([...new Set(hudCounties)].sort())

    const { rate, meta } = await simple(`/v1/tax/ga?zip=${entry.zip}`)
    const top = entry.candidates[0]!
    expect(rate.county).toBe(top.county!.name.toUpperCase())
    expect(rate.combined_rate).toBe(formatRate(snapshot.rates.combinedRate(top.stack, TODAY)))
    expect(meta.confidence).toBe('medium')
    const warning = warningOf(meta.warnings, 'ambiguous_zip5')
    expect(warning.candidates).toEqual(
      entry.candidates.slice(1).map((c) => ({
        county: c.county!.name.toUpperCase(),
        city: c.place?.name.toUpperCase() ?? '',
        weight: c.weight,
        combined_rate: formatRate(snapshot.rates.combinedRate(c.stack, TODAY)),
      })),
    )
  })

  it('full mode lists every candidate with its weight (a JSON number) and all its rates', async () => {
    const entry = ambiguousZip()
    const body = await full(`/v1/tax/ga?zip=${entry.zip}&mode=full`)
    expect(body.ambiguous_zip5.ambiguous).toBe(true)
    expect(body.ambiguous_zip5.candidates).toHaveLength(entry.candidates.length)
    body.ambiguous_zip5.candidates.forEach((summary, i) => {
      const candidate = entry.candidates[i]!
      expect(summary).toMatchObject({ county_fips: candidate.county!.fips, weight: candidate.weight, selected: i === 0 })
      expect(typeof summary.weight).toBe('number')
      const parts = [summary.state_rate, summary.county_rate, summary.city_rate, summary.combined_district_rate].reduce((t, r) => t + Number(r.replace('.', '')), 0)
      expect(formatRate(parts)).toBe(summary.combined_rate)
    })
    expect(body.rate.combined_rate).toBe(body.ambiguous_zip5.candidates[0]!.combined_rate)
  })

  it('an unambiguous ZIP still has the envelope: ambiguous false, the one candidate', async () => {
    const body = await full('/v1/tax/ga?zip=30303&mode=full')
    expect(body.ambiguous_zip5).toMatchObject({ ambiguous: false, candidates: [{ county: 'FULTON', city: 'ATLANTA', weight: 1, selected: true, combined_rate: '0.08900' }] })
  })

  it('an address whose city is one candidate\'s place picks that candidate', async () => {
    let found: { zip: string; index: number; city: string } | null = null
    for (const i of snapshot.rates.entriesOfState('GA')) {
      const entry = snapshot.rates.entryAt(i)
      // (the ZIP's own USPS city chooses nothing: see the shared-ZIP test below)
      const postal = placeName(entry.city).key
      const index = entry.candidates.findIndex(
        (c, n) => n > 0 && c.place && placeName(c.place.name).key !== postal && !entry.candidates.slice(0, n).some((o) => o.place?.name === c.place!.name),
      )
      if (index > 0) {
        found = { zip: entry.zip, index, city: entry.candidates[index]!.place!.name }
        break
      }
    }
    expect(found).not.toBeNull()
    const { zip, index, city } = found!
    const entry = snapshot.rates.lookupZip(zip).find((e) => e.state === 'GA')!
    const { rate, meta } = await simple(`/v1/tax/ga?address=${encodeURIComponent(`100 Main St, ${city}, GA ${zip}`)}`)
    expect(rate.city).toBe(city.toUpperCase())
    expect(rate.combined_rate).toBe(formatRate(snapshot.rates.combinedRate(entry.candidates[index]!.stack, TODAY)))
    expect(meta.resolved_via).toBe('address_locator')
    expect(warningCodes(meta.warnings)).not.toContain('ambiguous_zip5')
  })
})

describe('full mode', () => {
  it('has rows, resolved_place, ambiguous_zip5, billing, warnings and the rate object', async () => {
    const body = await full('/v1/tax/ga?zip=30303&mode=full')
    expect(body.rate.combined_rate).toBe('0.08900')
    expect(body.rows.map((r) => [r.level, r.rate, r.source_kind])).toEqual([
      ['state', '0.04000', 'official'],
      ['county', '0.03000', 'official'],
      ['city', '0.01900', 'official'],
    ])
    expect(STATES.find((s) => s.code === 'GA')!.feeds[0]!.kind).toBe('sst')
    // the GA rate file the refresh discovered on the mirror's index page
    expect(new Set(body.rows.map((r) => r.source_file))).toEqual(new Set(['GAR2026Q2FEB19.csv']))
    expect(body.rows.find((r) => r.level === 'city')).toMatchObject({ effective_from: '2022-10-01', effective_to: null })
    expect(body.resolved_place).toMatchObject({ zip: '30303', zip4: null, state: 'GA', county: { fips: '13121', name: 'Fulton' }, city: { geoid: '1304000', name: 'Atlanta' }, usps_city: 'ATLANTA', resolved_via: 'zip5' })
    expect(body.resolved_place.lat).toBeCloseTo(33.75, 1)
    expect(body.billing).toMatchObject({ tier: 'enterprise', lookup_counted: true, quota: { limit: null, remaining: null } })
    expect(body.meta.confidence).toBe('medium') // GA districts unplaced
    expect(body.normalization).toBeUndefined()
  })

  it('marks aggregator and statute rows by source kind', async () => {
    expect((await full('/v1/tax/wa?zip=98101&mode=full')).rows.every((r) => r.source_kind === 'aggregator')).toBe(true)
    expect((await full('/v1/tax/ct?zip=06103&mode=full')).rows).toMatchObject([{ level: 'state', rate: '0.06350', source_kind: 'statute' }])
  })
})

describe('errors of the spec', () => {
  it('no input mode, or several, is 400 naming what was received and the modes', async () => {
    const none = await refused('/v1/tax/ga', 400, 'INVALID_INPUT')
    expect(none.received).toEqual([])
    expect(Object.keys(none.modes)).toEqual(['address', 'zip', 'place', 'coordinates'])
    const two = await refused('/v1/tax/ga?zip=30303&lat=33.7&lng=-84.4', 400, 'INVALID_INPUT')
    expect(two.received).toEqual(['zip', 'lat', 'lng'])
    expect(two.message).toMatch(/exactly one input mode/)
  })

  it('a bad mode or strict value is 400 listing the valid values', async () => {
    expect((await refused('/v1/tax/ga?zip=30303&mode=verbose', 400, 'INVALID_INPUT')).valid_values).toEqual(['simple', 'full'])
    expect((await refused('/v1/tax/ga?zip=30303&strict=maybe', 400, 'INVALID_INPUT')).valid_values).toEqual(['on', 'true', '1', 'off', 'false', '0'])
    expect((await simple('/v1/tax/ga?zip=30303&mode=simple')).rate.combined_rate).toBe('0.08900')
  })

  it('lat/lng that are not numbers or out of range are 422 with detail', async () => {
    const response = await get('/v1/tax/wa?lat=95&lng=-122.3')
    expect(response.status).toBe(422)
    expect(response.body.detail[0].loc).toEqual(['query', 'lat'])
    expect((await get('/v1/tax/wa?lat=47.6&lng=east')).status).toBe(422)
  })

  it('a state with no data in service is a 503 naming the state and its status', async () => {
    // A server whose only snapshot is the earlier one, holding TX only.
    const dir = await mkdtemp(path.join(os.tmpdir(), 'taxatlas-lookup-503-'))
    await cp(snapshotDir(artifacts.dir, artifacts.earlierId), snapshotDir(dir, artifacts.earlierId), { recursive: true })
    await writeAtomically(pointerPath(dir), `${artifacts.earlierId}\n`)
    const other = await startLookupServer({ dir })
    try {
      const response = await other.get('/v1/tax/ga?zip=30303')
      expect(response.status).toBe(503)
      expect(response.body.error).toMatchObject({ code: 'SERVICE_UNAVAILABLE', state: 'GA', status: 'unknown' })
      expect(response.body.error.message).toMatch(/GA/)
    } finally {
      await other.close()
      await rm(dir, { recursive: true, force: true })
    }
  })

  it('only 2xx lookups are counted', async () => {
    const account = async () => (await get('/v1/account')).body.quota.used as number
    const before = await account()
    await get('/v1/tax/ga?zip=00000')
    await get('/v1/tax/ga')
    expect(await account()).toBe(before)
    const body = await full('/v1/tax/ga?zip=30303&mode=full')
    expect(body.billing.quota.used).toBe(before + 1)
    expect(await account()).toBe(before + 1)
  })
})

describe('place mode', () => {
  it('"Springfield, IL" answers a ZIP bound to Springfield in its main county', async () => {
    const [place] = snapshot.places.find('Springfield', 'IL')
    const { rate, meta } = await simple(`/v1/tax/il?location=${encodeURIComponent('Springfield, IL')}`)
    expect(rate).toMatchObject({ state: 'IL', city: 'SPRINGFIELD', county: snapshot.places.countyName(place!.countyFips)!.toUpperCase() })
    expect(place!.zips).toContain(rate.zip)
    const entry = snapshot.rates.lookupZip(rate.zip).find((e) => e.state === 'IL')!
    expect(rate.combined_rate).toBe(formatRate(snapshot.rates.combinedRate(entry.candidates[0]!.stack, TODAY)))
    expect(meta.resolved_via).toBe('place_gazetteer')
    expect(warningCodes(meta.warnings)).not.toContain('place_input_mismatch')
  })

  it('a place answers one of its ZIPs mailed under its own name, a street-address ZIP, rather than a suburb\'s or a PO box', async () => {
    for (const [name, state] of [['Chicago', 'IL'], ['Houston', 'TX'], ['Phoenix', 'AZ']] as const) {
      const [place] = snapshot.places.find(name, state)
      const own = place!.zips.flatMap((zip) => snapshot.rates.lookupZip(zip)).filter((e) => e.state === state && e.city === name.toUpperCase() && e.zcta)
      expect(own.length, name).toBeGreaterThan(0)
      const { rate } = await simple(`/v1/tax/${state.toLowerCase()}?location=${encodeURIComponent(`${name}, ${state}`)}`)
      expect(own.map((e) => e.zip), name).toContain(rate.zip)
    }
  })

  it('"Saint Paul MN" finds St. Paul; a name with the path state only works too', async () => {
    const saint = await simple(`/v1/tax/mn?location=${encodeURIComponent('Saint Paul MN')}`)
    expect(saint.rate.city).toBe('ST. PAUL')
    expect(saint.meta.confidence).toBe('medium') // MN transit districts unplaced
    expect(warningCodes(saint.meta.warnings)).not.toContain('place_input_mismatch')
    const plain = await simple('/v1/tax/il?location=Springfield')
    expect(plain.rate.city).toBe('SPRINGFIELD')
  })

  it('a name found only in other states is a 404 naming them, not a silent switch', async () => {
    const error = await refused('/v1/tax/wa?location=Springfield', 404, 'NOT_FOUND')
    expect(error.found_in).toContain('IL')
    expect(error.message).toMatch(/No place named "Springfield" is known in WA; the name exists in .*IL/)
    expect((await refused('/v1/tax/il?location=Notarealtown', 404, 'NOT_FOUND')).message).toMatch(/No place named "Notarealtown"/)
  })

  /** The state's ZIP entries mailed under a USPS city name, from the index itself. */
  const mailedAs = (state: string, city: string) => [...snapshot.rates.entriesOfState(state)].map((i) => snapshot.rates.entryAt(i)).filter((e) => e.city === city)

  it('a USPS mailing name that is no place ("Brooklyn, NY") answers the taxing place its ZIPs resolve to, at medium', async () => {
    expect(snapshot.places.find('Brooklyn', 'NY')).toEqual([])
    const streets = mailedAs('NY', 'BROOKLYN').filter((e) => e.zcta)
    expect(streets.length).toBeGreaterThan(20)
    const cities = new Set(streets.map((e) => e.candidates[0]!.place?.name))
    expect(cities).toEqual(new Set(['NEW YORK CITY']))
    const { rate, meta } = await simple(`/v1/tax/ny?location=${encodeURIComponent('Brooklyn, NY')}`)
    expect(streets.map((e) => e.zip)).toContain(rate.zip)
    expect(rate.city).toBe('NEW YORK CITY')
    expect(rate).toEqual((await simple(`/v1/tax/ny?zip=${rate.zip}`)).rate)
    expect(meta).toMatchObject({ resolved_via: 'postal_city', confidence: 'medium' })
    expect(warningOf(meta.warnings, 'postal_city')).toMatchObject({ postal_city: 'BROOKLYN', zips: streets.length, others: [] })
    expect(warningOf(meta.warnings, 'place_input_mismatch')).toMatchObject({ customer_input_place: 'Brooklyn', resolved_place_name: 'NEW YORK CITY' })
    // an address without a ZIP goes the same way
    const address = await simple(`/v1/tax/ny?address=${encodeURIComponent('100 Court St, Brooklyn, NY')}`)
    expect(address.rate).toEqual(rate)
  })

  it('a mailing name counts its street-address ZIPs, not its PO boxes, which no location binds', async () => {
    const all = mailedAs('CA', 'NORTH HOLLYWOOD')
    const streets = all.filter((e) => e.zcta)
    expect(all.length).toBeGreaterThan(streets.length)
    expect(new Set(streets.map((e) => e.candidates[0]!.place?.name))).toEqual(new Set(['Los Angeles']))
    const { rate, meta } = await simple('/v1/tax/ca?location=North%20Hollywood')
    expect(rate).toMatchObject({ city: 'LOS ANGELES', county: 'LOS ANGELES' })
    expect(meta.confidence).toBe('medium')
    expect(warningOf(meta.warnings, 'postal_city')).toMatchObject({ zips: streets.length, others: [] })
  })

  it('a mailing name whose ZIPs resolve to different places answers the most common one at low, listing the others', async () => {
    const streets = mailedAs('TX', 'KINGWOOD').filter((e) => e.zcta)
    const places = new Set(streets.map((e) => `${e.candidates[0]!.county?.fips}|${e.candidates[0]!.place?.name ?? ''}`))
    expect(places.size).toBeGreaterThan(1)
    const { rate, meta } = await simple('/v1/tax/tx?location=Kingwood')
    expect(meta).toMatchObject({ resolved_via: 'postal_city', confidence: 'low' })
    const postal = warningOf(meta.warnings, 'postal_city')
    const listed: string[] = postal.others.flatMap((other: { zips: string[] }) => other.zips)
    const zips = streets.map((e) => e.zip)
    expect(zips).toContain(rate.zip)
    expect(listed).not.toContain(rate.zip)
    expect(listed.length).toBeGreaterThan(0)
    for (const zip of listed) expect(zips).toContain(zip)
    expect(postal.message).toMatch(/Send the ZIP/)
  })

  it('a placeholder path state lets the place choose its state, and says so', async () => {
    const { rate, meta } = await simple(`/v1/tax/-?location=${encodeURIComponent('Springfield, IL')}`)
    expect(rate.state).toBe('IL')
    const guessed = await simple('/v1/tax/-?location=Springfield')
    const mostPopulous = snapshot.places.find('Springfield')[0]!
    expect(guessed.rate.state).toBe(mostPopulous.state)
    expect(warningCodes(guessed.meta.warnings)).toEqual(expect.arrayContaining(['state_from_input', 'place_name_ambiguous']))
    expect(guessed.meta.confidence).toBe('low')
    expect(meta.warnings.length).toBeGreaterThan(0)
  })

  it('a CDP with no bound ZIP answers its county with low confidence', async () => {
    const [carmichael] = snapshot.places.find('Carmichael', 'CA')
    expect(carmichael!.kind).toBe('cdp')
    const { rate, meta } = await simple('/v1/tax/ca?location=Carmichael')
    expect(rate).toMatchObject({ county: 'SACRAMENTO', city: '', combined_rate: '0.07750' })
    expect(meta.confidence).toBe('low')
    expect(warningOf(meta.warnings, 'county_only').message).toMatch(/Carmichael/)
  })

  it('a city that is not the taxing place gives place_input_mismatch', async () => {
    // 55435 is addressed as MINNEAPOLIS but lies in Edina
    const { rate, meta } = await simple(`/v1/tax/mn?address=${encodeURIComponent('7700 France Ave S, Minneapolis, MN 55435')}`)
    expect(rate.city).toBe('EDINA')
    expect(warningOf(meta.warnings, 'place_input_mismatch')).toMatchObject({ customer_input_place: 'MINNEAPOLIS', resolved_place_name: 'EDINA' })
  })

  it('a city known by a name its Census name lacks is placed: Paso Robles, Ventura and Angels Camp ZIPs answer their city rates', async () => {
    const workbook = await parseCdtfaWorkbook(readFileSync(sharedPath('mirror', 'cdtfa', CDTFA_FILE)), CDTFA_FILE)
    const cityRate = (name: string) => formatRate(workbook.rows.find((row) => row.type === 'City' && row.location === name)!.rateUnits!)
    // 93446 and 93001 are mailed as PASO ROBLES and VENTURA; Census: "El Paso de Robles (Paso Robles) city", "San Buenaventura (Ventura) city"
    expect((await simple('/v1/tax/ca?zip=93446')).rate.combined_rate).toBe(cityRate('Paso Robles'))
    expect((await simple('/v1/tax/ca?zip=93001')).rate.combined_rate).toBe(cityRate('Ventura'))
    // 95222 is mailed as ANGELS CAMP; Census: "Angels city"
    expect((await simple('/v1/tax/ca?zip=95222')).rate).toMatchObject({ city: 'ANGELS CAMP', combined_rate: cityRate('Angels Camp') })
    const ventura = await simple('/v1/tax/ca?location=Ventura')
    expect(ventura.meta.resolved_via).toBe('place_gazetteer')
    expect(ventura.rate.combined_rate).toBe(cityRate('Ventura'))
    expect(warningCodes(ventura.meta.warnings)).not.toContain('place_input_mismatch')
    const unplaced = snapshot.manifest.states.find((s) => s.code === 'CA')!.unplaced.map((u) => u.name)
    expect(unplaced.join(' ')).not.toMatch(/Paso Robles|Ventura/)
  })

  it('"New York City" is New York city: as a location and as the city of an address without a ZIP', async () => {
    const { rate, meta } = await simple(`/v1/tax/ny?location=${encodeURIComponent('New York City, NY')}`)
    expect(rate).toEqual((await simple(`/v1/tax/ny?location=${encodeURIComponent('New York, NY')}`)).rate)
    expect(meta.resolved_via).toBe('place_gazetteer')
    expect(warningCodes(meta.warnings)).not.toContain('place_input_mismatch')
    const address = await simple(`/v1/tax/ny?address=${encodeURIComponent('1 Centre St, New York City, NY')}`)
    expect(address.rate).toEqual(rate)
  })

  it("a CDP whose ZIPs are all bound to cities answers its county's unincorporated rate, never a neighbouring city's, at a ZIP near it", async () => {
    // East Los Angeles (CDP): 90022's point lies in it, but the ZIP is bound to Los Angeles by its USPS name.
    const workbook = await parseCdtfaWorkbook(readFileSync(sharedPath('mirror', 'cdtfa', CDTFA_FILE)), CDTFA_FILE)
    const county = formatRate(workbook.rows.find((row) => row.type === 'County' && row.county === 'Los Angeles')!.rateUnits!)
    const [place] = snapshot.places.find('East Los Angeles', 'CA')
    expect(place!.kind).toBe('cdp')
    const { rate, meta } = await simple('/v1/tax/ca?location=East%20Los%20Angeles')
    expect(rate).toMatchObject({ county: 'LOS ANGELES', city: '', combined_rate: county })
    expect(warningOf(meta.warnings, 'county_only').message).toMatch(/the rates of LOS ANGELES county were answered/)
    const [entry] = snapshot.rates.lookupZip(rate.zip)
    expect(Math.hypot(entry!.lat! - place!.lat!, (entry!.lng! - place!.lng!) * Math.cos((place!.lat! * Math.PI) / 180)) * 111.2).toBeLessThan(5)
  })

  it('a city with no ZIP of its own answers its own official rate by name, by an address with a ZIP beside it, and by a point inside it', async () => {
    // Cudahy, CA shares 90201 with Bell and Bell Gardens and has no ZIP of its own: 90201 answers another city.
    const workbook = await parseCdtfaWorkbook(readFileSync(sharedPath('mirror', 'cdtfa', CDTFA_FILE)), CDTFA_FILE)
    const cudahyRate = formatRate(workbook.rows.find((row) => row.type === 'City' && row.location === 'Cudahy')!.rateUnits!)
    const zip = await simple('/v1/tax/ca?zip=90201')
    expect(zip.rate.city).not.toBe('CUDAHY')
    const named = await full('/v1/tax/ca?location=Cudahy&mode=full')
    expect(named.rate).toMatchObject({ zip: '90201', county: 'LOS ANGELES', city: 'CUDAHY', combined_rate: cudahyRate })
    expect(named.meta.resolved_via).toBe('place_gazetteer')
    expect(warningOf(named.meta.warnings, 'place_without_zip').message).toMatch(/Cudahy, CA has no ZIP of its own/)
    expect(warningCodes(named.meta.warnings)).not.toContain('county_only')
    // Its own tax is answered, so it is not among the taxes that may be missing.
    const missing = warningOf(named.meta.warnings, 'unplaced_jurisdictions').jurisdictions.map((j: { code: string }) => j.code)
    expect(missing).not.toContain('city:CUDAHY')
    expect(named.ambiguous_zip5).toMatchObject({ ambiguous: false })

    const address = await simple(`/v1/tax/ca?address=${encodeURIComponent('4610 Santa Ana St, Cudahy, CA 90201')}`)
    expect(address.rate).toMatchObject({ zip: '90201', city: 'CUDAHY', combined_rate: cudahyRate })
    expect(address.meta).toMatchObject({ resolved_via: 'address_locator', confidence: 'medium' })
    expect(warningCodes(address.meta.warnings)).not.toContain('place_input_mismatch')
    // A ZIP across town is not Cudahy's: the ZIP's own place answers, with the mismatch said.
    const across = await simple(`/v1/tax/ca?address=${encodeURIComponent('4610 Santa Ana St, Cudahy, CA 90001')}`)
    expect(across.rate.city).toBe('LOS ANGELES')
    expect(warningCodes(across.meta.warnings)).toContain('place_input_mismatch')

    const [place] = snapshot.places.find('Cudahy', 'CA')
    const point = await simple(`/v1/tax/ca?lat=${place!.lat}&lng=${place!.lng}`)
    expect(point.rate).toMatchObject({ city: 'CUDAHY', combined_rate: cudahyRate })
    expect(point.meta.resolved_via).toBe('coordinates')
    expect(warningCodes(point.meta.warnings)).not.toContain('nearest_zip')

    // North Mankato, MN (SST): its county's and its own rows of the rate file in force today.
    const member = extractMember(readFileSync(sharedPath('mirror/sst/MNR2026Q2FEB18.zip')), 'MNR2026Q2FEB18.zip')
    const rows = parseRateFile(decodeText(member.bytes, member.member)).rows.filter((row) => row.from <= TODAY && (row.to === null || row.to >= TODAY))
    const rowRate = (typeCode: string, code: string) => rows.find((row) => row.typeCode === typeCode && row.code === code)!.generalIntra
    const mankato = await simple(`/v1/tax/mn?location=${encodeURIComponent('North Mankato, MN')}`)
    expect(mankato.rate).toMatchObject({ county: 'NICOLLET', city: 'NORTH MANKATO', city_rate: formatRate(rowRate('01', '47068')) })
    expect(mankato.rate.combined_rate).toBe(formatRate(rowRate('45', '27') + rowRate('00', '103') + rowRate('01', '47068')))
    expect(warningCodes(mankato.meta.warnings)).toContain('place_without_zip')
  })

  it('"Industry" and "City of Industry" are one name: either finds the city CDTFA calls City of Industry, without a mismatch', async () => {
    for (const name of ['Industry', 'City of Industry']) {
      const { rate, meta } = await simple(`/v1/tax/ca?location=${encodeURIComponent(name)}`)
      expect(rate.city, name).toBe('CITY OF INDUSTRY')
      expect(meta.resolved_via, name).toBe('place_gazetteer')
      expect(warningCodes(meta.warnings), name).not.toContain('place_input_mismatch')
    }
  })

  it('a ZIP shared by two cities answers the one its USPS city names at medium, naming the other with its rate (pitfall P30)', async () => {
    // 90069 is addressed WEST HOLLYWOOD; its ZCTA point lies in Los Angeles.
    const workbook = await parseCdtfaWorkbook(readFileSync(sharedPath('mirror', 'cdtfa', CDTFA_FILE)), CDTFA_FILE)
    const cityRate = (name: string) => formatRate(workbook.rows.find((row) => row.type === 'City' && row.location === name)!.rateUnits!)
    const zip = await simple('/v1/tax/ca?zip=90069')
    expect(zip.rate).toMatchObject({ city: 'WEST HOLLYWOOD', combined_rate: cityRate('West Hollywood') })
    expect(zip.meta.confidence).toBe('medium')
    const others = warningOf(zip.meta.warnings, 'ambiguous_zip5').candidates
    expect(others).toEqual([{ county: 'LOS ANGELES', city: 'LOS ANGELES', weight: 0.3333, combined_rate: cityRate('Los Angeles') }])
    expect(cityRate('West Hollywood')).not.toBe(cityRate('Los Angeles'))

    // The place itself has a ZIP carrying its rates.
    const place = await simple(`/v1/tax/ca?location=${encodeURIComponent('West Hollywood, CA')}`)
    expect(place.rate).toMatchObject({ zip: '90069', city: 'WEST HOLLYWOOD', combined_rate: cityRate('West Hollywood') })
    expect(warningCodes(place.meta.warnings)).not.toContain('county_only')

    // The ZIP's postal name chooses nothing: the answer stays the ZIP's, with the same doubt.
    const postal = await simple(`/v1/tax/ca?address=${encodeURIComponent('8500 Sunset Blvd, West Hollywood, CA 90069')}`)
    expect(postal.rate.city).toBe('WEST HOLLYWOOD')
    expect(postal.meta.confidence).toBe('medium')
    expect(warningCodes(postal.meta.warnings)).toContain('ambiguous_zip5')
    // A USPS name spread over suburbs is not preferred: 55441 is addressed MINNEAPOLIS and its point lies in Plymouth.
    const suburb = await simple('/v1/tax/mn?zip=55441')
    expect(suburb.rate.city).toBe('PLYMOUTH')
    expect(warningOf(suburb.meta.warnings, 'ambiguous_zip5').candidates).toEqual([expect.objectContaining({ city: 'MINNEAPOLIS', weight: 0.3333 })])
    // Any other city sent chooses its candidate, saying the ZIP's first place is not the address's
    // (the answer stays medium for the LA County cities whose ZIPs are not known).
    const named = await simple(`/v1/tax/ca?address=${encodeURIComponent('1 Sunset Plaza Dr, Los Angeles, CA 90069')}`)
    expect(named.rate.city).toBe('LOS ANGELES')
    expect(warningCodes(named.meta.warnings)).not.toContain('ambiguous_zip5')
    expect(warningCodes(named.meta.warnings)).toContain('unplaced_jurisdictions')
  })

  it('a local tax that could not be placed is named, and holds the answer to medium, only where it may lie', async () => {
    const unplaced = (state: string) => taxingUnplaced(factsOf(snapshot).record(state)!)
    // CA: the unplaced taxes are cities', each known to lie in its counties.
    const ca = unplaced('CA')
    expect(ca.length).toBeGreaterThan(0)
    for (const tax of ca) expect(tax.counties?.length).toBeGreaterThan(0)
    expect(ca.some((tax) => tax.counties!.includes('06067'))).toBe(false)
    const sacramento = await simple('/v1/tax/ca?zip=95814')
    expect(sacramento.meta.confidence).toBe('high')
    expect(warningCodes(sacramento.meta.warnings)).not.toContain('unplaced_jurisdictions')
    const inLosAngeles = ca.filter((tax) => tax.counties!.includes('06037'))
    const la = await full('/v1/tax/ca?zip=90012&mode=full')
    expect(la.meta.confidence).toBe('medium')
    expect(warningOf(la.meta.warnings, 'unplaced_jurisdictions').jurisdictions.map((j: { code: string }) => j.code)).toEqual(inLosAngeles.map((tax) => tax.code))
    // MN: transit districts, which may lie anywhere in the state.
    expect(unplaced('MN').some((tax) => tax.level === 'district' && tax.counties === undefined)).toBe(true)
    const minneapolis = await simple('/v1/tax/mn?zip=55401')
    expect(minneapolis.meta.confidence).toBe('medium')
    expect(warningCodes(minneapolis.meta.warnings)).toContain('unplaced_jurisdictions')
    // WI: its stadium districts have ended, so they are named only for the dates they were in force.
    const ended = unplaced('WI')
    expect(ended.length).toBeGreaterThan(0)
    for (const tax of ended) expect(tax.until! < TODAY).toBe(true)
    const milwaukee = await simple('/v1/tax/wi?zip=53202')
    expect(milwaukee.meta.confidence).toBe('high')
    expect(warningCodes(milwaukee.meta.warnings)).not.toContain('unplaced_jurisdictions')
    const lastDay = ended.map((tax) => tax.until!).sort().at(-1)!
    const then = await full(`/v1/tax/wi?zip=53202&mode=full&as_of=${lastDay}`)
    expect(then.meta.confidence).toBe('medium')
    const named = warningOf(then.meta.warnings, 'unplaced_jurisdictions').jurisdictions.map((j: { code: string }) => j.code)
    expect(named).toEqual(ended.filter((tax) => tax.until! >= lastDay).map((tax) => tax.code))
  })

  it('an aggregator state names tax regions, not places: "Auburn, WA" is a ZIP of its AUBURN/KING region', async () => {
    const [auburn] = snapshot.places.find('Auburn', 'WA')
    const { rate, meta } = await simple(`/v1/tax/wa?location=${encodeURIComponent('Auburn, WA')}`)
    expect(auburn!.zips).toContain(rate.zip)
    const row = (await avalaraRows('WA', '202512')).get(rate.zip)!
    expect(row.TaxRegionName).toMatch(/^AUBURN\//)
    // the region's tax is a special district there, not a city rate
    expect(rate).toMatchObject({ city: '', city_rate: '0.00000', combined_district_rate: formatRate(dropUnits(row.EstimatedSpecialRate!)) })
    expect(rate.combined_rate).toBe(formatRate(dropCombined(row)))
    expect(meta.confidence).toBe('medium')
    expect(warningCodes(meta.warnings)).not.toContain('county_only')
    expect(warningCodes(meta.warnings)).not.toContain('place_input_mismatch')
  })

  it('an aggregator region named for a district answers the city: downtown Tucson is TUCSON, at the region\'s rates', async () => {
    const row = (await avalaraRows('AZ', '202512')).get('85701')!
    expect(row.TaxRegionName).toBe('TUCSON RIO NUEVO DISTRICT SP')
    const { rate, meta } = await simple(`/v1/tax/az?address=${encodeURIComponent('255 W Alameda St, Tucson, AZ 85701')}`)
    expect(rate).toMatchObject({ city: 'TUCSON', city_rate: formatRate(dropUnits(row.EstimatedCityRate!)), combined_district_rate: formatRate(dropUnits(row.EstimatedSpecialRate!)) })
    expect(rate.combined_rate).toBe(formatRate(dropCombined(row)))
    expect(warningCodes(meta.warnings)).not.toContain('place_input_mismatch')
    const body = await full('/v1/tax/az?zip=85701&mode=full')
    expect(body.resolved_place.city?.name).toBe('TUCSON')
  })

  it('an aggregator row without a city rate is the ZIP\'s answer, not a mismatch', async () => {
    const row = (await avalaraRows('WY', '202512')).get('82001')!
    const { rate, meta } = await simple(`/v1/tax/wy?address=${encodeURIComponent('2001 Capitol Ave, Cheyenne, WY 82001')}`)
    expect(rate.combined_rate).toBe(formatRate(dropCombined(row)))
    expect(warningCodes(meta.warnings)).not.toContain('place_input_mismatch')
    const place = await simple('/v1/tax/wy?location=Cheyenne')
    expect(warningCodes(place.meta.warnings)).not.toContain('county_only')
    expect(place.meta.confidence).toBe('medium')
  })

  it('an address without a ZIP is located by its city', async () => {
    const { rate, meta } = await simple(`/v1/tax/ga?address=${encodeURIComponent('55 Trinity Ave SW, Atlanta, GA')}`)
    expect(rate).toMatchObject({ city: 'ATLANTA', combined_rate: '0.08900' })
    expect(meta.resolved_via).toBe('place_gazetteer')
  })
})

describe('coordinates mode', () => {
  it('downtown Seattle (47.6062, -122.3321) is SEATTLE, WA', async () => {
    const { rate, meta } = await simple('/v1/tax/wa?lat=47.6062&lng=-122.3321')
    expect(rate).toMatchObject({ state: 'WA', city: 'SEATTLE', county: 'KING' })
    const row = (await avalaraRows('WA', '202512')).get(rate.zip)!
    expect(row.TaxRegionName).toMatch(/SEATTLE/)
    expect(rate.combined_rate).toBe(formatRate(dropCombined(row)))
    expect(meta).toMatchObject({ resolved_via: 'coordinates', confidence: 'medium' })
    const body = await full('/v1/tax/wa?lat=47.6062&lng=-122.3321&mode=full&strict=on')
    expect(body.resolved_place).toMatchObject({ lat: 47.6062, lng: -122.3321, resolved_via: 'coordinates' })
  })

  it('a point in another state than the path is a 400 naming where it lies', async () => {
    const error = await refused('/v1/tax/or?lat=47.6062&lng=-122.3321', 400, 'INVALID_INPUT')
    expect(error.message).toMatch(/lie in WA, outside OR/)
    expect(error.point_state).toBe('WA')
  })

  it('a placeholder path state serves the point\'s state, and says so', async () => {
    const { rate, meta } = await simple('/v1/tax/-?lat=47.6062&lng=-122.3321')
    expect(rate.state).toBe('WA')
    expect(warningCodes(meta.warnings)).toContain('state_from_input')
  })

  it('a point in no county (open sea) is a 404', async () => {
    expect((await refused('/v1/tax/wa?lat=40&lng=-140', 404, 'NOT_FOUND')).message).toMatch(/No US county contains the point/)
  })

  it('a GA point inside Atlanta answers Atlanta', async () => {
    const { rate } = await simple('/v1/tax/ga?lat=33.7537&lng=-84.3863')
    expect(rate).toMatchObject({ city: 'ATLANTA', combined_rate: '0.08900' })
  })
})

describe('dates', () => {
  it('period answers the first day of the quarter, as YYYYQ or YYYYQn', async () => {
    expect((await simple('/v1/tax/ga?zip=30303&period=20222')).rate.combined_rate).toBe('0.08500')
    expect((await simple('/v1/tax/ga?zip=30303&period=2022Q4')).rate.combined_rate).toBe('0.08900')
  })

  it('a date before the data held, in every snapshot, is 400 naming the range', async () => {
    const error = await refused('/v1/tax/ga?zip=30303&as_of=1999-01-01', 400, 'INVALID_INPUT')
    const coverage = factsOf(snapshot).coverage('GA')
    expect(error).toMatchObject({ state: 'GA', available_from: coverage.from, available_through: '2026-04-01' })
    expect(error.message).toMatch(`is before the GA data held: rates are available from ${coverage.from}; the newest data is effective through 2026-04-01, and later dates are answered with it`)
    // CA's workbook starts on its edition date; the oldest drop edition held starts 2018-04-01
    const ca = await refused('/v1/tax/ca?zip=95814&as_of=2018-03-01', 400, 'INVALID_INPUT')
    expect(ca).toMatchObject({ available_from: '2018-04-01', available_through: '2026-01-01' })
  })

  it('an earlier edition is answered from an earlier snapshot', async () => {
    const [then, now] = [await avalaraRows(HISTORY_STATE, HISTORY_EDITION), await avalaraRows(HISTORY_STATE, '202512')]
    const served = (zip: string) => snapshot.rates.lookupZip(zip).some((e) => e.state === HISTORY_STATE)
    const zip = [...now.keys()].find((z) => then.has(z) && served(z) && dropCombined(then.get(z)!) !== dropCombined(now.get(z)!))!
    expect(zip).toBeDefined()
    const old = await simple(`/v1/tax/tx?zip=${zip}&as_of=2019-06-01`)
    expect(old.rate.combined_rate).toBe(formatRate(dropCombined(then.get(zip)!)))
    expect(warningOf(old.meta.warnings, 'earlier_snapshot')).toMatchObject({ snapshot: artifacts.earlierId, edition: HISTORY_EDITION })
    expect(warningOf(old.meta.warnings, 'aggregator_estimate').message).toMatch(HISTORY_EDITION)
    // later editions exist: the date is not "after the newest data"
    expect(warningCodes(old.meta.warnings)).not.toContain('date_after_data')
    const current = await simple(`/v1/tax/tx?zip=${zip}`)
    expect(current.rate.combined_rate).toBe(formatRate(dropCombined(now.get(zip)!)))
    const error = await refused(`/v1/tax/tx?zip=${zip}&as_of=2018-03-31`, 400, 'INVALID_INPUT')
    expect(error).toMatchObject({ available_from: '2018-04-01', available_through: '2025-12-01' })
  })

  it('a ZIP missing from the earlier edition is a 404 about that edition', async () => {
    const then = await avalaraRows(HISTORY_STATE, HISTORY_EDITION)
    const zip = [...snapshot.rates.entriesOfState(HISTORY_STATE)].map((i) => snapshot.rates.entryAt(i).zip).find((z) => !then.has(z))!
    expect(zip).toBeDefined()
    const error = await refused(`/v1/tax/tx?zip=${zip}&as_of=2019-06-01`, 404, 'NOT_FOUND')
    expect(error.message).toMatch(`edition ${HISTORY_EDITION}`)
    expect(error.snapshot).toBe(artifacts.earlierId)
  })

  it('a statutory rate has no start date: an earlier date is answered, saying it is verified for one quarter only', async () => {
    const { rate, meta } = await simple('/v1/tax/ct?zip=06103&as_of=2020-01-01')
    expect(rate.combined_rate).toBe('0.06350')
    expect(meta.confidence).toBe('exact')
    expect(warningOf(meta.warnings, 'statutory_rate_undated')).toMatchObject({ verified_for: '2026Q4' })
  })

  it('a date after the newest data answers the latest rates with a warning', async () => {
    const { rate, meta } = await simple('/v1/tax/ga?zip=30303&as_of=2030-01-01')
    expect(rate.combined_rate).toBe('0.08900')
    expect(warningOf(meta.warnings, 'date_after_data')).toMatchObject({ effective_through: '2026-04-01' })
  })
})

describe('OpenAPI', () => {
  it('documents the route, its parameters and both response shapes', async () => {
    const document = (await (await fetch(`${lookup.server.url}/openapi.json`)).json()) as any
    const operation = document.paths['/v1/tax/{state}'].get
    expect(operation.operationId).toBe('getTaxRate')
    expect(operation.parameters.map((p: { name: string }) => p.name)).toEqual(['state', 'address', 'city', 'zip', 'location', 'lat', 'lng', 'mode', 'strict', 'as_of', 'period'])
    expect(Object.keys(operation.responses)).toEqual(expect.arrayContaining(['200', '400', '401', '402', '404', '422', '429', '503']))
    expect(document.components.schemas).toHaveProperty('TaxLookupSimple')
    expect(document.components.schemas).toHaveProperty('TaxLookupFull')
    expect(operation.responses['200'].headers).toHaveProperty('X-Service-Mode')
  })
})
