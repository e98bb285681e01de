// normalizeAddressInput and strictCorrection against real ZIP facts from the HUD ZIP→county crosswalk.
import { readFileSync } from 'node:fs'
import Papa from 'papaparse'
import { beforeAll, describe, expect, it } from 'vitest'
import {
  NORMALIZATION_RULES,
  STATE_NAMES,
  normalizeAddressInput,
  strictCorrection,
  type AddressInput,
  type NormalizationEntry,
  type NormalizedInput,
  type ZipFacts,
} from '../server/lookup/address/index.ts'
import { STATES } from '../sources/index.ts'
import { sharedPath } from './support/shared.ts'

/** ZIP → USPS state; a ZIP straddles when its counties lie in another state than USPS says, or in several. */
function loadHudZipFacts(): ZipFacts {
  const csv = readFileSync(sharedPath('geo', 'hud', 'ZIP_COUNTY_032023.csv'), 'utf8')
  const { data } = Papa.parse<Record<string, string>>(csv, { header: true, skipEmptyLines: true })
  const codeByFips = new Map(STATES.map((s) => [s.fips, s.code]))
  const byZip = new Map<string, { usps: string; states: Set<string> }>()
  for (const row of data) {
    const entry = byZip.get(row.ZIP!) ?? { usps: row.USPS_ZIP_PREF_STATE!, states: new Set([row.USPS_ZIP_PREF_STATE!]) }
    const countyState = codeByFips.get(row.COUNTY!.slice(0, 2)) // 99999 (unassigned) and territories map to nothing
    if (countyState) entry.states.add(countyState)
    byZip.set(row.ZIP!, entry)
  }
  return (zip5) => {
    const entry = byZip.get(zip5)
    if (!entry) return null
    const states = [...entry.states].sort()
    return { state: entry.usps, straddles: states.length > 1, states }
  }
}

let zipFacts: ZipFacts
beforeAll(() => {
  zipFacts = loadHudZipFacts()
})

function normalized(input: AddressInput): NormalizedInput {
  const result = normalizeAddressInput(input, zipFacts)
  if (!result.ok) throw new Error(`expected ok, got ${result.field}: ${result.reason}`)
  return result.value
}

const ruleIds = (value: NormalizedInput) => value.applied.map((e) => e.rule_id)
const parsed = ({ street, city, state, zip5, zip4 }: NormalizedInput) => ({ street, city, state, zip5, zip4 })

/** Each field's entries chain: an entry's raw is the previous entry's normalized value for that field. */
function expectChained(applied: readonly NormalizationEntry[]) {
  const last = new Map<string, string>()
  for (const entry of applied) {
    if (last.has(entry.field)) expect(entry.raw).toBe(last.get(entry.field))
    last.set(entry.field, entry.normalized)
  }
}

describe('HUD ZIP facts used by these tests', () => {
  it('read single-state and straddling ZIPs', () => {
    expect(zipFacts('98101')).toEqual({ state: 'WA', straddles: false, states: ['WA'] })
    expect(zipFacts('97204')).toEqual({ state: 'OR', straddles: false, states: ['OR'] })
    expect(zipFacts('42223')).toEqual({ state: 'KY', straddles: true, states: ['KY', 'TN'] })
    expect(zipFacts('20301')).toEqual({ state: 'DC', straddles: true, states: ['DC', 'VA'] })
    expect(zipFacts('00000')).toBeNull()
  })
})

describe('every state and territory, with a real single-state ZIP of its own', () => {
  let firstZipByState: Map<string, string>
  beforeAll(() => {
    firstZipByState = new Map()
    for (let n = 0; n < 100_000; n++) {
      const zip = String(n).padStart(5, '0')
      const facts = zipFacts(zip)
      if (facts && !facts.straddles && !firstZipByState.has(facts.state)) firstZipByState.set(facts.state, zip)
    }
  })
  const singleStateZip = (code: string): string => firstZipByState.get(code) ?? expect.fail(`no single-state ZIP for ${code}`)

  it.each(STATE_NAMES.map((s) => [s.code, s.name] as const))('%s (%s): code and name parse, city and ZIP kept', (code, name) => {
    const zip = singleStateZip(code)
    expect(normalized({ pathState: code.toLowerCase(), address: `1 Main St, Springfield, ${code} ${zip}` })).toEqual({
      street: '1 MAIN ST', city: 'SPRINGFIELD', state: code, zip5: zip, zip4: null, applied: [], warnings: [],
    })
    expect(normalized({ pathState: code, address: `1 Main St Springfield ${code} ${zip}` })).toMatchObject({ city: 'SPRINGFIELD', zip5: zip, applied: [] })
    const byName = normalized({ pathState: code, address: `1 Main St Springfield ${name} ${zip}-1234` })
    expect(byName).toMatchObject({ street: '1 MAIN ST', city: 'SPRINGFIELD', state: code, zip5: zip, zip4: '1234' })
    expect(ruleIds(byName)).toEqual(['state_name_to_code'])
    const derived = normalized({ pathState: 'N', address: `1 Main St, Springfield, ${zip}` })
    expect(derived).toMatchObject({ state: code, applied: [{ rule_id: 'state_derived_from_zip', detail: { derived_state: code, zip } }] })
  })
})

describe('the documented table', () => {
  it('has six rules with stable ids, in the order they are applied', () => {
    expect(NORMALIZATION_RULES.map((r) => r.rule_id)).toEqual([
      'whitespace_collapsed',
      'zip4_suffix_repaired',
      'country_token_removed',
      'state_name_to_code',
      'street_fragment_deduplicated',
      'state_derived_from_zip',
    ])
    expect(NORMALIZATION_RULES.find((r) => r.rule_id === 'state_derived_from_zip')!.confidence).toBe('heuristic')
    for (const rule of NORMALIZATION_RULES) {
      expect(rule.detected.length).toBeGreaterThan(0)
      expect(rule.served_as.length).toBeGreaterThan(0)
    }
  })
})

describe('redundant whitespace (whitespace_collapsed)', () => {
  it('collapses double spaces, tabs and spaces before commas, and says so', () => {
    const value = normalized({ pathState: 'wa', address: ' 123 Main St ,  Seattle,\tWA 98101' })
    expect(value.applied).toEqual([
      {
        rule_id: 'whitespace_collapsed',
        field: 'address',
        raw: ' 123 Main St ,  Seattle,\tWA 98101',
        normalized: '123 Main St, Seattle, WA 98101',
        confidence: 'unambiguous',
        detail: { kinds: ['repeated_space', 'tab_or_other_whitespace', 'space_before_comma', 'leading_or_trailing'] },
      },
    ])
    expect(value.warnings).toEqual(['Collapsed redundant whitespace in the address.'])
    expect(parsed(value)).toEqual({ street: '123 MAIN ST', city: 'SEATTLE', state: 'WA', zip5: '98101', zip4: null })
  })

  it('applies to the city and zip parameters too', () => {
    const value = normalized({ pathState: 'wa', address: '123 Main St', city: 'Seattle  ', zip: ' 98101' })
    expect(value.applied.map((e) => [e.rule_id, e.field, e.normalized])).toEqual([
      ['whitespace_collapsed', 'city', 'Seattle'],
      ['whitespace_collapsed', 'zip', '98101'],
    ])
    expect(value.city).toBe('SEATTLE')
  })
})

describe('ZIP+4 suffix (zip4_suffix_repaired)', () => {
  it('repeated identically: unambiguous, the one +4 kept', () => {
    const value = normalized({ pathState: 'wa', address: '123 Main St, Seattle, WA 98101-1234-1234' })
    expect(value.applied).toEqual([
      {
        rule_id: 'zip4_suffix_repaired',
        field: 'address',
        raw: '123 Main St, Seattle, WA 98101-1234-1234',
        normalized: '123 Main St, Seattle, WA 98101-1234',
        confidence: 'unambiguous',
        detail: { zip5: '98101', kept_plus4: '1234', dropped_plus4: ['1234'], repeated_identically: true },
      },
    ])
    expect(value.warnings).toEqual(['ZIP "98101-1234-1234" in the address repeats its +4 suffix; served 98101-1234.'])
    expect([value.zip5, value.zip4]).toEqual(['98101', '1234'])
  })

  it('mismatched: heuristic, the first +4 kept', () => {
    const value = normalized({ pathState: 'wa', address: '123 Main St, Seattle, WA 98101-1234-5678' })
    expect(value.applied[0]).toMatchObject({ rule_id: 'zip4_suffix_repaired', confidence: 'heuristic', detail: { kept_plus4: '1234', dropped_plus4: ['5678'] } })
    expect(value.zip4).toBe('1234')
    expect(value.warnings[0]).toBe('ZIP "98101-1234-5678" in the address has more than one +4 suffix; kept the first and served 98101-1234.')
  })

  it('tripled: one +4', () => {
    const value = normalized({ pathState: 'wa', address: '123 Main St, Seattle, WA 98101-1234-1234-1234' })
    expect(value.applied[0]).toMatchObject({ confidence: 'unambiguous', normalized: '123 Main St, Seattle, WA 98101-1234', detail: { dropped_plus4: ['1234', '1234'] } })
  })

  it('in the zip parameter', () => {
    const value = normalized({ pathState: 'wa', zip: '98101-1234-1234' })
    expect(value.applied).toMatchObject([{ rule_id: 'zip4_suffix_repaired', field: 'zip', raw: '98101-1234-1234', normalized: '98101-1234' }])
    expect(parsed(value)).toEqual({ street: null, city: null, state: 'WA', zip5: '98101', zip4: '1234' })
  })

  it('a +4 that cannot be repaired is a zip error, never truncated', () => {
    for (const address of ['123 Main St, Seattle, WA 98101-12', '123 Main St, Seattle, WA 98101-1234-12', 'Seattle WA 98101-']) {
      const result = normalizeAddressInput({ pathState: 'wa', address }, zipFacts)
      expect(result).toMatchObject({ ok: false, field: 'zip' })
    }
    expect(normalizeAddressInput({ pathState: 'wa', zip: '98101-12' }, zipFacts)).toMatchObject({ ok: false, field: 'zip', reason: expect.stringContaining('98101-12') })
  })
})

describe('trailing country (country_token_removed)', () => {
  it.each(['USA', 'US', 'U.S.A.', 'United States', 'United States of America', 'u.s.'])('removes %s after the ZIP', (country) => {
    const value = normalized({ pathState: 'wa', address: `123 Main St, Seattle, WA 98101 ${country}` })
    expect(value.applied).toEqual([
      {
        rule_id: 'country_token_removed',
        field: 'address',
        raw: `123 Main St, Seattle, WA 98101 ${country}`,
        normalized: '123 Main St, Seattle, WA 98101',
        confidence: 'unambiguous',
        detail: { token: country },
      },
    ])
    expect(value.warnings).toEqual([`Removed the country "${country}" from the end of the address.`])
  })

  it('removes it after a comma, after a state without ZIP, and in the zip parameter', () => {
    expect(normalized({ pathState: 'wa', address: 'Seattle, WA 98101, USA' }).applied[0]!.normalized).toBe('Seattle, WA 98101')
    const noZip = normalized({ pathState: 'il', address: 'Springfield, IL, USA' })
    expect(noZip.applied[0]!.normalized).toBe('Springfield, IL')
    expect(parsed(noZip)).toMatchObject({ city: 'SPRINGFIELD', state: 'IL' })
    expect(normalized({ pathState: 'wa', zip: '98101 USA' }).applied).toMatchObject([{ rule_id: 'country_token_removed', field: 'zip', normalized: '98101' }])
  })
})

describe('state name or alias (state_name_to_code)', () => {
  it.each([
    ['il', 'Springfield, Illinois 62701', 'Illinois', 'IL'],
    ['ca', 'Los Angeles, Calif. 90001', 'Calif.', 'CA'],
    ['dc', '1600 Pennsylvania Ave NW, Washington, Wash DC 20500', 'Wash DC', 'DC'],
    ['nc', '1 Main St, Raleigh, N. Carolina 27601', 'N. Carolina', 'NC'],
    ['ma', '1 Beacon St, Boston, Mass 02108', 'Mass', 'MA'],
    ['pa', '1 Market St, Philadelphia, Penn 19103', 'Penn', 'PA'],
    ['dc', '1 Main St, Washington, District of Columbia 20001', 'District of Columbia', 'DC'],
  ])('%s: "%s" reads %s as %s', (pathState, address, written, code) => {
    const value = normalized({ pathState, address })
    expect(value.applied).toEqual([
      {
        rule_id: 'state_name_to_code',
        field: 'address',
        raw: address,
        normalized: address.replace(written, code),
        confidence: 'unambiguous',
        detail: { written, code },
      },
    ])
    expect(value.warnings).toEqual([`State "${written}" in the address served as ${code}.`])
    expect(value.state).toBe(code)
  })

  it('applies to a state name in the path', () => {
    const value = normalized({ pathState: 'illinois', address: 'Springfield, IL 62701' })
    expect(value.applied).toEqual([
      { rule_id: 'state_name_to_code', field: 'state', raw: 'illinois', normalized: 'IL', confidence: 'unambiguous', detail: { written: 'illinois', code: 'IL' } },
    ])
    expect(value.state).toBe('IL')
  })
})

describe('duplicated street fragment (street_fragment_deduplicated)', () => {
  it('keeps one copy of a whole repeated street', () => {
    const value = normalized({ pathState: 'wa', address: '123 Main St 123 Main St, Seattle, WA 98101' })
    expect(value.applied).toEqual([
      {
        rule_id: 'street_fragment_deduplicated',
        field: 'address',
        raw: '123 Main St 123 Main St, Seattle, WA 98101',
        normalized: '123 Main St, Seattle, WA 98101',
        confidence: 'heuristic',
        detail: { fragments: ['123 Main St'], copies_removed: 1 },
      },
    ])
    expect(value.warnings).toEqual(['Street fragment "123 Main St" was repeated in the address; served one copy.'])
    expect(parsed(value)).toEqual({ street: '123 MAIN ST', city: 'SEATTLE', state: 'WA', zip5: '98101', zip4: null })
  })

  it('keeps one copy of a repeated street name, of comma-separated copies, and of three copies', () => {
    expect(normalized({ pathState: 'wa', address: '123 Main St Main St Seattle WA 98101' })).toMatchObject({
      street: '123 MAIN ST',
      city: 'SEATTLE',
      applied: [{ normalized: '123 Main St Seattle WA 98101', detail: { fragments: ['Main St'] } }],
    })
    expect(normalized({ pathState: 'wa', address: '123 Main St, 123 Main St., Seattle, WA' }).applied[0]!.normalized).toBe('123 Main St, Seattle, WA')
    expect(normalized({ pathState: 'wa', address: '123 Main St 123 Main St 123 Main St, Seattle' })).toMatchObject({
      street: '123 MAIN ST',
      applied: [{ normalized: '123 Main St, Seattle', detail: { copies_removed: 2 } }],
    })
  })

  it('leaves doubled place names alone', () => {
    expect(normalized({ pathState: 'wa', address: '123 Main St, Walla Walla, WA 99362' })).toMatchObject({ city: 'WALLA WALLA', applied: [] })
  })
})

describe('state unusable or wrong for the ZIP (state_derived_from_zip)', () => {
  it('wrong path state: the ZIP state is served and the warning names submitted state, ZIP and served state', () => {
    const value = normalized({ pathState: 'wa', address: '1120 SW 5th Ave, Portland, OR 97204' })
    expect(value.state).toBe('OR')
    expect(value.applied).toEqual([
      {
        rule_id: 'state_derived_from_zip',
        field: 'state',
        raw: 'wa',
        normalized: 'OR',
        confidence: 'heuristic',
        detail: { submitted_state: 'WA', derived_state: 'OR', zip: '97204' },
      },
    ])
    expect(value.warnings).toEqual([`State "WA" does not match ZIP 97204 (OR); served OR, the ZIP's state.`])
  })

  it('wrong state in the address string', () => {
    const value = normalized({ pathState: 'or', address: '1120 SW 5th Ave, Portland, WA 97204' })
    expect(value.state).toBe('OR')
    expect(value.applied).toEqual([
      {
        rule_id: 'state_derived_from_zip',
        field: 'address',
        raw: '1120 SW 5th Ave, Portland, WA 97204',
        normalized: '1120 SW 5th Ave, Portland, OR 97204',
        confidence: 'heuristic',
        detail: { submitted_state: 'WA', derived_state: 'OR', zip: '97204' },
      },
    ])
    expect(value.warnings).toEqual([`State "WA" in the address does not match ZIP 97204 (OR); served OR, the ZIP's state.`])
  })

  it('wrong in both: one entry per field', () => {
    const value = normalized({ pathState: 'wa', address: 'Portland, WA 97204' })
    expect(value.applied.map((e) => [e.rule_id, e.field])).toEqual([
      ['state_derived_from_zip', 'state'],
      ['state_derived_from_zip', 'address'],
    ])
    expect(value.state).toBe('OR')
  })

  it.each(['N', 'false', '-', 'M', 'null', 'none', 'XX', '', 'zz'])('path placeholder "%s" takes the ZIP state', (pathState) => {
    const value = normalized({ pathState, zip: '97204' })
    expect(value.state).toBe('OR')
    expect(value.applied).toEqual([
      {
        rule_id: 'state_derived_from_zip',
        field: 'state',
        raw: pathState,
        normalized: 'OR',
        confidence: 'heuristic',
        detail: { submitted_state: pathState, derived_state: 'OR', zip: '97204' },
      },
    ])
    expect(value.warnings[0]).toContain('97204')
    expect(value.warnings[0]).toContain('served OR')
  })

  it('a placeholder in the state position of the address takes the ZIP state', () => {
    for (const placeholder of ['N', 'false', '-', 'M']) {
      const value = normalized({ pathState: 'or', address: `1120 SW 5th Ave, Portland, ${placeholder} 97204` })
      expect(value.applied).toMatchObject([
        { rule_id: 'state_derived_from_zip', field: 'address', normalized: '1120 SW 5th Ave, Portland, OR 97204', detail: { submitted_state: placeholder } },
      ])
      expect(value.city).toBe('PORTLAND')
    }
  })

  it('a ZIP straddling a state line is left as-is', () => {
    for (const pathState of ['ky', 'tn']) {
      const value = normalized({ pathState, address: '1 Main St, Fort Campbell, KY 42223' })
      expect(value).toMatchObject({ state: pathState.toUpperCase(), zip5: '42223', applied: [] })
    }
    expect(normalized({ pathState: 'va', zip: '20301' })).toMatchObject({ state: 'VA', applied: [] })
    expect(normalizeAddressInput({ pathState: 'wa', zip: '42223' }, zipFacts)).toMatchObject({ ok: false, field: 'state', reason: expect.stringContaining('42223') })
    expect(normalizeAddressInput({ pathState: 'N', zip: '42223' }, zipFacts)).toMatchObject({ ok: false, field: 'state', reason: expect.stringContaining('straddles') })
  })

  it('no derivation without a known ZIP', () => {
    expect(normalizeAddressInput({ pathState: 'N', address: 'Springfield, IL' }, zipFacts)).toMatchObject({ ok: false, field: 'state' })
    expect(normalizeAddressInput({ pathState: 'N', zip: '00000' }, zipFacts)).toMatchObject({ ok: false, field: 'state', reason: expect.stringContaining('00000') })
    expect(normalizeAddressInput({ pathState: 'wa', address: 'Portland, OR' }, zipFacts)).toMatchObject({ ok: false, field: 'state' })
  })
})

describe('repairs combined', () => {
  it('the geography §8.2 example: whitespace, ZIP+4 and country, in table order', () => {
    const address = '123 main st  seattle wa 98101-1234-1234 USA'
    const value = normalized({ pathState: 'wa', address })
    expect(parsed(value)).toEqual({ street: '123 MAIN ST', city: 'SEATTLE', state: 'WA', zip5: '98101', zip4: '1234' })
    expect(value.applied).toEqual([
      { rule_id: 'whitespace_collapsed', field: 'address', raw: address, normalized: '123 main st seattle wa 98101-1234-1234 USA', confidence: 'unambiguous', detail: { kinds: ['repeated_space'] } },
      {
        rule_id: 'zip4_suffix_repaired',
        field: 'address',
        raw: '123 main st seattle wa 98101-1234-1234 USA',
        normalized: '123 main st seattle wa 98101-1234 USA',
        confidence: 'unambiguous',
        detail: { zip5: '98101', kept_plus4: '1234', dropped_plus4: ['1234'], repeated_identically: true },
      },
      { rule_id: 'country_token_removed', field: 'address', raw: '123 main st seattle wa 98101-1234 USA', normalized: '123 main st seattle wa 98101-1234', confidence: 'unambiguous', detail: { token: 'USA' } },
    ])
    expect(value.warnings).toEqual([
      'Collapsed redundant whitespace in the address.',
      'ZIP "98101-1234-1234" in the address repeats its +4 suffix; served 98101-1234.',
      'Removed the country "USA" from the end of the address.',
    ])
    expect(normalized({ pathState: 'wa', address })).toEqual(value)
  })

  it('all six rules at once, in table order, each field chained', () => {
    const value = normalized({ pathState: 'or', address: '123 Main St  123 Main St, Seattle, Washington 98101-1234-5678 USA' })
    expect(ruleIds(value)).toEqual(NORMALIZATION_RULES.map((r) => r.rule_id))
    expect(value.applied.at(-1)).toMatchObject({ field: 'state', raw: 'or', normalized: 'WA' })
    expectChained(value.applied)
    expect(value.applied.filter((e) => e.field === 'address').at(-1)!.normalized).toBe('123 Main St, Seattle, WA 98101-1234')
    expect(value.warnings).toHaveLength(6)
    expect(parsed(value)).toEqual({ street: '123 MAIN ST', city: 'SEATTLE', state: 'WA', zip5: '98101', zip4: '1234' })
  })

  it('a state name that is also wrong for the ZIP: converted, then derived', () => {
    const value = normalized({ pathState: 'wa', address: '123 Main St, Seattle, Oregon 98101' })
    expect(value.applied.map((e) => [e.rule_id, e.normalized])).toEqual([
      ['state_name_to_code', '123 Main St, Seattle, OR 98101'],
      ['state_derived_from_zip', '123 Main St, Seattle, WA 98101'],
    ])
    expect(value.applied[1]!.detail).toEqual({ submitted_state: 'Oregon', derived_state: 'WA', zip: '98101' })
  })
})

describe('what is not a repair', () => {
  it('clean input gives no entries', () => {
    expect(normalized({ pathState: 'wa', address: '123 Main St, Seattle, WA 98101-1234' })).toMatchObject({ applied: [], warnings: [] })
    expect(normalized({ pathState: 'il', zip: '62701' })).toMatchObject({ applied: [], warnings: [] })
  })

  it('case-only and punctuation-only differences give no entries', () => {
    for (const [pathState, address] of [
      ['wa', '123 main st, seattle, wa 98101'],
      ['WA', '123 MAIN ST., SEATTLE, W.A. 98101'],
      ['Wa', '123 Main St.,Seattle,Wa 98101'],
      ['dc', '1 Main St, Washington, D.C. 20001'],
      ['wa', '123 Main St, Seattle, WA 981011234'],
    ] as const) {
      expect(normalized({ pathState, address }).applied).toEqual([])
    }
  })
})

describe('parsing', () => {
  it.each([
    ['il', 'PO Box 5, Springfield, Illinois 62701', { street: 'PO BOX 5', city: 'SPRINGFIELD', state: 'IL', zip5: '62701', zip4: null }],
    ['il', 'Springfield, IL', { street: null, city: 'SPRINGFIELD', state: 'IL', zip5: null, zip4: null }],
    ['il', 'Springfield IL 62701', { street: null, city: 'SPRINGFIELD', state: 'IL', zip5: '62701', zip4: null }],
    ['ca', 'Notarealtown, CA 90001', { street: null, city: 'NOTAREALTOWN', state: 'CA', zip5: '90001', zip4: null }],
    ['mn', 'Saint Paul MN', { street: null, city: 'SAINT PAUL', state: 'MN', zip5: null, zip4: null }],
    ['mn', 'St. Paul, MN 55101', { street: null, city: 'SAINT PAUL', state: 'MN', zip5: '55101', zip4: null }],
    ['wa', '123 main st seattle wa 98101', { street: '123 MAIN ST', city: 'SEATTLE', state: 'WA', zip5: '98101', zip4: null }],
    ['wa', '123 Main St Apt 4 Seattle WA 98101', { street: '123 MAIN ST APT 4', city: 'SEATTLE', state: 'WA', zip5: '98101', zip4: null }],
    ['wa', '123 Main St #4 Seattle WA', { street: '123 MAIN ST #4', city: 'SEATTLE', state: 'WA', zip5: null, zip4: null }],
    ['wa', '500 Pine Street Suite 200 Seattle WA 98101', { street: '500 PINE STREET SUITE 200', city: 'SEATTLE', state: 'WA', zip5: '98101', zip4: null }],
    ['wa', '123 Main St NE, Apt B, Seattle, WA', { street: '123 MAIN ST NE APT B', city: 'SEATTLE', state: 'WA', zip5: null, zip4: null }],
    ['wa', '123 Broadway Apt 4 Seattle WA', { street: '123 BROADWAY APT 4', city: 'SEATTLE', state: 'WA', zip5: null, zip4: null }],
    ['wa', '456 Hwy 101 Forks WA', { street: '456 HWY 101', city: 'FORKS', state: 'WA', zip5: null, zip4: null }],
    ['wa', 'P.O. Box 77 Seattle WA 98101', { street: 'PO BOX 77', city: 'SEATTLE', state: 'WA', zip5: '98101', zip4: null }],
    ['wa', 'POB 77, Seattle, WA', { street: 'PO BOX 77', city: 'SEATTLE', state: 'WA', zip5: null, zip4: null }],
    ['wa', 'Post Office Box #77 Seattle WA', { street: 'PO BOX 77', city: 'SEATTLE', state: 'WA', zip5: null, zip4: null }],
    ['mo', '123 Main St St. Louis MO', { street: '123 MAIN ST', city: 'SAINT LOUIS', state: 'MO', zip5: null, zip4: null }],
    ['ny', '350 5th Ave, New York, NY 10118', { street: '350 5TH AVE', city: 'NEW YORK', state: 'NY', zip5: '10118', zip4: null }],
    ['wa', 'One Microsoft Way Redmond WA 98052', { street: 'ONE MICROSOFT WAY', city: 'REDMOND', state: 'WA', zip5: '98052', zip4: null }],
    ['wa', '123 Main St Seattle 98101', { street: '123 MAIN ST', city: 'SEATTLE', state: 'WA', zip5: '98101', zip4: null }],
    ['wa', 'Seattle 98101, WA', { street: null, city: 'SEATTLE', state: 'WA', zip5: '98101', zip4: null }],
    ['wa', '123 Main St, Seattle, WA 98101 1234', { street: '123 MAIN ST', city: 'SEATTLE', state: 'WA', zip5: '98101', zip4: '1234' }],
    ['wa', '98101', { street: null, city: null, state: 'WA', zip5: '98101', zip4: null }],
    ['ct', '123 Oak Ct', { street: '123 OAK CT', city: null, state: 'CT', zip5: null, zip4: null }],
    ['wa', '123 Oak Ct Hartford CT', null],
    ['ne', '123 Main St NE', { street: '123 MAIN ST NE', city: null, state: 'NE', zip5: null, zip4: null }],
    ['dc', '1600 Pennsylvania Ave NW, Washington', { street: '1600 PENNSYLVANIA AVE NW', city: 'WASHINGTON', state: 'DC', zip5: null, zip4: null }],
    ['dc', '1600 Pennsylvania Ave NW, Washington 20500', { street: '1600 PENNSYLVANIA AVE NW', city: 'WASHINGTON', state: 'DC', zip5: '20500', zip4: null }],
    ['wa', 'Apt 4, 123 Main St, Seattle', { street: '123 MAIN ST APT 4', city: 'SEATTLE', state: 'WA', zip5: null, zip4: null }],
    ['wa', 'Box 12, Seattle WA', { street: 'BOX 12', city: 'SEATTLE', state: 'WA', zip5: null, zip4: null }],
    ['wa', 'RR 2 Box 7 Clinton WA', { street: 'RR 2 BOX 7', city: 'CLINTON', state: 'WA', zip5: null, zip4: null }],
    ['va', '123 Main St W VA', { street: '123 MAIN ST W', city: null, state: 'VA', zip5: null, zip4: null }],
    ['ks', '12 Kansas Ave Kansas City KS', { street: '12 KANSAS AVE', city: 'KANSAS CITY', state: 'KS', zip5: null, zip4: null }],
    ['va', '1 Virginia St Virginia Beach VA', { street: '1 VIRGINIA ST', city: 'VIRGINIA BEACH', state: 'VA', zip5: null, zip4: null }],
    ['pa', '300 Indiana Ave Indiana PA', { street: '300 INDIANA AVE', city: 'INDIANA', state: 'PA', zip5: null, zip4: null }],
    ['mi', '123 Main St Ste 5 Sault Ste Marie MI', { street: '123 MAIN ST STE 5', city: 'SAULT STE MARIE', state: 'MI', zip5: null, zip4: null }],
    ['fl', '1 Main St Fl 2 Miami FL 33101', { street: '1 MAIN ST FL 2', city: 'MIAMI', state: 'FL', zip5: '33101', zip4: null }],
    ['wi', 'N123W45678 County Rd Q, Sussex WI', { street: 'N123W45678 COUNTY RD Q', city: 'SUSSEX', state: 'WI', zip5: null, zip4: null }],
  ] as const)('%s: "%s"', (pathState, address, expected) => {
    const result = normalizeAddressInput({ pathState, address }, zipFacts)
    if (expected === null) expect(result).toMatchObject({ ok: false, field: 'state' }) // path WA, address CT, no ZIP
    else expect(result.ok && parsed(result.value)).toEqual(expected)
  })

  it('a street with no suffix or unit keeps the whole text rather than guessing a city', () => {
    expect(normalized({ pathState: 'wa', address: '123 Broadway Seattle WA' })).toMatchObject({ street: '123 BROADWAY SEATTLE', city: null })
  })

  it('the zip parameter wins, and agrees with a ZIP or ZIP+4 in the address', () => {
    expect(normalized({ pathState: 'wa', address: '123 Main St, Seattle', zip: '98101' })).toMatchObject({ zip5: '98101', zip4: null })
    expect(normalized({ pathState: 'wa', address: '123 Main St, Seattle, WA 98101-1234', zip: '98101' })).toMatchObject({ zip5: '98101', zip4: '1234' })
    expect(normalized({ pathState: 'wa', address: '123 Main St, Seattle, WA 98101', zip: '98101-5678' })).toMatchObject({ zip5: '98101', zip4: '5678' })
    expect(normalizeAddressInput({ pathState: 'wa', address: '123 Main St, Portland, OR 97204', zip: '98101' }, zipFacts)).toMatchObject({ ok: false, field: 'zip' })
    expect(normalizeAddressInput({ pathState: 'wa', address: 'Seattle, WA 98101-1234', zip: '98101-5678' }, zipFacts)).toMatchObject({ ok: false, field: 'zip' })
  })

  it('the city parameter wins over a city in the address', () => {
    expect(normalized({ pathState: 'wa', address: '123 Main St, Seattle, WA', city: 'Tukwila' }).city).toBe('TUKWILA')
  })
})

describe('strict mode correction', () => {
  it('is null when nothing was normalized', () => {
    const input = { pathState: 'wa', address: '123 Main St, Seattle, WA 98101' }
    expect(strictCorrection(normalized(input), input)).toBeNull()
  })

  it('describes a state/ZIP mismatch naming both the state field and the ZIP', () => {
    const input = { pathState: 'wa', address: '1120 SW 5th Ave, Portland, OR 97204' }
    const correction = strictCorrection(normalized(input), input)!
    expect(Object.keys(correction).sort()).toEqual(['detail', 'field', 'hint', 'raw', 'rule_id', 'suggested', 'suggested_address'])
    expect(correction).toMatchObject({
      field: 'state',
      raw: 'wa',
      suggested: 'OR',
      suggested_address: '1120 SW 5TH AVE, PORTLAND, OR 97204',
      rule_id: 'state_derived_from_zip',
      detail: { submitted_state: 'WA', derived_state: 'OR', zip: '97204' },
    })
    expect(correction.hint).toMatch(/state field/)
    expect(correction.hint).toContain('"WA"')
    expect(correction.hint).toContain('ZIP 97204')
  })

  it('describes the first repair and points at suggested_address for the rest', () => {
    const input = { pathState: 'wa', address: '123 main st  seattle wa 98101-1234-1234 USA' }
    const correction = strictCorrection(normalized(input), input)!
    expect(correction).toMatchObject({
      field: 'address',
      raw: '123 main st  seattle wa 98101-1234-1234 USA',
      suggested: '123 main st seattle wa 98101-1234-1234 USA',
      suggested_address: '123 MAIN ST, SEATTLE, WA 98101-1234',
      rule_id: 'whitespace_collapsed',
    })
    expect(correction.hint).toContain('2 more repairs')
    // The suggested address passes strict mode as is.
    expect(normalized({ pathState: 'wa', address: correction.suggested_address! }).applied).toEqual([])
  })

  it('has no suggested address in ZIP mode', () => {
    const input = { pathState: 'N', zip: '97204' }
    const correction = strictCorrection(normalized(input), input)!
    expect(correction).toMatchObject({ field: 'state', raw: 'N', suggested: 'OR', suggested_address: null })
    expect(correction.hint).toContain('ZIP 97204')
    expect(correction.hint).toContain('state field')
  })
})

describe('rejections', () => {
  it.each([
    [{ pathState: 'wa' }, 'address', /address .* or a zip/],
    [{ pathState: 'wa', address: '  , ; ' }, 'address', /no usable content/],
    [{ pathState: 'wa', address: 'USA' }, 'address', /no usable content/],
    [{ pathState: 'wa', city: ' ', address: '123 Main St' }, 'city', /no usable content/],
    [{ pathState: 'wa', zip: '9810' }, 'zip', /not a 5-digit ZIP/],
    [{ pathState: 'wa', zip: '981012' }, 'zip', /not a 5-digit ZIP/],
    [{ pathState: 'wa', zip: 'WA 98101' }, 'zip', /not a 5-digit ZIP/],
    [{ pathState: 'wa', address: 'Seattle WA 9810' }, 'zip', /not a 5-digit ZIP/],
    [{ pathState: 'wa', address: 'Seattle, 981' }, 'zip', /not a 5-digit ZIP/],
    [{ pathState: 'wa', address: 'x'.repeat(501) }, 'address', /501 characters/],
    [{ pathState: 'wa', address: '123 Main St\nSeattle WA' }, 'address', /control character \(U\+000A\)/],
    [{ pathState: 'wa', address: '123 Main St\u0000' }, 'address', /control character/],
    [{ pathState: 'w\u0007a', zip: '98101' }, 'state', /control character/],
  ] as const)('%j → %s', (input, field, reason) => {
    const result = normalizeAddressInput(input as AddressInput, zipFacts)
    expect(result).toMatchObject({ ok: false, field })
    expect(!result.ok && result.reason).toMatch(reason)
  })

  it('accepts an address of exactly 500 characters', () => {
    const address = `123 Main St, ${'A'.repeat(500 - 'Seattle, WA 98101'.length - 14)} Seattle, WA 98101`.slice(0, 500)
    expect(normalizeAddressInput({ pathState: 'wa', address }, zipFacts).ok).toBe(true)
  })
})
