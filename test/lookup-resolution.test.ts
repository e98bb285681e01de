// The lookup without HTTP, over the real snapshots: every ZIP of every served state answers (or is a
// documented withheld 404), the request reader, the location text, and the pure resolvers'
// refusals (unknown ZIP, missing state data, dates outside the data).
import { beforeAll, describe, expect, inject, it } from 'vitest'
import { formatRate } from '../snapshot-contract/rate-units.ts'
import { HttpError } from '../server/base/errors.ts'
import { EarlierSnapshots } from '../server/lookup/earlier-snapshots.ts'
import { readLocation, readPathStateText } from '../server/lookup/location-text.ts'
import { placeName, placeNameMatch } from '../server/lookup/taxing-place.ts'
import { isCalendarDate, periodStart, readLookupDate } from '../server/lookup/lookup-date.ts'
import { readLookupRequest, type LookupQuery } from '../server/lookup/lookup-request.ts'
import { lookupTax } from '../server/lookup/resolve-lookup.ts'
import { factsOf } from '../server/lookup/snapshot-facts.ts'
import type { SimpleLookupBody } from '../server/lookup/tax-response.ts'
import type { Snapshot } from '../server/snapshot/open-snapshot.ts'
import { STATES } from '../sources/index.ts'
import { HISTORY_STATE, lookupArtifacts, openLookupSnapshot, type LookupArtifacts } from './support/lookup-snapshots.ts'

const NOW = Date.parse('2026-11-21T12:00:00Z')
const TODAY = '2026-11-21'
const billing = () => ({ tier: 'enterprise', account_id: 'test', quota: { period: '2026-11', limit: null, used: 1, remaining: null }, lookup_counted: true })

let artifacts: LookupArtifacts
let current: Snapshot
let earlier: Snapshot

beforeAll(async () => {
  artifacts = await lookupArtifacts(inject('mirrorUrl'))
  current = await openLookupSnapshot(artifacts)
  earlier = await openLookupSnapshot(artifacts, artifacts.earlierId)
})

function request(state: string, query: LookupQuery) {
  const reading = readLookupRequest(state, query, NOW)
  if (!reading.ok) throw reading.error
  return reading.request
}

const simple = async (state: string, query: LookupQuery, snapshot: Snapshot = current) =>
  (await lookupTax(request(state, query), { snapshot, earlier: new EarlierSnapshots(artifacts.dir) }, billing)) as SimpleLookupBody

async function refusal(promise: Promise<unknown>): Promise<HttpError> {
  const error = await promise.then(
    () => null,
    (e: unknown) => e,
  )
  expect(error).toBeInstanceOf(HttpError)
  return error as HttpError
}

describe('every ZIP of every served state', () => {
  it('answers 200 with the highest-weight candidate, parts summing to the combined rate, or is a withheld 404', async () => {
    const facts = factsOf(current)
    const served = new Set(current.rates.states)
    expect(STATES.filter((s) => !served.has(s.code)).map((s) => s.code)).toEqual([])
    let answered = 0
    for (let i = 0; i < current.rates.zipEntryCount; i++) {
      const entry = current.rates.entryAt(i)
      const body = await simple(entry.state, { zip: entry.zip })
      const { rate, meta } = body
      expect(rate.state, entry.zip).toBe(entry.state)
      expect(rate.zip).toBe(entry.zip)
      const expected = current.rates.combinedRate(entry.candidates[0]!.stack, TODAY)
      expect(rate.combined_rate, `${entry.state} ${entry.zip}`).toBe(formatRate(expected))
      const sum = [rate.state_rate, rate.county_rate, rate.city_rate, rate.combined_district_rate].reduce((total, r) => total + Number(r.replace('.', '')), 0)
      expect(sum, `${entry.zip} parts`).toBe(expected)
      expect(meta.confidence).not.toBe('none')
      answered++
    }
    expect(answered).toBe(current.rates.zipEntryCount)

    const withheld = current.manifest.states.flatMap((s) => s.withheld.map((w) => ({ state: s.code, ...w })))
    expect(withheld.length).toBeGreaterThan(0)
    // A withheld ZIP with its state and county layers answers them at low confidence, naming the
    // rejected figure; one without is a 404 saying why.
    expect(withheld.some((w) => w.known_layers)).toBe(true)
    for (const { state, zip, reason, known_layers } of withheld) {
      if (known_layers) {
        const { meta } = await simple(state, { zip })
        expect(meta.confidence, zip).toBe('low')
        const rejected = meta.warnings.find((w) => typeof w === 'object' && w.code === 'zip_figure_rejected')
        expect(rejected && typeof rejected === 'object' ? rejected.message : '', zip).toContain(reason)
        continue
      }
      expect(facts.withheld(zip)?.state).toBe(state)
      const error = await refusal(simple(state, { zip }))
      expect(error.status).toBe(404)
      expect(error.message).toMatch(new RegExp(`ZIP ${zip} \\(${state}\\) is withheld: the source figure failed validation`))
    }
  })
})

describe('refusals of the resolver', () => {
  it('an unknown ZIP is a 404 saying so, never 0%', async () => {
    const unknown = ['00000', '99999', '00100'].find((zip) => current.rates.lookupZip(zip).length === 0 && !factsOf(current).withheld(zip))!
    const error = await refusal(simple('ga', { zip: unknown }))
    expect(error.code).toBe('NOT_FOUND')
    expect(error.message).toMatch(`ZIP ${unknown} is not known`)
  })

  it('a state with no data in service is a 503 naming the state and its status', async () => {
    // The earlier snapshot holds TX only: GA was never refreshed there.
    expect(factsOf(earlier).serves('GA')).toBe(false)
    const error = await refusal(simple('ga', { zip: '30303' }, earlier))
    expect(error.code).toBe('SERVICE_UNAVAILABLE')
    expect(error.message).toMatch(/GA .*status unknown/)
    expect(error.extra).toMatchObject({ state: 'GA', status: 'unknown' })
  })

  it('a date before every snapshot\'s data is a 400 naming the range held', async () => {
    const error = await refusal(simple(HISTORY_STATE, { zip: '78701', as_of: '2017-01-01' }))
    expect(error.code).toBe('INVALID_INPUT')
    const earliest = factsOf(earlier).coverage(HISTORY_STATE).from
    expect(error.extra).toMatchObject({ state: HISTORY_STATE, available_from: earliest, available_through: factsOf(current).record(HISTORY_STATE)!.effective_through })
    expect(error.message).toMatch(`available from ${earliest}`)
  })
})

describe('dates without as_of', () => {
  const lookupOn = async (state: string, zip: string, now: number) => {
    const reading = readLookupRequest(state, { zip }, now)
    if (!reading.ok) throw reading.error
    return (await lookupTax(reading.request, { snapshot: current, earlier: new EarlierSnapshots(artifacts.dir) }, billing)) as SimpleLookupBody
  }

  it('today before the data in service (a workbook published ahead) is answered by the drop edition held for today, saying so', async () => {
    const body = await lookupOn('ca', '95814', Date.parse('2025-12-15T12:00:00Z'))
    const warning = body.meta.warnings.find((w) => typeof w === 'object' && w.code === 'earlier_edition')
    expect(warning).toMatchObject({ edition: '202512', valid_from: '2025-12-01' })
    expect(body.meta.feed).toBe('avalara-zip5')
  })

  it('today before all data held answers the data in service from its first day, saying so', async () => {
    const body = await lookupOn('ca', '95814', Date.parse('2018-01-15T12:00:00Z'))
    expect(body.rate.combined_rate).toBe('0.08750')
    const warning = body.meta.warnings.find((w) => typeof w === 'object' && w.code === 'data_not_yet_effective')
    expect(warning).toMatchObject({ effective_from: '2026-01-01' })
  })
})

describe('reading the request', () => {
  const error = (state: string, query: LookupQuery) => {
    const reading = readLookupRequest(state, query, NOW)
    expect(reading.ok).toBe(false)
    return (reading as { error: HttpError }).error
  }

  it('takes exactly one input mode', () => {
    expect(request('ga', { zip: '30303' }).input).toEqual({ mode: 'zip', zip: '30303' })
    expect(request('ga', { address: '1 Main St', zip: '30303' }).input.mode).toBe('address')
    expect(request('ga', { city: 'Atlanta', zip: '30303' }).input.mode).toBe('address')
    expect(request('ga', { location: 'Atlanta' }).input.mode).toBe('place')
    expect(request('ga', { lat: 33.7, lng: -84.4 }).input).toEqual({ mode: 'coordinates', lat: 33.7, lng: -84.4 })
    expect(error('ga', {}).extra).toMatchObject({ received: [] })
    expect(error('ga', { zip: '30303', location: 'Atlanta' }).extra).toMatchObject({ received: ['zip', 'location'] })
    expect(error('ga', { address: 'x', lat: 1, lng: 2 }).message).toMatch(/exactly one input mode/)
    expect(error('ga', { city: 'Atlanta' }).message).toMatch(/Received city\./)
    expect(error('ga', { lat: 1 }).message).toMatch(/both lat and lng/)
  })

  it('mode and strict: listed values only; strict is ignored for coordinates', () => {
    expect(request('ga', { zip: '30303', mode: 'FULL' }).shape).toBe('full')
    expect(error('ga', { zip: '30303', mode: 'verbose' }).extra).toEqual({ valid_values: ['simple', 'full'] })
    for (const on of ['on', 'true', '1', 'TRUE']) expect(request('ga', { zip: '30303', strict: on }).strict).toBe(true)
    for (const off of ['off', 'false', '0']) expect(request('ga', { zip: '30303', strict: off }).strict).toBe(false)
    expect(error('ga', { zip: '30303', strict: 'yes' }).extra).toEqual({ valid_values: ['on', 'true', '1', 'off', 'false', '0'] })
    expect(request('ga', { lat: 1, lng: 2, strict: 'on' }).strict).toBe(false)
  })

  it('as_of is a calendar date; period a quarter code answered from its first day', () => {
    expect(isCalendarDate('2024-02-29')).toBe(true)
    expect(isCalendarDate('2026-02-29')).toBe(false)
    expect(isCalendarDate('2026-4-01')).toBe(false)
    expect(periodStart('20262')).toBe('2026-04-01')
    expect(periodStart('2026Q4')).toBe('2026-10-01')
    expect(periodStart('20265')).toBeNull()
    expect(readLookupDate(undefined, undefined, NOW)).toEqual({ ok: true, date: { iso: TODAY, explicit: false, label: `today (${TODAY})` } })
    expect(error('ga', { zip: '30303', as_of: '2026-02-30' }).message).toMatch(/not a calendar date/)
    expect(error('ga', { zip: '30303', period: '2026-2' }).message).toMatch(/not a quarter code/)
    expect(error('ga', { zip: '30303', as_of: '2026-01-01', period: '20261' }).message).toMatch(/not both/)
  })
})

describe('location text', () => {
  it('reads a trailing state written as a code or a name, with or without a comma', () => {
    expect(readLocation('Springfield, IL')).toEqual({ name: 'Springfield', state: { code: 'IL', written: 'IL', form: 'code' } })
    expect(readLocation('Saint Paul MN')).toEqual({ name: 'Saint Paul', state: { code: 'MN', written: 'MN', form: 'code' } })
    expect(readLocation('Springfield,  Illinois')).toEqual({ name: 'Springfield', state: { code: 'IL', written: 'Illinois', form: 'name' } })
    expect(readLocation('Kansas City Kansas').state?.code).toBe('KS')
    expect(readLocation('Kansas City Kansas').name).toBe('Kansas City')
  })

  it('keeps a name that is only a state, or has no state, whole', () => {
    expect(readLocation('Springfield')).toEqual({ name: 'Springfield', state: null })
    expect(readLocation('Washington')).toEqual({ name: 'Washington', state: null })
    expect(readLocation('Kansas City')).toEqual({ name: 'Kansas City', state: null })
    expect(readLocation('Washington DC')).toEqual({ name: 'Washington', state: { code: 'DC', written: 'DC', form: 'code' } })
  })

  it('reads the path state as a code, a name, or nothing', () => {
    expect(readPathStateText('ga')).toEqual({ code: 'GA', written: 'ga', form: 'code' })
    expect(readPathStateText('georgia')?.form).toBe('name')
    for (const placeholder of ['-', 'N', 'false', '', 'XX']) expect(readPathStateText(placeholder)).toBeNull()
  })
})

describe('place names', () => {
  it('match exactly across spellings, and aggregator regions named after the place by prefix', () => {
    const match = (candidate: string, sent: string) => placeNameMatch(placeName(candidate), placeName(sent))
    expect(match('St. Paul', 'Saint Paul')).toBe('exact')
    expect(match('DeKalb', 'De Kalb')).toBe('exact')
    expect(match('AUBURN/KING SPECIAL TAX DIST', 'Auburn')).toBe('prefix')
    expect(match('KANSAS CITY', 'Kansas City')).toBe('exact')
    expect(match('AUBURNDALE', 'Auburn')).toBeNull()
    expect(match('SEATTLE', '')).toBeNull()
  })
})
