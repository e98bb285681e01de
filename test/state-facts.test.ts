// The state facts table (sources/state-facts.ts) against the shared rules table it is read from,
// ../shared/rules/state-rules.csv: every fact of every row, so a change on either side fails here.
import { readFileSync } from 'node:fs'
import Papa from 'papaparse'
import { describe, expect, it } from 'vitest'
import { parseRatePercent } from '../snapshot-contract/rate-units.ts'
import { STATES } from '../sources/index.ts'
import { RULES_TABLE_AS_OF, STATE_FACTS, stateFacts, stateRateOn, type StateFacts } from '../sources/state-facts.ts'
import { sharedPath } from './support/shared.ts'

type RulesRow = Record<string, string>
const rules = Papa.parse<RulesRow>(readFileSync(sharedPath('rules/state-rules.csv'), 'utf8'), { header: true, skipEmptyLines: true }).data

function percentUnits(text: string): number {
  const parsed = parseRatePercent(text)
  if (!parsed.ok) throw new Error(parsed.reason)
  return parsed.units
}

const wholeOrNull = (cell: string) => (cell.trim() === '' ? null : Number(cell))

/** The facts the CSV row states, in the table's shape (the rate: the one in force on the table's date). */
function expectedFacts(row: RulesRow) {
  return {
    code: row.state_code,
    salesTax: row.general_sales_tax,
    stateRate: percentUnits(row.state_rate_pct!),
    nexus: {
      dollarThreshold: wholeOrNull(row.nexus_sales_threshold_usd!),
      transactionThreshold: wholeOrNull(row.nexus_transaction_threshold!),
      combine: row.nexus_logic === 'n/a' ? 'none' : row.nexus_logic,
      measurementPeriod: row.nexus_measurement_period,
      // The column's vocabulary leads the cell: "excluded if the facilitator collects", "conflicting: …".
      marketplaceSales: /^[a-z/]+/.exec(row.nexus_marketplace_sales_counted_by_seller!)![0],
      wording: { salesCounted: row.nexus_sales_counted, marketplaceSales: row.nexus_marketplace_sales_counted_by_seller },
    },
    sourcing: row.intrastate_sourcing,
    freight: row.shipping_rule,
    source: row.source,
  }
}

function actualFacts(facts: StateFacts) {
  const { salesCounted: _basis, ...nexus } = facts.nexus
  return {
    code: facts.code,
    salesTax: facts.salesTax,
    stateRate: stateRateOn(facts, RULES_TABLE_AS_OF),
    nexus,
    sourcing: facts.sourcing,
    freight: facts.freight,
    source: facts.source,
  }
}

/** The words of nexus_sales_counted that name each basis (state-rules.md: gross, retail, or taxable only). */
const BASIS_WORDS: Record<StateFacts['nexus']['salesCounted'], RegExp> = {
  taxable: /^taxable\b/,
  retail: /\bretail\b|\bresale\b/,
  gross: /\bgross\b|\btotal\b/,
  'n/a': /^n\/a$/,
}

/** "6.0% through 2026-09-30", "5.0% on 2025-01-01": a rate the notes date, with the clause it stands in. */
function datedRates(notes: string) {
  return [...notes.matchAll(/(\d+(?:\.\d+)?)% (since|from|on|through|until) (\d{4}-\d{2}-\d{2})/g)].map((match) => ({
    rate: percentUnits(match[1]!),
    bound: match[2] === 'through' || match[2] === 'until' ? ('to' as const) : ('from' as const),
    date: match[3]!,
    clause: notes.slice(0, match.index).split(/[;]|\.\s/).at(-1)! + match[0],
  }))
}

/** A clause about a reduced or category rate (food, groceries, …) rather than the general rate. */
const CATEGORY = /food|grocer|meal|cannabis|lodging|alcohol|parking|rental|services/i

describe('the state facts table against state-rules.csv', () => {
  it('holds one row per state of the CSV (50 states, DC and PR), as do the descriptors', () => {
    const codes = rules.map((row) => row.state_code).sort()
    expect(codes).toHaveLength(52)
    expect(STATE_FACTS.map((row) => row.code)).toEqual(codes)
    expect(STATES.map((state) => [state.code, state.name])).toEqual(
      [...rules].sort((a, b) => a.state_code!.localeCompare(b.state_code!)).map((row) => [row.state_code, row.state_name]),
    )
  })

  it.each(rules.map((row) => [row.state_code!, row] as const))('%s: every fact equals its CSV row', (code, row) => {
    expect(actualFacts(stateFacts(code)!)).toEqual(expectedFacts(row))
  })

  it.each(rules.map((row) => [row.state_code!, row] as const))('%s: the sales counted are the basis nexus_sales_counted names', (code, row) => {
    const { salesCounted } = stateFacts(code)!.nexus
    expect(row.nexus_sales_counted, `${code} is recorded as ${salesCounted}`).toMatch(BASIS_WORDS[salesCounted])
    if (salesCounted !== 'taxable') expect(row.nexus_sales_counted).not.toMatch(BASIS_WORDS.taxable)
  })

  it.each(rules.map((row) => [row.state_code!, row] as const))('%s: the rate windows are the dates state_rate_notes gives the general rate', (code, row) => {
    const facts = stateFacts(code)!
    const notes = row.state_rate_notes!
    const stated = datedRates(notes).filter((dated) => !CATEGORY.test(dated.clause))
    // Every dated general rate of the notes is a window bound, at its rate …
    for (const dated of stated) {
      expect(facts.stateRates, `${code}: "${dated.clause}"`).toContainEqual(expect.objectContaining({ rate: dated.rate, [dated.bound]: dated.date }))
    }
    // … every start date of the table is stated, and every rate of a dated state appears in its notes.
    for (const window of facts.stateRates.filter((w) => w.from !== null)) {
      expect(stated, `${code}: ${window.rate} from ${window.from}`).toContainEqual(expect.objectContaining({ rate: window.rate, bound: 'from', date: window.from }))
    }
    if (facts.stateRates.length > 1) {
      const ratesInNotes = [...notes.matchAll(/(\d+(?:\.\d+)?)%/g)].map((match) => percentUnits(match[1]!))
      for (const window of facts.stateRates) expect(ratesInNotes, `${code}: ${window.rate}`).toContain(window.rate)
    }
  })

  it('dates DC at 6% through 2026-09-30 and 7% from 2026-10-01', () => {
    const dc = stateFacts('dc')!
    expect([stateRateOn(dc, '2026-01-15'), stateRateOn(dc, '2026-09-30'), stateRateOn(dc, '2026-10-01'), stateRateOn(dc, '2026-11-01')]).toEqual([6000, 6000, 7000, 7000])
  })

  it('refuses a code it does not hold', () => {
    expect(stateFacts('GU')).toBeUndefined()
  })
})
