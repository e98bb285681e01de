// The tax of one line item, or of the shipping charge, level by level: which part of its price
// each level taxes, at which rate, and the tax in cents. Money is in units of 1/10,000 dollar
// (portability/money.ts), rates in 1e-5 units, tax in cents; products are BigInt, never floats.
// Rounding: a part's exact tax (the sum over its levels) is rounded half up to the cent, once per
// line item and once for shipping; the cents are then split between the levels by largest
// remainder, so the levels always add up to the part's tax.
import { LEVELS, type Level } from '../../snapshot-contract/model.ts'
import type { RateParts } from '../lookup/rate-parts.ts'
import type { CategoryRule } from './product-categories.ts'

/** A slice of a part's price taxed at one rate at one level. */
export type Piece = { base: number; rate: number }
export type Pieces = Record<Level, Piece[]>

export type LevelTax = {
  /** money units taxed at this level (0 where the level has no tax) */
  taxable: number
  /** 1e-5 units; the rate of the largest slice when slices differ (a reduced rate beside the full one) */
  rate: number
  /** cents */
  tax: number
}

export type PartTax = {
  /** the most taxed at any level, money units */
  taxable: number
  /** the rates applied, summed over the levels that tax something */
  rate: number
  /** cents */
  tax: number
  levels: Record<Level, LevelTax>
}

/** A rule that answers (not `not_modeled`), and where the line is. */
export type TaxedRule = Exclude<CategoryRule, { kind: 'not_modeled' }>

// Money units (1e-4 $) × rate units (1e-5) = 1e-9 $; a cent is 1e-2 $.
const CENT_UNITS = 10_000_000
const CENT = 10_000_000n

export const noPieces = (): Pieces => ({ state: [], county: [], city: [], district: [] })

/** x × numerator / denominator, rounded half up (all non-negative). */
function scaled(x: number, numerator: number, denominator: number): number {
  const product = BigInt(x) * BigInt(numerator)
  const d = BigInt(denominator)
  return Number((product * 2n + d) / (2n * d))
}

/** The slices of a line whose price after discount is `net` for `quantity` items. */
export function linePieces(net: number, quantity: number, rule: TaxedRule, parts: RateParts, countyFips: string | null): Pieces {
  const pieces = noPieces()
  const add = (level: Level, base: number, rate: number) => {
    if (base > 0 && rate > 0) pieces[level].push({ base, rate })
  }
  switch (rule.kind) {
    case 'levels':
      for (const level of LEVELS) {
        const treatment = level === 'state' ? rule.state : rule.local
        if (treatment === 'exempt') continue
        add(level, net, treatment === 'taxable' ? parts[level] : treatment.rate)
      }
      return pieces
    case 'exempt_up_to': {
      const excess = Math.max(0, net - rule.perItem * quantity)
      for (const level of LEVELS) add(level, excess, parts[level])
      return pieces
    }
    case 'exempt_below': {
      const below = net < rule.perItem * quantity
      const localExempt = below && countyFips !== null && rule.localExemptCounties.includes(countyFips)
      for (const level of LEVELS) {
        const exempt = below && (level === 'state' || level === 'district' || localExempt)
        if (!exempt) add(level, net, parts[level])
      }
      return pieces
    }
  }
}

/**
 * Shipping taxed where the goods are (`proportional`): at each level, the share of shipping that
 * the items taxed at a rate bear of the items' total price is taxed at that rate. Items totalling
 * nothing leave no share to apportion: shipping is then taxed in full at the location's rates.
 */
export function proportionalShipping(shipping: number, lines: readonly Pieces[], itemsTotal: number, parts: RateParts): Pieces {
  if (itemsTotal === 0) return fullShipping(shipping, parts)
  const pieces = noPieces()
  for (const level of LEVELS) {
    const byRate = new Map<number, number>()
    for (const line of lines) for (const piece of line[level]) byRate.set(piece.rate, (byRate.get(piece.rate) ?? 0) + piece.base)
    for (const [rate, base] of byRate) {
      const share = scaled(shipping, base, itemsTotal)
      if (share > 0) pieces[level].push({ base: share, rate })
    }
  }
  return pieces
}

/** Shipping taxed in full at the location's rates. */
export function fullShipping(shipping: number, parts: RateParts): Pieces {
  const pieces = noPieces()
  for (const level of LEVELS) if (shipping > 0 && parts[level] > 0) pieces[level].push({ base: shipping, rate: parts[level] })
  return pieces
}

export function partTax(pieces: Pieces): PartTax {
  const exact = exactTax(pieces)
  let taxable = 0
  let rate = 0
  const levelTax = (level: Level, i: number): LevelTax => {
    let base = 0
    let largest: Piece | null = null
    for (const piece of pieces[level]) {
      base += piece.base
      if (!largest || piece.base > largest.base || (piece.base === largest.base && piece.rate > largest.rate)) largest = piece
    }
    if (base > taxable) taxable = base
    rate += largest?.rate ?? 0
    return { taxable: base, rate: largest?.rate ?? 0, tax: exact.cents[i]! }
  }
  const levels = { state: levelTax('state', 0), county: levelTax('county', 1), city: levelTax('city', 2), district: levelTax('district', 3) }
  return { taxable, rate, tax: exact.tax, levels }
}

/**
 * The part's tax rounded half up to the cent, and its split between the levels: each level its
 * whole cents, the cents left over to the largest fractions (the earlier level on a tie). Safe
 * integers while every product and sum stays below 2^53 (a line under about $6.8 million); BigInt
 * beyond.
 */
function exactTax(pieces: Pieces): { tax: number; cents: number[] } {
  const exact = [0, 0, 0, 0]
  let total = 0
  for (let i = 0; i < LEVELS.length; i++) {
    for (const piece of pieces[LEVELS[i]!]) exact[i] += piece.base * piece.rate
    total += exact[i]!
  }
  if (!Number.isSafeInteger(total) || !exact.every(Number.isSafeInteger)) return exactTaxBig(pieces)
  const remainders = [0, 0, 0, 0]
  const cents = [0, 0, 0, 0]
  let whole = 0
  for (let i = 0; i < 4; i++) {
    remainders[i] = exact[i]! % CENT_UNITS
    cents[i] = (exact[i]! - remainders[i]!) / CENT_UNITS
    whole += cents[i]!
  }
  const rounded = total + CENT_UNITS / 2
  const tax = (rounded - (rounded % CENT_UNITS)) / CENT_UNITS
  if (tax > whole) distribute(cents, remainders, tax - whole)
  return { tax, cents }
}

function exactTaxBig(pieces: Pieces): { tax: number; cents: number[] } {
  const exact = LEVELS.map((level) => pieces[level].reduce((sum, p) => sum + BigInt(p.base) * BigInt(p.rate), 0n))
  const total = exact.reduce((a, b) => a + b, 0n)
  const tax = Number((total + CENT / 2n) / CENT)
  const cents = exact.map((x) => Number(x / CENT))
  distribute(cents, exact.map((x) => Number(x % CENT)), tax - cents.reduce((a, b) => a + b, 0))
  return { tax, cents }
}

/** Adds one cent to each of the `left` levels with the largest remainders, in place. */
function distribute(cents: number[], remainders: number[], left: number): void {
  const order = [0, 1, 2, 3].sort((a, b) => remainders[b]! - remainders[a]! || a - b)
  for (let k = 0; k < left; k++) cents[order[k]!]! += 1
}
