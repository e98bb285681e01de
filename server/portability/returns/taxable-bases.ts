// What part of a sale each level of tax takes, for a return: at every level (state, county, city,
// district) the amount (shipping included, sales tax excluded) splits exactly into the part taxed
// at the jurisdiction's own rate, a part taxed at a reduced state rate (Tennessee's groceries), and
// exempt parts by kind. The rules are order tax's: the transaction's exemption, the state's freight
// rule for the shipping charge, each line item's product category (product-categories.ts) and a
// per-item cap on local taxes. Money in units of 1/10,000 dollar, signed (refunds negative); every
// split is of integers, so the parts of a level always add up to the amount.
import { LEVELS, type Level } from '../../../snapshot-contract/model.ts'
import { categoryOf, ruleIn } from '../../order-tax/product-categories.ts'
import type { StateRules } from '../../order-tax/state-rules.ts'
import { parseMoney } from '../../sale/money.ts'
import type { ItemizedTransaction, ReturnExemption } from '../../store/return-groups.ts'
import type { LineItem } from '../../store/transaction-record.ts'

/** Why a part of a sale is not taxed: the sale's exemption, or the part of it the rules leave out. */
export const EXEMPT_KINDS = ['wholesale', 'government', 'other', 'marketplace', 'shipping', 'products', 'local_item_cap'] as const
export type ExemptKind = (typeof EXEMPT_KINDS)[number]
export type ExemptParts = Record<ExemptKind, bigint>

export type LevelBase = {
  /** taxed at the jurisdiction's own rate */
  taxable: bigint
  /** taxed at a reduced rate (1e-5 units) instead: the state level only */
  reduced: { rate: number; base: bigint } | null
  exempt: ExemptParts
}

export type Bases = Record<Level, LevelBase>

/** A line item's product code a return could not apply (unknown, or not modelled in the state): its line was counted as general goods. */
export type UnappliedCode = { code: string; reason: string }

export const noExemptParts = (): ExemptParts => ({ wholesale: 0n, government: 0n, other: 0n, marketplace: 0n, shipping: 0n, products: 0n, local_item_cap: 0n })

const LOCAL_LEVELS: readonly Level[] = ['county', 'city', 'district']

/** Every level alike: `taxable` at the own rate, the rest exempt as `exempt` says. */
function sameAtEveryLevel(taxable: bigint, exempt: Partial<ExemptParts>): Bases {
  const level = (): LevelBase => ({ taxable, reduced: null, exempt: { ...noExemptParts(), ...exempt } })
  return { state: level(), county: level(), city: level(), district: level() }
}

/** How shipping is taxed in the state: its rule, or the freight_taxable flag where the rule is not verified. */
export const shippingRule = (rules: StateRules): 'proportional' | 'taxable' | 'exempt' =>
  rules.shipping === 'unverified' ? (rules.freightTaxable ? 'proportional' : 'exempt') : rules.shipping

/** Transactions without line items to read (or none with a product code): general goods, shipping by the state's rule. */
export function groupBases(exemption: ReturnExemption | null, amount: bigint, shipping: bigint, rules: StateRules): Bases {
  if (exemption) return sameAtEveryLevel(0n, { [exemption]: amount })
  // Proportional shipping follows general goods, all taxable: shipping is taxed in full.
  if (shippingRule(rules) === 'exempt') return sameAtEveryLevel(amount - shipping, { shipping })
  return sameAtEveryLevel(amount, {})
}

/** One line's part of the items, at each level. */
type LinePart = { taxable: bigint[]; reduced: bigint[]; reducedRate: number; products: bigint[]; cap: bigint[] }

/** A transaction read on its own: its line items' categories (or one general line of its amount less shipping), shipping by the state's rule. */
export function itemBases(transaction: ItemizedTransaction, rules: StateRules, countyFips: string | null, state: string, unapplied: (code: UnappliedCode) => void): Bases {
  const amount = BigInt(transaction.amount)
  if (transaction.exemption) return sameAtEveryLevel(0n, { [transaction.exemption]: amount })
  // Worked on magnitudes; a refund's parts are negated at the end.
  const sign = amount < 0n ? -1n : 1n
  const items = (amount - BigInt(transaction.shipping)) * sign
  const shipping = BigInt(transaction.shipping) * sign
  const lines = linesOf(transaction.lineItems, items, sign)
  const parts = lines.map((line) => linePart(line, rules, countyFips, state, unapplied))
  const bases = {} as Bases
  const rule = shippingRule(rules)
  LEVELS.forEach((level, l) => {
    let taxable = 0n
    let reduced = 0n
    const exempt = noExemptParts()
    let reducedRate = 0
    for (const part of parts) {
      taxable += part.taxable[l]!
      reduced += part.reduced[l]!
      exempt.products += part.products[l]!
      exempt.local_item_cap += part.cap[l]!
      if (part.reduced[l]! !== 0n) reducedRate = part.reducedRate
    }
    // The shipping charge: none of it, all of it, or the share the taxed items bear of the items' price.
    let shippingTaxable = 0n
    let shippingReduced = 0n
    if (rule === 'taxable' || (rule === 'proportional' && items === 0n)) shippingTaxable = shipping
    else if (rule === 'proportional') {
      shippingTaxable = share(shipping, taxable, items)
      shippingReduced = share(shipping, reduced, items)
    }
    exempt.shipping = shipping - shippingTaxable - shippingReduced
    taxable += shippingTaxable
    reduced += shippingReduced
    bases[level] = {
      taxable: taxable * sign,
      reduced: reduced === 0n ? null : { rate: reducedRate, base: reduced * sign },
      exempt: Object.fromEntries(Object.entries(exempt).map(([kind, value]) => [kind, value * sign])) as ExemptParts,
    }
  })
  return bases
}

type Line = { net: bigint; quantity: bigint; code: string | null }

const QUANTITY_SCALE = 10_000n

/**
 * The lines' prices after discount, made to add up to the items' price (the amount less shipping):
 * lines that do not are scaled to it, the units left over given to the largest lines. No line
 * items (or none priced): one general line of the items' price.
 */
function linesOf(items: LineItem[] | null, total: bigint, sign: bigint): Line[] {
  const read = (items ?? []).map((item) => {
    const quantity = moneyUnits(item.quantity) ?? QUANTITY_SCALE
    const gross = roundedDivision((moneyUnits(item.unit_price) ?? 0n) * quantity, QUANTITY_SCALE)
    return { net: (gross - (moneyUnits(item.discount) ?? 0n)) * sign, quantity: quantity < 0n ? -quantity : quantity, code: item.product_tax_code }
  })
  const sum = read.reduce((s, line) => s + line.net, 0n)
  if (read.length === 0 || sum === 0n) return [{ net: total, quantity: QUANTITY_SCALE, code: null }]
  if (sum === total) return read
  const scaled = read.map((line) => ({ ...line, net: (total * line.net) / sum }))
  let left = total - scaled.reduce((s, line) => s + line.net, 0n)
  const order = scaled.map((_, i) => i).sort((a, b) => (scaled[b]!.net > scaled[a]!.net ? 1 : -1))
  for (let k = 0; left !== 0n; k = (k + 1) % order.length) {
    const step = left > 0n ? 1n : -1n
    scaled[order[k]!]!.net += step
    left -= step
  }
  return scaled
}

/** A line's split at each level (in LEVELS order) by its category's rule in the state. */
function linePart(line: Line, rules: StateRules, countyFips: string | null, state: string, unapplied: (code: UnappliedCode) => void): LinePart {
  const zero = () => [0n, 0n, 0n, 0n]
  const part: LinePart = { taxable: zero(), reduced: zero(), reducedRate: 0, products: zero(), cap: zero() }
  const { net, quantity } = line
  const category = line.code === null ? null : categoryOf(line.code)
  if (line.code !== null && !category) unapplied({ code: line.code, reason: 'not a supported product tax code' })
  const rule = category ? ruleIn(category, state) : null
  if (rule?.kind === 'not_modeled') unapplied({ code: line.code!, reason: `not modelled in ${state}: ${rule.reason}` })
  // A code that cannot be applied leaves its line general goods, taxed at every level.
  const taxed = rule && rule.kind !== 'not_modeled' ? rule : null
  LEVELS.forEach((level, l) => {
    const local = level !== 'state'
    let base = net
    if (taxed?.kind === 'levels') {
      const treatment = local ? taxed.local : taxed.state
      if (treatment === 'exempt') base = 0n
      else if (typeof treatment === 'object') {
        part.reduced[l] = net
        part.reducedRate = treatment.rate
        return
      }
    } else if (taxed?.kind === 'exempt_up_to') {
      const free = roundedDivision(BigInt(taxed.perItem) * quantity, QUANTITY_SCALE)
      base = net > free ? net - free : 0n
    } else if (taxed?.kind === 'exempt_below') {
      const below = net < roundedDivision(BigInt(taxed.perItem) * quantity, QUANTITY_SCALE)
      const exemptHere = level === 'state' || level === 'district' || (countyFips !== null && taxed.localExemptCounties.includes(countyFips))
      if (below && exemptHere) base = 0n
    }
    part.products[l] = net - base
    if (rules.localItemCap && LOCAL_LEVELS.includes(level)) {
      const most = roundedDivision(BigInt(rules.localItemCap.perItem) * quantity, QUANTITY_SCALE)
      if (base > most) {
        part.cap[l] = base - most
        base = most
      }
    }
    part.taxable[l] = base
  })
  return part
}

/** x × part / whole, rounded half away from zero (whole ≠ 0). */
export function share(x: bigint, part: bigint, whole: bigint): bigint {
  return roundedDivision(x * part, whole)
}

/** a / b rounded half away from zero. */
export function roundedDivision(a: bigint, b: bigint): bigint {
  const negative = a < 0n !== b < 0n
  const n = a < 0n ? -a : a
  const d = b < 0n ? -b : b
  const q = (2n * n + d) / (2n * d)
  return negative ? -q : q
}

function moneyUnits(text: string | null | undefined): bigint | null {
  if (text === null || text === undefined) return null
  const parsed = parseMoney(text)
  return parsed.ok ? BigInt(parsed.units) : null
}
