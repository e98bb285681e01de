// The address parser's building blocks: state table, tokens and edits, ZIP text, whitespace, street end.
import { describe, expect, it } from 'vitest'
import { STATE_NAMES, matchState } from '../server/lookup/address/index.ts'
import { findStreetEnd } from '../server/lookup/address/street-end.ts'
import { renderWithEdits, tokenize } from '../server/lookup/address/tokens.ts'
import { collapseWhitespace } from '../server/lookup/address/whitespace.ts'
import { readZip } from '../server/lookup/address/zip-text.ts'
import { placeMatchKey } from '../snapshot-contract/place-names.ts'
import { STATES } from '../sources/index.ts'

describe('STATE_NAMES', () => {
  it('covers the 50 states, DC, PR and the four inhabited territories, with the served states’ FIPS codes', () => {
    expect(STATE_NAMES).toHaveLength(56)
    expect(new Set(STATE_NAMES.map((s) => s.code)).size).toBe(56)
    for (const served of STATES) {
      expect(STATE_NAMES.find((s) => s.code === served.code)).toMatchObject({ fips: served.fips, name: served.name })
    }
    expect(STATE_NAMES.map((s) => s.code)).toEqual(expect.arrayContaining(['GU', 'VI', 'AS', 'MP']))
  })

  it('gives every name and alias to one state only', () => {
    const owner = new Map<string, string>()
    for (const state of STATE_NAMES) {
      for (const name of [state.name, ...state.aliases]) {
        const key = placeMatchKey(name)
        expect(owner.get(key) ?? state.code, name).toBe(state.code)
        owner.set(key, state.code)
      }
    }
  })

  it.each([
    ['Calif', 'CA'], ['Calif.', 'CA'], ['Penn', 'PA'], ['Wash DC', 'DC'], ['Wash. D.C.', 'DC'], ['Washington D.C.', 'DC'],
    ['Mass', 'MA'], ['N. Carolina', 'NC'], ['N Carolina', 'NC'], ['West Virginia', 'WV'], ['W. Va.', 'WV'],
    ['new york', 'NY'], ['Puerto Rico', 'PR'], ['U.S. Virgin Islands', 'VI'], ['Guam', 'GU'], ['Northern Mariana Islands', 'MP'],
  ])('reads the name "%s" as %s', (written, code) => {
    expect(matchState(written.split(' '))).toEqual({ code, form: 'name' })
  })

  it('reads codes in any case, with or without periods, as codes', () => {
    expect(matchState(['wa'])).toEqual({ code: 'WA', form: 'code' })
    expect(matchState(['D.C.'])).toEqual({ code: 'DC', form: 'code' })
    expect(matchState(['MT'])).toEqual({ code: 'MT', form: 'code' })
  })

  it('finds no state in placeholders and other words', () => {
    for (const word of ['N', 'false', '-', 'M', 'null', 'none', 'XX', 'St', 'USA', 'Seattle']) expect(matchState([word])).toBeNull()
  })
})

describe('tokens and edits', () => {
  const text = tokenize('123 Main St 123 Main St, Seattle, WA 98101 USA')

  it('keeps the separators so the text renders back unchanged', () => {
    expect(renderWithEdits(text, [])).toBe('123 Main St 123 Main St, Seattle, WA 98101 USA')
    expect(text.tokens.map((t) => t.key)).toEqual(['123', 'MAIN', 'ST', '123', 'MAIN', 'ST', 'SEATTLE', 'WA', '98101', 'USA'])
  })

  it('hands a removed run’s closing separator to the word before it', () => {
    expect(renderWithEdits(text, [{ start: 3, end: 6, words: [] }])).toBe('123 Main St, Seattle, WA 98101 USA')
    expect(renderWithEdits(text, [{ start: 9, end: 10, words: [] }])).toBe('123 Main St 123 Main St, Seattle, WA 98101')
  })

  it('lets a later edit of the same span replace an earlier one', () => {
    const edits = [{ start: 7, end: 8, words: ['OR'] }, { start: 7, end: 8, words: ['ID'] }]
    expect(renderWithEdits(text, edits)).toBe('123 Main St 123 Main St, Seattle, ID 98101 USA')
  })
})

describe('readZip', () => {
  it.each([
    ['98101', { zip5: '98101', zip4: null, extraPlus4: [] }],
    ['98101-1234', { zip5: '98101', zip4: '1234', extraPlus4: [] }],
    ['981011234', { zip5: '98101', zip4: '1234', extraPlus4: [] }],
    ['98101-1234-1234', { zip5: '98101', zip4: '1234', extraPlus4: ['1234'] }],
    ['98101-1234-5678-9999', { zip5: '98101', zip4: '1234', extraPlus4: ['5678', '9999'] }],
    ['98101–1234', { zip5: '98101', zip4: '1234', extraPlus4: [] }],
  ])('reads %s', (text, zip) => {
    expect(readZip(text)).toEqual({ ok: true, zip })
  })

  it.each(['9810', '981012', '98101-12', '98101-1234-12', '98101-', '98101-12341234'])('refuses %s', (text) => {
    expect(readZip(text)).toMatchObject({ ok: false, reason: expect.stringContaining(text) })
  })
})

describe('collapseWhitespace', () => {
  it('reports nothing for clean text and names what it collapsed', () => {
    expect(collapseWhitespace('123 Main St, Seattle')).toEqual({ text: '123 Main St, Seattle', kinds: [] })
    expect(collapseWhitespace('123 Main St,Seattle')).toEqual({ text: '123 Main St,Seattle', kinds: [] })
    expect(collapseWhitespace('123  Main\u00a0St ,Seattle ')).toEqual({
      text: '123 Main St,Seattle',
      kinds: ['repeated_space', 'tab_or_other_whitespace', 'space_before_comma', 'leading_or_trailing'],
    })
  })
})

describe('findStreetEnd', () => {
  const end = (text: string) => findStreetEnd(text.toUpperCase().replace(/\./g, '').split(' '))

  it.each([
    ['123 Main St Seattle', 3],
    ['123 Court St Seattle', 3],
    ['123 Old Court Rd Seattle', 4],
    ['123 Main St St Paul', 3],
    ['123 Main St NE Seattle', 4],
    ['123 Main St Apt 4 Seattle', 5],
    ['123 Main St Apt 4 Bldg C Seattle', 7],
    ['123 1/2 Main St Seattle', 4],
    ['123 County Road 12 Seattle', 4],
    ['456 Hwy 101 Forks', 3],
    ['PO Box 5 Springfield', 3],
    ['P O Box 5 Springfield', 4],
    ['RR 2 Box 7 Clinton', 4],
    ['123 Broadway Apt 4 New York', 4],
    ['123 Duval St Key West', 3],
    ['123 Broadway Seattle', null],
    ['Springfield', null],
    ['Pike Road', null],
  ])('%s → %s', (text, expected) => {
    expect(end(text)).toBe(expected)
  })
})
