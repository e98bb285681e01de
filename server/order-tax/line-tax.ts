// The tax of one line item, or of the shipping charge, level by level: which part of its price
// each level taxes, at which rate, and the tax in cents. Money is in units of 1/10,000 dollar
// (sale/money.ts), rates in 1e-5 units, tax in cents; products are BigInt, never floats.
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
  const dividend = 2 * x * numerator + denominator
  const divisor = 2 * denominator
  if (dividend <= Number.MAX_SAFE_INTEGER) {
    // Exact integers: the float quotient's floor is off by at most one, which the remainder shows.
    let quotient = Math.floor(dividend / divisor)
    const remainder = dividend - quotient * divisor
    if (remainder < 0) quotient--
    else if (remainder >= divisor) quotient++
    return quotient
  }
  return Number((BigInt(x) * BigInt(numerator) * 2n + BigInt(denominator)) / (2n * BigInt(denominator)))
}

/** Adds a slice where it taxes something. */
function add(pieces: Pieces, level: Level, base: number, rate: number): void {
  if (base > 0 && rate > 0) pieces[level].push({ base, rate })
}

/** The local levels: those a per-item cap on local taxes limits (Florida's surtax on the first $5,000). */
const LOCAL_LEVELS = ['county', 'city', 'district'] as const

/**
 * The slices of a line whose price after discount is `net` for `quantity` items; `localItemCap`
 * (money units per item) limits what the local levels tax of each item, the items of a line
 * sharing its net price equally.
 */
export function linePieces(net: number, quantity: number, rule: TaxedRule, parts: RateParts, countyFips: string | null, localItemCap: number | null = null): Pieces {
  const pieces = uncappedPieces(net, quantity, rule, parts, countyFips)
  if (localItemCap === null) return pieces
  const most = localItemCap * quantity
  for (const level of LOCAL_LEVELS) for (const piece of pieces[level]) piece.base = Math.min(piece.base, most)
  return pieces
}

function uncappedPieces(net: number, quantity: number, rule: TaxedRule, parts: RateParts, countyFips: string | null): Pieces {
  const pieces = noPieces()
  switch (rule.kind) {
    case 'levels':
      for (const level of LEVELS) {
        const treatment = level === 'state' ? rule.state : rule.local
        if (treatment === 'exempt') continue
        add(pieces, level, net, treatment === 'taxable' ? parts[level] : treatment.rate)
      }
      return pieces
    case 'exempt_up_to': {
      const excess = Math.max(0, net - rule.perItem * quantity)
      for (const level of LEVELS) add(pieces, level, excess, parts[level])
      return pieces
    }
    case 'exempt_below': {
      const below = net < rule.perItem * quantity
      const localExempt = below && countyFips !== null && rule.localExemptCounties.includes(countyFips)
      for (const level of LEVELS) {
        const exempt = below && (level === 'state' || level === 'district' || localExempt)
        if (!exempt) add(pieces, level, net, parts[level])
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
    // The items' total at each rate of the level, in the order the rates first appear.
    const byRate: Piece[] = []
    for (const line of lines) {
      for (const piece of line[level]) {
        const same = byRate.find((p) => p.rate === piece.rate)
        if (same) same.base += piece.base
        else byRate.push({ base: piece.base, rate: piece.rate })
      }
    }
    for (const { rate, base } of byRate) {
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
  const state = levelTax(pieces.state, exact.cents[0]!)
  const county = levelTax(pieces.county, exact.cents[1]!)
  const city = levelTax(pieces.city, exact.cents[2]!)
  const district = levelTax(pieces.district, exact.cents[3]!)
  return {
    taxable: Math.max(state.taxable, county.taxable, city.taxable, district.taxable),
    rate: state.rate + county.rate + city.rate + district.rate,
    tax: exact.tax,
    levels: { state, county, city, district },
  }
}

/** A level's slices summed; its rate is the largest slice's (the higher rate on a tie). */
function levelTax(pieces: readonly Piece[], tax: number): LevelTax {
  let base = 0
  let largest: Piece | null = null
  for (const piece of pieces) {
    base += piece.base
    if (!largest || piece.base > largest.base || (piece.base === largest.base && piece.rate > largest.rate)) largest = piece
  }
  return { taxable: base, rate: largest?.rate ?? 0, tax }
}

/**
 * The part's tax rounded half up to the cent, and its split between the levels: each level its
 * whole cents, the cents left over to the largest fractions (the earlier level on a tie). Safe
 * integers while every product and sum stays below 2^53 (a line under about $6.8 million); BigInt
 * beyond.
 */
function exactTax(pieces: Pieces): { tax: number; cents: number[] } {
  const exact = [levelExact(pieces.state), levelExact(pieces.county), levelExact(pieces.city), levelExact(pieces.district)]
  const total = exact[0]! + exact[1]! + exact[2]! + exact[3]!
  if (!(total <= Number.MAX_SAFE_INTEGER && exact[0]! <= Number.MAX_SAFE_INTEGER && exact[1]! <= Number.MAX_SAFE_INTEGER && exact[2]! <= Number.MAX_SAFE_INTEGER && exact[3]! <= Number.MAX_SAFE_INTEGER)) return exactTaxBig(pieces)
  const cents = [0, 0, 0, 0]
  let whole = 0
  for (let i = 0; i < 4; i++) {
    const remainder = exact[i]! % CENT_UNITS
    cents[i] = (exact[i]! - remainder) / CENT_UNITS
    exact[i] = remainder
    whole += cents[i]!
  }
  const rounded = total + CENT_UNITS / 2
  const tax = (rounded - (rounded % CENT_UNITS)) / CENT_UNITS
  if (tax > whole) distribute(cents, exact, tax - whole)
  return { tax, cents }
}

function levelExact(pieces: readonly Piece[]): number {
  let exact = 0
  for (const piece of pieces) exact += piece.base * piece.rate
  return exact
}

function exactTaxBig(pieces: Pieces): { tax: number; cents: number[] } {
  const exact = LEVELS.map((level) => pieces[level].reduce((sum, p) => sum + BigInt(p.base) * BigInt(p.rate), 0n))
  const total = exact.reduce((a, b) => a + b, 0n)
  const tax = Number((total + CENT / 2n) / CENT)
  const cents = exact.map((x) => Number(x / CENT))
  distribute(cents, exact.map((x) => Number(x % CENT)), tax - cents.reduce((a, b) => a + b, 0))
  return { tax, cents }
}

/** Adds one cent to each of the `left` levels with the largest remainders (the earlier level on a tie), in place; `remainders` is used up. */
function distribute(cents: number[], remainders: number[], left: number): void {
  for (let k = 0; k < left; k++) {
    let best = 0
    for (let i = 1; i < 4; i++) if (remainders[i]! > remainders[best]!) best = i
    cents[best]! += 1
    remainders[best] = -1
  }
}
