// The pure pieces of the portability write side: exact money, transaction dates, windows, the
// NDJSON splitter, which sales count toward nexus (pinned for every state of the rules table),
// and the status rule on the real descriptors.
import { describe, expect, it } from 'vitest'
import { STATE_FACTS, stateFacts } from '../sources/state-facts.ts'
import { monthsBefore, rollingTwelveMonths } from '../server/sale/date-window.ts'
import { ndjsonLines } from '../server/portability/backfill/ndjson-lines.ts'
import { formatMoney, parseMoney } from '../server/sale/money.ts'
import { countingRuleOf, counts } from '../server/portability/nexus/counting-rule.ts'
import { parseBand } from '../server/portability/nexus/nexus-band.ts'
import { nexusStatus } from '../server/portability/nexus/nexus-status.ts'
import { parseTransactionDate } from '../server/portability/transaction-date.ts'
import { readServerSettings } from '../server/settings.ts'

const units = (input: unknown) => {
  const parsed = parseMoney(input)
  if (!parsed.ok) throw new Error(parsed.reason)
  return parsed.units
}

describe('money', () => {
  it('reads decimal strings and JSON numbers exactly, in 1/10,000 dollar', () => {
    expect(units('19.99')).toBe(199_900)
    expect(units(19.99)).toBe(199_900)
    expect(units('0.01')).toBe(100)
    expect(units(' 999.00 ')).toBe(9_990_000)
    expect(units('.5')).toBe(5_000)
    expect(units('7.')).toBe(70_000)
    expect(units('+3')).toBe(30_000)
    expect(units('-15.25')).toBe(-152_500)
    expect(units('0.3333')).toBe(3_333)
    expect(units('19.990000')).toBe(199_900)
    expect(units('-0')).toBe(0)
    // 0.1 + 0.2 in floats is 0.30000000000000004; read as text, sums stay exact.
    expect(units('0.1') + units('0.2')).toBe(units('0.3'))
    expect(units('19.99') + units('0.01')).toBe(units('20.00'))
  })

  it('refuses what it cannot hold exactly', () => {
    for (const bad of ['19.99999', '1e3', 'abc', '', '.', '1,000.00', '$5', '99999999999999', Number.NaN, Infinity, null, {}, true, 0.30000000000000004]) {
      expect(parseMoney(bad).ok, String(bad)).toBe(false)
    }
  })

  it('writes at least two and at most four decimals', () => {
    expect(formatMoney(199_900)).toBe('19.99')
    expect(formatMoney(199_950)).toBe('19.995')
    expect(formatMoney(3_333)).toBe('0.3333')
    expect(formatMoney(-50_000)).toBe('-5.00')
    expect(formatMoney(0)).toBe('0.00')
    expect(formatMoney(123_456_789_012_345_678n)).toBe('12345678901234.5678')
  })
})

describe('transaction dates', () => {
  const at = (text: string) => {
    const parsed = parseTransactionDate(text)
    if (!parsed.ok) throw new Error(parsed.reason)
    return parsed.value
  }

  it('accepts the forms integrations send and keeps the UTC instant', () => {
    expect(at('2015/05/14')).toEqual({ at: '2015-05-14T00:00:00.000Z', date: '2015-05-14' })
    expect(at('2015-05-14')).toEqual({ at: '2015-05-14T00:00:00.000Z', date: '2015-05-14' })
    expect(at('2015-05-14T10:20:30Z').at).toBe('2015-05-14T10:20:30.000Z')
    expect(at('2015-05-14 10:20').at).toBe('2015-05-14T10:20:00.000Z')
    expect(at('2015-05-14T10:20:30.123456+02:00').at).toBe('2015-05-14T08:20:30.123Z')
    // A late-evening sale on the US west coast is the next day in UTC.
    expect(at('2026-01-31T23:30:00-08:00')).toEqual({ at: '2026-02-01T07:30:00.000Z', date: '2026-02-01' })
    expect(at('2026-01-31T23:30:00-0800').date).toBe('2026-02-01')
  })

  it('refuses dates that do not exist', () => {
    for (const bad of ['2026-02-30', '2026-13-01', '14/05/2015', 'yesterday', '2026-05-14T25:00:00Z', '2026-05-14T10:00:00+15:00', '1800-01-01']) {
      expect(parseTransactionDate(bad).ok, bad).toBe(false)
    }
    expect(parseTransactionDate(20260514).ok).toBe(false)
  })
})

describe('windows', () => {
  it('the rolling 12 months end today and start the day after the same day a year ago', () => {
    expect(rollingTwelveMonths('2026-11-21')).toEqual({ from: '2025-11-22', to: '2026-11-21' })
    expect(rollingTwelveMonths('2028-02-29')).toEqual({ from: '2027-03-01', to: '2028-02-29' })
  })

  it('24 months back keeps the calendar day, clamped to the month', () => {
    expect(monthsBefore('2026-11-21', 24)).toBe('2024-11-21')
    expect(monthsBefore('2026-03-31', 1)).toBe('2026-02-28')
    expect(monthsBefore('2026-01-15', 13)).toBe('2024-12-15')
  })
})

describe('NDJSON lines', () => {
  async function collect(chunks: string[], max = 64) {
    const out = []
    for await (const lines of ndjsonLines(chunks.map((c) => Buffer.from(c)), max)) out.push(...lines)
    return out
  }

  it('splits across chunk boundaries, keeps line numbers, and reads a last line without newline', async () => {
    expect(await collect(['{"a":1}\n{"b"', ':2}\r\n\n{"c":"é', '"}'])).toEqual([
      { number: 1, text: '{"a":1}' },
      { number: 2, text: '{"b":2}\r' },
      { number: 3, text: '' },
      { number: 4, text: '{"c":"é"}' },
    ])
  })

  it('splits a multi-byte character across chunks without damage', async () => {
    const bytes = Buffer.from('{"city":"Saint-Étienne"}\n')
    const cut = bytes.indexOf(0xc3) + 1
    const out = []
    for await (const lines of ndjsonLines([bytes.subarray(0, cut), bytes.subarray(cut)], 100)) out.push(...lines)
    expect(out).toEqual([{ number: 1, text: '{"city":"Saint-Étienne"}' }])
  })

  it('skips a line over the limit to its end and goes on', async () => {
    expect(await collect(['{"ok":1}\n' + 'x'.repeat(40), 'y'.repeat(40) + '\n{"ok":2}\n', 'z'.repeat(100)], 64)).toEqual([
      { number: 1, text: '{"ok":1}' },
      { number: 2, tooLong: true },
      { number: 3, text: '{"ok":2}' },
      { number: 4, tooLong: true },
    ])
  })
})

describe('which transactions count toward nexus', () => {
  it('classifies every state of the rules table (pinned)', () => {
    const table = Object.fromEntries(STATE_FACTS.map((state) => {
      const rule = countingRuleOf(state)
      return [state.code, `${rule.exemptSales}/${rule.marketplaceSales}`]
    }))
    expect(table).toEqual({
      AK: 'counted/counted', AL: 'resale_excluded/excluded', AR: 'excluded/excluded', AZ: 'counted/excluded',
      CA: 'counted/counted', CO: 'resale_excluded/excluded', CT: 'resale_excluded/counted', DC: 'resale_excluded/counted',
      DE: 'counted/counted', FL: 'excluded/excluded', GA: 'resale_excluded/counted', HI: 'counted/counted',
      IA: 'counted/counted', ID: 'counted/counted', IL: 'resale_excluded/excluded', IN: 'counted/excluded',
      KS: 'counted/counted', KY: 'counted/counted', LA: 'counted/counted', MA: 'counted/excluded',
      MD: 'counted/counted', ME: 'counted/excluded', MI: 'counted/counted', MN: 'resale_excluded/counted',
      MO: 'excluded/counted', MS: 'counted/excluded', MT: 'counted/counted', NC: 'counted/counted',
      ND: 'excluded/excluded', NE: 'resale_excluded/counted', NH: 'counted/counted', NJ: 'counted/counted',
      NM: 'excluded/excluded', NV: 'resale_excluded/counted', NY: 'counted/counted', OH: 'counted/counted',
      OK: 'excluded/excluded', OR: 'counted/counted', PA: 'counted/counted', PR: 'counted/counted',
      RI: 'counted/counted', SC: 'counted/counted', SD: 'counted/counted', TN: 'resale_excluded/counted',
      TX: 'counted/counted', UT: 'counted/excluded', VA: 'resale_excluded/excluded', VT: 'counted/counted',
      WA: 'counted/counted', WI: 'counted/counted', WV: 'counted/counted', WY: 'counted/excluded',
    })
  })

  it('applies the classification to exemption types and marketplace sales', () => {
    const ga = countingRuleOf(stateFacts('GA')!) // retail sales; marketplace unverified → counted
    expect([counts(ga, null, false), counts(ga, 'non_exempt', false), counts(ga, 'wholesale', false), counts(ga, 'government', false), counts(ga, 'other', false), counts(ga, null, true)]).toEqual([true, true, false, true, true, true])
    const fl = countingRuleOf(stateFacts('FL')!) // taxable remote sales; marketplace excluded
    expect([counts(fl, null, false), counts(fl, 'wholesale', false), counts(fl, 'government', false), counts(fl, 'marketplace', true)]).toEqual([true, false, false, false])
    const ma = countingRuleOf(stateFacts('MA')!) // gross sales (taxable + exempt); marketplace excluded if the facilitator collects
    expect([counts(ma, 'wholesale', false), counts(ma, 'government', false), counts(ma, null, true)]).toEqual([true, true, false])
  })
})

describe('nexus status on the recorded rules', () => {
  const band = 2_500
  const dollars = (d: number) => BigInt(d) * 10_000n
  const status = (code: string, total: number, count: number, bandBp = band) => nexusStatus(stateFacts(code)!, { units: dollars(total), count }, bandBp).status

  it('CT needs both $100,000 and 200 transactions (sales_and_transactions)', () => {
    expect(status('CT', 150_000, 199)).toBe('approaching')
    expect(status('CT', 150_000, 200)).toBe('exceeded')
    expect(status('CT', 99_999, 5_000)).toBe('approaching')
    expect(status('CT', 10_000, 10)).toBe('under_threshold')
  })

  it('GA is met by either test (sales_or_transactions)', () => {
    expect(status('GA', 100_000, 0)).toBe('exceeded')
    expect(status('GA', 10, 200)).toBe('exceeded')
    expect(status('GA', 10, 150)).toBe('approaching')
    expect(status('GA', 74_999, 149)).toBe('under_threshold')
    expect(status('GA', 75_000, 0)).toBe('approaching')
  })

  it('MA counts dollars only (sales_only), whatever the count', () => {
    expect(status('MA', 99_999, 1_000_000)).toBe('approaching')
    expect(status('MA', 100_000, 1)).toBe('exceeded')
    expect(status('CA', 400_000, 0)).toBe('approaching') // $500,000 threshold
    expect(status('CA', 374_999, 0)).toBe('under_threshold')
  })

  it('states without a sales tax have no threshold', () => {
    for (const code of ['DE', 'MT', 'NH', 'OR']) expect(status(code, 10_000_000, 100_000)).toBe('no_threshold')
    expect(status('AK', 100_000, 0)).toBe('exceeded') // local taxes only, but ARSSTC has a threshold
  })

  it('the band is configurable', () => {
    expect(status('GA', 80_000, 0, 1_000)).toBe('under_threshold')
    expect(status('GA', 90_000, 0, 1_000)).toBe('approaching')
    expect(parseBand('0.1')).toEqual({ ok: true, basisPoints: 1_000 })
    expect(parseBand('0').ok).toBe(false)
    expect(parseBand('1').ok).toBe(false)
    expect(parseBand('x').ok).toBe(false)
  })

  it('reads the band, the backfill limits and the unknown-code policy from the environment, refusing bad values at start-up', () => {
    expect(readServerSettings({}).portability).toEqual({ nexusBandBasisPoints: 2_500, backfillJsonLimit: 16 * 1024 * 1024, backfillIdleTimeoutMs: 60_000, unknownTaxCodes: 'reject' })
    const env = { TAXATLAS_NEXUS_BAND: '0.1', TAXATLAS_BACKFILL_JSON_LIMIT: '1000', TAXATLAS_BACKFILL_IDLE_TIMEOUT_MS: '500', TAXATLAS_UNKNOWN_TAX_CODES: 'general' }
    expect(readServerSettings(env).portability).toEqual({
      nexusBandBasisPoints: 1_000,
      backfillJsonLimit: 1_000,
      backfillIdleTimeoutMs: 500,
      unknownTaxCodes: 'general',
    })
    expect(() => readServerSettings({ TAXATLAS_UNKNOWN_TAX_CODES: 'guess' })).toThrow(/TAXATLAS_UNKNOWN_TAX_CODES/)
    expect(() => readServerSettings({ TAXATLAS_NEXUS_BAND: '1.5' })).toThrow(/TAXATLAS_NEXUS_BAND/)
    expect(() => readServerSettings({ TAXATLAS_BACKFILL_IDLE_TIMEOUT_MS: '0' })).toThrow(/TAXATLAS_BACKFILL_IDLE_TIMEOUT_MS/)
    expect(readServerSettings({}).storeMemoryLimit).toBe('256MB')
    expect(() => readServerSettings({ TAXATLAS_STORE_MEMORY_LIMIT: 'lots' })).toThrow(/TAXATLAS_STORE_MEMORY_LIMIT/)
  })
})
