// The rows of a return, summed as transactions are placed: one row per jurisdiction, rate and filing
// code (a rate that changed within the period, a reduced rate, or a filing code a later edition
// changed makes a row of its own), each with the sales, their exempt parts, the taxable sales, the
// tax due at that rate and the tax collected as recorded. The recorded tax is one figure per
// transaction; it is split between the rows it touches in proportion to the tax due there (by their
// rates when nothing is due, all to the state when every rate is zero), largest remainder, so the
// rows add up to what was recorded. Tax due is summed exactly (1e-9 dollar) and rounded half away
// from zero to the cent once per row.
import type { Level } from '../../../snapshot-contract/model.ts'
import type { Authority } from '../../../snapshot-contract/rate-index.ts'
import { EXEMPT_KINDS, noExemptParts, roundedDivision, type Bases, type ExemptParts } from './taxable-bases.ts'
import type { UnassignedReason } from './return-places.ts'

/** The code the state's return names a jurisdiction by, and the code system it belongs to. */
export type FilingCode = { code: string; system: string }

/** A jurisdiction as the data of a date names it. */
export type Described = { name: string; filing: FilingCode | null }

export type LedgerRow = {
  level: Level
  code: string
  name: string
  filing: FilingCode | null
  /** 1e-5 units */
  rate: number
  transactions: number
  /** money units (1/10,000 dollar), signed */
  gross: bigint
  exempt: ExemptParts
  taxable: bigint
  /** 1e-9 dollar */
  dueExact: bigint
  collected: bigint
  defaultTransactions: number
  defaultGross: bigint
}

export type UnassignedRow = { reason: UnassignedReason; message: string; transactions: number; gross: bigint; collected: bigint; zips: Set<string> }

/** Transactions placed alike: the authorities in force where they are, and what each level takes of them. */
export type PlacedSales = {
  authorities: readonly Authority[]
  bases: Bases
  count: number
  amount: bigint
  salesTax: bigint
  /** the ZIP spans jurisdictions and its default candidate was used */
  defaultChoice: boolean
  describe: (authority: Authority) => Described
}

// Money units (1e-4 $) × rate units (1e-5) = 1e-9 $; a cent is 1e-2 $.
const CENT = 10_000_000n
const LEVEL_ORDER: Record<Level, number> = { state: 0, county: 1, city: 2, district: 3 }
/** ZIPs listed as examples of an unassigned reason */
const EXAMPLES = 20

export const dueCents = (row: Pick<LedgerRow, 'dueExact'>): bigint => roundedDivision(row.dueExact, CENT)

export class ReturnsLedger {
  readonly #rows = new Map<string, LedgerRow>()
  readonly #unassigned = new Map<UnassignedReason, UnassignedRow>()
  transactions = 0
  gross = 0n
  collected = 0n

  add(sales: PlacedSales): void {
    this.#count(sales.count, sales.amount, sales.salesTax)
    const touched: { row: LedgerRow; due: bigint }[] = []
    for (const authority of sales.authorities) {
      const base = sales.bases[authority.level]
      const reduced = base.reduced
      const fullGross = sales.amount - (reduced?.base ?? 0n)
      if (fullGross !== 0n || !reduced) {
        const row = this.#row(authority, authority.rate, sales)
        row.transactions += sales.count
        row.gross += fullGross
        for (const kind of EXEMPT_KINDS) row.exempt[kind] += base.exempt[kind]
        row.taxable += base.taxable
        if (sales.defaultChoice) {
          row.defaultTransactions += sales.count
          row.defaultGross += fullGross
        }
        touched.push({ row, due: base.taxable * BigInt(authority.rate) })
      }
      if (reduced) {
        const row = this.#row(authority, reduced.rate, sales)
        row.transactions += sales.count
        row.gross += reduced.base
        row.taxable += reduced.base
        if (sales.defaultChoice) {
          row.defaultTransactions += sales.count
          row.defaultGross += reduced.base
        }
        touched.push({ row, due: reduced.base * BigInt(reduced.rate) })
      }
    }
    for (const { row, due } of touched) row.dueExact += due
    const shares = allocate(sales.salesTax, splitWeights(touched))
    touched.forEach(({ row }, i) => (row.collected += shares[i]!))
  }

  addUnassigned(reason: UnassignedReason, message: string, zip: string | null, count: number, amount: bigint, salesTax: bigint): void {
    this.#count(count, amount, salesTax)
    let row = this.#unassigned.get(reason)
    if (!row) this.#unassigned.set(reason, (row = { reason, message, transactions: 0, gross: 0n, collected: 0n, zips: new Set() }))
    row.transactions += count
    row.gross += amount
    row.collected += salesTax
    if (zip && row.zips.size < EXAMPLES) row.zips.add(zip)
  }

  /** The rows in level, code, rate and filing code order; local jurisdictions at a zero rate (nothing to report) left out. */
  rows(): LedgerRow[] {
    return [...this.#rows.values()]
      .filter((row) => row.level === 'state' || row.rate > 0)
      .sort((a, b) => LEVEL_ORDER[a.level] - LEVEL_ORDER[b.level] || textOrder(a.code, b.code) || a.rate - b.rate || textOrder(a.filing?.code ?? '', b.filing?.code ?? ''))
  }

  unassigned(): UnassignedRow[] {
    return [...this.#unassigned.values()]
  }

  #count(count: number, amount: bigint, salesTax: bigint): void {
    this.transactions += count
    this.gross += amount
    this.collected += salesTax
  }

  #row(authority: Authority, rate: number, sales: PlacedSales): LedgerRow {
    const { name, filing } = sales.describe(authority)
    const key = `${authority.level}|${authority.code}|${rate}|${filing?.code ?? ''}`
    let row = this.#rows.get(key)
    if (!row) {
      row = {
        level: authority.level,
        code: authority.code,
        name,
        filing,
        rate,
        transactions: 0,
        gross: 0n,
        exempt: noExemptParts(),
        taxable: 0n,
        dueExact: 0n,
        collected: 0n,
        defaultTransactions: 0,
        defaultGross: 0n,
      }
      this.#rows.set(key, row)
    }
    return row
  }
}

const textOrder = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0)
const magnitude = (x: bigint) => (x < 0n ? -x : x)

/** The weights the recorded tax is split by: the tax due in each row, else the rates, else all to the state. */
function splitWeights(touched: readonly { row: LedgerRow; due: bigint }[]): bigint[] {
  const dues = touched.map(({ due }) => magnitude(due))
  if (dues.some((due) => due > 0n)) return dues
  const rates = touched.map(({ row }) => BigInt(row.rate))
  if (rates.some((rate) => rate > 0n)) return rates
  return touched.map(({ row }) => (row.level === 'state' ? 1n : 0n))
}

/** `total` split by `weights` (not all zero): whole shares toward zero, the units left to the largest remainders (the first on a tie). */
export function allocate(total: bigint, weights: readonly bigint[]): bigint[] {
  const sum = weights.reduce((a, b) => a + b, 0n)
  if (sum === 0n) return weights.map(() => 0n)
  const sign = total < 0n ? -1n : 1n
  const amount = magnitude(total)
  const shares = weights.map((w) => (amount * w) / sum)
  const remainders = weights.map((w) => (amount * w) % sum)
  let left = amount - shares.reduce((a, b) => a + b, 0n)
  while (left > 0n) {
    let best = 0
    for (let i = 1; i < remainders.length; i++) if (remainders[i]! > remainders[best]!) best = i
    shares[best]! += 1n
    remainders[best] = -1n
    left -= 1n
  }
  return shares.map((share) => share * sign)
}
