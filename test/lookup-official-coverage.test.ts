// More official coverage through a real server on the shared lookup snapshots: Minneapolis with
// its district taxes placed (ZIP, address, point), Illinois from the ordmache file, answers naming
// their feed and a fallback's reason, and dates before the data in service answered from the
// drop editions held (labelled with their edition and window).
import { readFileSync } from 'node:fs'
import { describe, expect, inject, it } from 'vitest'
import { FreshnessEnvelope } from '../snapshot-contract/manifest.ts'
import { formatRate } from '../snapshot-contract/rate-units.ts'
import { ErrorBody } from '../server/base/errors.ts'
import { factsOf } from '../server/lookup/snapshot-facts.ts'
import type { FullLookupBody } from '../server/lookup/tax-response.ts'
import { fullLookup, simpleLookup, warningOf } from './support/lookup-bodies.ts'
import { servedLookups } from './support/lookup-server.ts'
import { avalaraRows, dropCombined } from './support/lookup-snapshots.ts'
import { sharedPath } from './support/shared.ts'

const served = servedLookups()

const answer = (path: string) => (path.includes('mode=full') ? fullLookup(served.lookup, path) : simpleLookup(served.lookup, path))
const defaultRate = (zip: string, state: string, date: string) => {
  const entry = served.snapshot.rates.lookupZip(zip).find((e) => e.state === state)!
  return formatRate(served.snapshot.rates.combinedRate(entry.candidates[0]!.stack, date))
}

describe('Minneapolis with its district taxes placed', () => {
  it('55401 answers 9.025% by ZIP, by address and by a point in it', async () => {
    const byZip = await answer('/v1/tax/mn?zip=55401')
    expect(byZip.rate).toMatchObject({ county: 'HENNEPIN', city: 'MINNEAPOLIS', combined_district_rate: '0.01500', combined_rate: '0.09025' })
    expect(byZip.meta.feed).toBe('sst')
    const byAddress = await answer(`/v1/tax/mn?address=${encodeURIComponent('250 Marquette Ave, Minneapolis, MN 55401')}`)
    expect(byAddress.rate.combined_rate).toBe('0.09025')
    const entry = served.snapshot.rates.lookupZip('55401')[0]!
    const byPoint = await answer(`/v1/tax/mn?lat=${entry.lat}&lng=${entry.lng}`)
    expect(byPoint.rate).toMatchObject({ city: 'MINNEAPOLIS', combined_rate: '0.09025' })
  })

  it('the full answer lists the three district rows from the MN rate file', async () => {
    const body = (await answer('/v1/tax/mn?zip=55401&mode=full')) as FullLookupBody
    expect(body.rows.filter((r) => r.level === 'district').map((r) => [r.code, r.rate, r.effective_from, r.source_file])).toEqual([
      ['80004', '0.00500', '2017-10-01', 'MNR2026Q2FEB18.csv'],
      ['80008', '0.00750', '2023-10-01', 'MNR2026Q2FEB18.csv'],
      ['80009', '0.00250', '2023-10-01', 'MNR2026Q2FEB18.csv'],
    ])
  })
})

describe('Illinois from the ordmache file', () => {
  it('Chicago 60601 answers the Chicago record, dated by the publisher', async () => {
    const body = (await answer('/v1/tax/il?zip=60601&mode=full')) as FullLookupBody
    expect(body.rate).toMatchObject({ county: 'COOK', city: 'CHICAGO', state_rate: '0.06250', combined_rate: '0.10250' })
    expect(body.meta).toMatchObject({ feed: 'idor-ordmache', effective_date_basis: 'publisher_effective_date', effective_date: '2016-01-01' })
    expect(body.rows.find((r) => r.level === 'district')).toMatchObject({ code: '016-0001-1', source_file: 'ordmache-current.txt', source_kind: 'official' })
  })

  it('a ZIP answered by a record whose rate varies by address warns, names ordmacha, and answers at low confidence', async () => {
    const record = factsOf(served.snapshot).record('IL')!
    const estimated = new Set(record.rate_varies.filter((r) => r.kind === 'estimated').map((r) => r.code))
    const zip = [...served.snapshot.rates.entriesOfState('IL')]
      .map((i) => served.snapshot.rates.entryAt(i))
      .find((e) => e.candidates.length === 1 && served.snapshot.rates.authoritiesOn(e.candidates[0]!.stack, '2026-11-21').some((a) => estimated.has(a.code)))!.zip
    const { rate, meta } = await answer(`/v1/tax/il?zip=${zip}`)
    expect(rate.combined_rate).toBe(defaultRate(zip, 'IL', new Date().toISOString().slice(0, 10)))
    expect(meta.confidence).toBe('low')
    const warning = warningOf(meta.warnings, 'rate_varies_by_address')!
    expect(warning).toMatchObject({ exact_source: 'ordmacha-current.txt' })
    expect(warning.message).toMatch(/the rate varies by address\. Answered: .* The exact rate is in ordmacha-current\.txt\./)
  })

  it('a date before every record is known is answered from the drop edition held for it, labelled', async () => {
    const coverageFrom = factsOf(served.snapshot).record('IL')!.coverage_from!
    expect(coverageFrom).toBe('2025-07-01')
    const rows = await avalaraRows('IL', '201911')
    const before = await answer('/v1/tax/il?zip=60601&as_of=2025-06-01')
    expect(before.rate.combined_rate).toBe(formatRate(dropCombined(rows.get('60601')!)))
    expect(before.meta.feed).toBe('avalara-zip5')
    expect(warningOf(before.meta.warnings, 'earlier_edition')).toMatchObject({ edition: '201911', feed: 'avalara-zip5', valid_from: '2019-11-01', valid_to: '2025-11-30' })
    expect(warningOf(before.meta.warnings, 'aggregator_estimate')!.message).toMatch('201911')
    const after = await answer('/v1/tax/il?zip=60601&as_of=2025-08-01')
    expect(after.meta.feed).toBe('idor-ordmache')
    expect(warningOf(after.meta.warnings, 'earlier_edition')).toBeUndefined()
  })
})

describe('Illinois ZIPs whose official answer is only a lower bound', () => {
  // The ordmache file read independently of the parser: a record's code, flag and current rate.
  const ORDMACHE = readFileSync(sharedPath('mirror/idor', 'ordmache-current.txt'), 'latin1').split('\n')
  const countyRecordRate = (countyNumber: string) => Number(ORDMACHE.find((l) => l.startsWith(`${countyNumber}-5000`))!.slice(69, 74))
  const candidatesOf = (zip: string) => served.snapshot.rates.lookupZip(zip).find((e) => e.state === 'IL')!.candidates

  async function expectAggregatorDefault(zip: string, countyNumber: string) {
    const rows = await avalaraRows('IL', '202512')
    const body = (await answer(`/v1/tax/il?zip=${zip}&mode=full`)) as FullLookupBody
    expect(body.rate.combined_rate).toBe(formatRate(dropCombined(rows.get(zip)!)))
    expect(body.meta).toMatchObject({ feed: 'idor-ordmache', confidence: 'low' })
    const warning = warningOf(body.meta.warnings, 'rate_varies_by_address')!
    expect(warning).toMatchObject({ exact_source: 'ordmacha-current.txt' })
    expect(warning.message).toMatch(/the rate varies by address\. Answered: the default is the aggregator's figure, Avalara edition 202512's combined rate .* The exact rate is in ordmacha-current\.txt\./)
    expect(body.rows.find((r) => r.level === 'district')).toMatchObject({ source_file: 'TAXRATES_ZIP5_IL202512.csv', source_kind: 'aggregator' })
    expect(body.rows.find((r) => r.level === 'state')).toMatchObject({ source_file: 'ordmache-current.txt', source_kind: 'official' })
    const { candidates } = body.ambiguous_zip5
    const aggregator = candidates.find((c) => c.basis === 'aggregator_figure')!
    const official = candidates.find((c) => c.basis === 'lower_bound')!
    expect(aggregator.selected).toBe(true)
    expect(official.weight).toBeLessThan(aggregator.weight)
    expect(official.combined_rate).toBe(formatRate(countyRecordRate(countyNumber)))
    expect(Number(official.combined_rate)).toBeLessThan(Number(aggregator.combined_rate))
  }

  it('Springfield 62701 (a Y record, no unflagged record elsewhere) answers the drop\'s combined rate; the Sangamon county record stays a full-mode candidate', async () => {
    const springfield = ORDMACHE.find((l) => l.slice(10, 35).trim() === 'SPRINGFIELD' && l.slice(35, 60).trim() === 'SANGAMON')!
    expect(springfield[60]).toBe('Y')
    await expectAggregatorDefault('62701', springfield.slice(0, 3))
  })

  it('another such city, found from the data, answers the same way', async () => {
    const entry = [...served.snapshot.rates.entriesOfState('IL')]
      .map((i) => served.snapshot.rates.entryAt(i))
      .find((e) => e.candidates.some((c) => c.basis === 'lower_bound') && e.candidates[0]!.place && e.candidates[0]!.place.name !== 'Springfield')!
    const county = entry.candidates[0]!.county!.fips
    // the n-th county (alphabetical) is FIPS 17(2n − 1)
    await expectAggregatorDefault(entry.zip, String((Number(county.slice(2)) + 1) / 2).padStart(3, '0'))
  })

  it('a Y record with a derived increment keeps its official answer, and Chicago 60601 has no aggregator candidate', async () => {
    const record = factsOf(served.snapshot).record('IL')!
    const derived = new Set(record.rate_varies.filter((r) => r.kind === 'estimated' && r.basis.includes("plus the city's increment")).map((r) => r.code))
    expect(derived.size).toBeGreaterThan(0)
    const entry = [...served.snapshot.rates.entriesOfState('IL')]
      .map((i) => served.snapshot.rates.entryAt(i))
      .find((e) => served.snapshot.rates.authoritiesOn(e.candidates[0]!.stack, '2026-11-21').some((a) => derived.has(a.code)))!
    expect(entry.candidates.every((c) => c.basis !== 'aggregator_figure' && c.basis !== 'lower_bound')).toBe(true)
    const body = (await answer(`/v1/tax/il?zip=${entry.zip}&mode=full`)) as FullLookupBody
    expect(body.rows.every((r) => r.source_kind === 'official')).toBe(true)
    expect(warningOf(body.meta.warnings, 'rate_varies_by_address')!.message).toMatch(/plus the city's increment/)
    expect(candidatesOf('60601').map((c) => c.basis)).toEqual(['published'])
  })
})

describe('answers name the feed in service and why', () => {
  it('an SST member with no SST file named is answered from the drop with feed_fallback', async () => {
    const { meta } = await answer('/v1/tax/ia?zip=50309')
    expect(meta.feed).toBe('avalara-zip5')
    expect(warningOf(meta.warnings, 'feed_fallback')).toMatchObject({ feed: 'avalara-zip5', reason: `sst has no file: index page ${inject('mirrorUrl')}/sst/ lists no rate file for IA (3 SST files of other states)` })
    expect(warningOf((await answer('/v1/tax/ga?zip=30303')).meta.warnings, 'feed_fallback')).toBeUndefined()
  })

  it('the freshness endpoint carries the feed and the reason', async () => {
    const response = await fetch(`${served.lookup.server.url}/v1/freshness`)
    const envelope = FreshnessEnvelope.parse(await response.json())
    expect(envelope.states.find((s) => s.code === 'ia')).toMatchObject({ status: 'stale', feed: 'avalara-zip5', fallback_reason: expect.stringMatching(/^sst has no file/) })
    expect(envelope.states.find((s) => s.code === 'il')).toMatchObject({ klass: 'auto', feed: 'idor-ordmache', fallback_reason: null })
  })
})

describe('history from every drop edition held', () => {
  const rowOf = async (edition: string, zip: string) => formatRate(dropCombined((await avalaraRows('IA', edition)).get(zip)!))
  const zipChanging = async () => {
    const [a, b] = [await avalaraRows('IA', '201804'), await avalaraRows('IA', '201911')]
    return [...a.keys()].find((zip) => b.has(zip) && dropCombined(a.get(zip)!) !== dropCombined(b.get(zip)!) && served.snapshot.rates.lookupZip(zip).length > 0)!
  }

  it('each edition answers its window: 201804 until 2019-10-31, 201911 from 2019-11-01, each labelled', async () => {
    const zip = await zipChanging()
    const old = await answer(`/v1/tax/ia?zip=${zip}&as_of=2019-10-31`)
    expect(old.rate.combined_rate).toBe(await rowOf('201804', zip))
    expect(warningOf(old.meta.warnings, 'earlier_edition')).toMatchObject({ edition: '201804', valid_from: '2018-04-01', valid_to: '2019-10-31' })
    const later = await answer(`/v1/tax/ia?zip=${zip}&as_of=2019-11-01`)
    expect(later.rate.combined_rate).toBe(await rowOf('201911', zip))
    expect(warningOf(later.meta.warnings, 'earlier_edition')).toMatchObject({ edition: '201911', valid_from: '2019-11-01', valid_to: '2025-11-30' })
    expect((await answer(`/v1/tax/ia?zip=${zip}`)).rate.combined_rate).toBe(await rowOf('202512', zip))
  })

  it('a state the 2019 edition lacks is answered from 2018 until its next edition', async () => {
    // 201911 holds HI–WY only: Alabama's 201804 edition stands until 202512
    const rows = await avalaraRows('AL', '201804')
    const zip = [...rows.keys()].find((z) => served.snapshot.rates.lookupZip(z).some((e) => e.state === 'AL'))!
    const { rate, meta } = await answer(`/v1/tax/al?zip=${zip}&as_of=2022-01-01`)
    expect(rate.combined_rate).toBe(formatRate(dropCombined(rows.get(zip)!)))
    expect(warningOf(meta.warnings, 'earlier_edition')).toMatchObject({ edition: '201804', valid_to: '2025-11-30' })
  })

  it('a date before the oldest edition is 400 naming where the data starts', async () => {
    const response = await served.lookup.get('/v1/tax/ia?zip=50309&as_of=2018-03-31')
    expect(response.status).toBe(400)
    expect(ErrorBody.parse(response.body).error).toMatchObject({ code: 'INVALID_INPUT', available_from: '2018-04-01' })
  })
})
