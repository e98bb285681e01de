// The normalization table of spec 4.7 row by row through GET /v1/tax/{state}: permissive mode
// repairs, serves the same rates as the clean input and discloses each repair (meta.normalization,
// meta.warnings); strict mode refuses the same input with 400 INVALID_INPUT and error.correction.
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest'
import { NORMALIZATION_RULES } from '../server/lookup/address/index.ts'
import { FullLookupBody, SimpleLookupBody } from '../server/lookup/tax-response.ts'
import { startLookupServer, type LookupServer } from './support/lookup-server.ts'
import { lookupArtifacts } from './support/lookup-snapshots.ts'

let lookup: LookupServer
let clean: SimpleLookupBody

beforeAll(async () => {
  lookup = await startLookupServer(await lookupArtifacts(inject('mirrorUrl')))
  const response = await lookup.get('/v1/tax/wa?zip=98101')
  expect(response.status).toBe(200)
  clean = SimpleLookupBody.parse(response.body)
})
afterAll(async () => {
  await lookup?.close()
})

const url = (state: string, query: Record<string, string>) => `/v1/tax/${encodeURIComponent(state)}?${new URLSearchParams(query)}`

type Row = { rule_id: string; state: string; query: Record<string, string>; field: string }

/** One input per rule of the table, each repairable to ZIP 98101 in WA (downtown Seattle). */
const ROWS: Row[] = [
  { rule_id: 'whitespace_collapsed', state: 'wa', query: { address: '1301 2nd Ave  Seattle, WA 98101' }, field: 'address' },
  { rule_id: 'zip4_suffix_repaired', state: 'wa', query: { zip: '98101-1234-1234' }, field: 'zip' },
  { rule_id: 'country_token_removed', state: 'wa', query: { zip: '98101 USA' }, field: 'zip' },
  { rule_id: 'state_name_to_code', state: 'wa', query: { address: '1301 2nd Ave, Seattle, Washington 98101' }, field: 'address' },
  { rule_id: 'street_fragment_deduplicated', state: 'wa', query: { address: '1301 2nd Ave 1301 2nd Ave, Seattle, WA 98101' }, field: 'address' },
  { rule_id: 'state_derived_from_zip', state: 'ca', query: { zip: '98101' }, field: 'state' },
]

describe('the normalization table, row by row', () => {
  it('has a row here for every rule of the table', () => {
    expect(ROWS.map((r) => r.rule_id)).toEqual(NORMALIZATION_RULES.map((r) => r.rule_id))
  })

  for (const row of ROWS) {
    it(`${row.rule_id}: permissive repairs, discloses and serves the clean answer`, async () => {
      const response = await lookup.get(url(row.state, row.query))
      expect(response.status, JSON.stringify(response.body)).toBe(200)
      const { rate, meta } = SimpleLookupBody.parse(response.body)
      expect(rate).toEqual(clean.rate)
      const applied = meta.normalization!.applied
      expect(meta.normalization!.normalized).toBe(true)
      const entry = applied.find((e) => e.rule_id === row.rule_id)!
      expect(entry).toMatchObject({ field: row.field })
      expect(entry.raw).not.toBe(entry.normalized)
      // one human-readable line per repair in meta.warnings, before the lookup's own warnings
      const strings = meta.warnings.filter((w) => typeof w === 'string')
      expect(strings).toHaveLength(applied.length)
      expect(meta.warnings.slice(0, applied.length)).toEqual(strings)
    })

    it(`${row.rule_id}: strict refuses with 400 INVALID_INPUT and a correction`, async () => {
      const response = await lookup.get(url(row.state, { ...row.query, strict: 'on' }))
      expect(response.status).toBe(400)
      const { error } = response.body
      expect(error.code).toBe('INVALID_INPUT')
      expect(error.correction).toMatchObject({ rule_id: row.rule_id, field: row.field })
      expect(Object.keys(error.correction).sort()).toEqual(['detail', 'field', 'hint', 'raw', 'rule_id', 'suggested', 'suggested_address'])
      expect(error.correction.suggested).not.toBe(error.correction.raw)
    })
  }

  it('state_derived_from_zip: the entry carries the submitted and derived state and the ZIP; strict names both', async () => {
    const { meta } = SimpleLookupBody.parse((await lookup.get(url('ca', { zip: '98101' }))).body)
    expect(meta.normalization!.applied).toEqual([
      { rule_id: 'state_derived_from_zip', field: 'state', raw: 'ca', normalized: 'WA', confidence: 'heuristic', detail: { submitted_state: 'CA', derived_state: 'WA', zip: '98101' } },
    ])
    expect(meta.warnings[0]).toMatch(/CA.*98101.*WA/)
    const { error } = (await lookup.get(url('ca', { zip: '98101', strict: 'true' }))).body
    expect(error.message).toMatch(/state field/)
    expect(error.message).toMatch(/ZIP 98101/)
    expect(error.correction.detail).toEqual({ submitted_state: 'CA', derived_state: 'WA', zip: '98101' })
  })

  it('placeholder path states (N, -, false) take the ZIP\'s state', async () => {
    for (const placeholder of ['N', '-', 'false', 'M']) {
      const response = await lookup.get(url(placeholder, { zip: '98101' }))
      expect(response.status, placeholder).toBe(200)
      const { rate, meta } = SimpleLookupBody.parse(response.body)
      expect(rate.state).toBe('WA')
      expect(meta.normalization!.applied.map((e) => e.rule_id)).toEqual(['state_derived_from_zip'])
    }
  })

  it('the geography §8.2 example: every repair in table order, and strict refuses its first', async () => {
    const query = { address: '123 main st  seattle wa 98101-1234-1234 USA' }
    const { rate, meta } = SimpleLookupBody.parse((await lookup.get(url('ca', query))).body)
    expect(rate.zip).toBe('98101')
    expect(rate.state).toBe('WA')
    expect(meta.normalization!.applied.map((e) => e.rule_id)).toEqual(['whitespace_collapsed', 'zip4_suffix_repaired', 'country_token_removed', 'state_derived_from_zip'])
    const { error } = (await lookup.get(url('ca', { ...query, strict: '1' }))).body
    expect(error.correction.rule_id).toBe('whitespace_collapsed')
    expect(error.correction.suggested_address).toBe('123 MAIN ST, SEATTLE, WA 98101-1234')
  })

  it('full mode puts the normalization block at the top level', async () => {
    const body = FullLookupBody.parse((await lookup.get(url('ca', { zip: '98101', mode: 'full' }))).body)
    expect(body.normalization!.applied[0]!.rule_id).toBe('state_derived_from_zip')
    expect(body.meta).not.toHaveProperty('normalization')
    expect(body.warnings[0]).toMatch(/98101/)
  })

  it('clean input has no normalization block, in either mode', async () => {
    expect(clean.meta.normalization).toBeUndefined()
    expect(FullLookupBody.parse((await lookup.get(url('wa', { zip: '98101', mode: 'full' }))).body).normalization).toBeUndefined()
  })

  it('place mode: a state name in the path or the location is state_name_to_code; strict refuses it', async () => {
    const path = SimpleLookupBody.parse((await lookup.get(url('illinois', { location: 'Springfield' }))).body)
    expect(path.rate.city).toBe('SPRINGFIELD')
    expect(path.meta.normalization!.applied).toMatchObject([{ rule_id: 'state_name_to_code', field: 'state', raw: 'illinois', normalized: 'IL' }])
    const location = SimpleLookupBody.parse((await lookup.get(url('il', { location: 'Springfield, Illinois' }))).body)
    expect(location.meta.normalization!.applied).toMatchObject([{ rule_id: 'state_name_to_code', field: 'location', normalized: 'Springfield, IL' }])
    const { error } = (await lookup.get(url('il', { location: 'Springfield, Illinois', strict: 'on' }))).body
    expect(error.correction).toMatchObject({ rule_id: 'state_name_to_code', field: 'location', suggested: 'Springfield, IL' })
  })

  it('coordinates mode accepts strict and ignores it', async () => {
    const response = await lookup.get(url('washington', { lat: '47.6062', lng: '-122.3321', strict: 'on' }))
    expect(response.status).toBe(200)
    expect(SimpleLookupBody.parse(response.body).rate.city).toBe('SEATTLE')
  })

  it('input that cannot be repaired is a 400 naming the field', async () => {
    const response = await lookup.get(url('wa', { zip: '98101-12' }))
    expect(response.status).toBe(400)
    expect(response.body.error).toMatchObject({ code: 'INVALID_INPUT', field: 'zip' })
  })
})
