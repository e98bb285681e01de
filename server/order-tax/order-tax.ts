// Tax for one order, the engine behind TaxJar's POST /v2/taxes and POST /v1/portability/taxes:
// each line's rule (before any lookup, so a refused code costs nothing), the destination through
// the GET /v1/tax resolver, nexus, exemptions (the order's exemption_type, else its customer's),
// sourcing (an in-state sale in an origin state is taxed at the seller's location), then each
// line and the shipping charge level by level (line-tax.ts). Integers throughout: money in
// 1/10,000 dollar, rates in 1e-5, tax in cents.
import type { Level } from '../../snapshot-contract/model.ts'
import { validationError } from '../http/validation.ts'
import type { RateParts } from '../lookup/rate-parts.ts'
import type { LookupSources } from '../lookup/resolve-lookup.ts'
import { utcDate } from '../sale/date-window.ts'
import type { CustomerRecord } from '../store/customers.ts'
import type { Registration } from '../store/nexus-registrations.ts'
import type { ExemptionType } from '../store/transaction-record.ts'
import { fullShipping, linePieces, noPieces, partTax, proportionalShipping, type PartTax, type Pieces } from './line-tax.ts'
import { orderNexus, type NexusBasis } from './order-nexus.ts'
import type { OrderLine, OrderTaxRequest } from './order-tax-request.ts'
import type { Category } from './product-categories.ts'
import { lineRules, type UnknownCodePolicy } from './product-taxability.ts'
import { decideSourcing, type MixedSourcingWarning, type Sourcing } from './sourcing.ts'
import { stateRules, type StateRules } from './state-rules.ts'
import { taxLocation, type TaxLocation } from './tax-location.ts'

export type OrderTaxContext = {
  sources: LookupSources
  registrations: () => Promise<readonly Registration[]>
  customer: (customerId: string) => Promise<CustomerRecord | null>
  unknownCodes: UnknownCodePolicy
  now: number
}

export type LineTax = { line: OrderLine; category: Category | null; tax: PartTax }

export type AppliedExemption = { type: ExemptionType; reason: string }

export type OrderTax = {
  /** money units */
  amount: number
  shipping: number
  hasNexus: boolean
  nexusBasis: NexusBasis
  /** origin or destination; null without nexus */
  taxSource: 'origin' | 'destination' | null
  sourcing: Sourcing | null
  /** the exemption_type sent (TaxJar echoes it) */
  exemptionSent: ExemptionType | null
  /** the exemption that zeroed the tax, with why */
  exemption: AppliedExemption | null
  destination: TaxLocation
  /** where the order is taxed: the destination, or the seller's location (origin) */
  location: TaxLocation
  parts: RateParts
  rules: StateRules
  /** one per line item; an order that sent none has one general line of its amount (linesSent false) */
  lines: LineTax[]
  linesSent: boolean
  shippingTax: PartTax
  freightTaxable: boolean
  /** money units: the most taxed at any level, lines and shipping */
  taxable: number
  /** cents */
  amountToCollect: number
  /** the location's combined rate; 0 without nexus or under an exemption */
  rate: number
  /** what a careful caller should know: sourcing splits, codes taxed as general, rules not verified */
  notes: { code: string; message: string }[]
}

const EXEMPTING: readonly ExemptionType[] = ['wholesale', 'government', 'marketplace', 'other']
const ZERO_TAX = partTax(noPieces())

/** Whether the customer's exemption holds for a sale into `state`. */
const customerExemptIn = (record: CustomerRecord, state: string): boolean =>
  record.exemptionType !== 'non_exempt' && (record.exemptRegions.length === 0 || record.exemptRegions.includes(state))

async function exemptionOf(request: OrderTaxRequest, ctx: OrderTaxContext, notes: OrderTax['notes']): Promise<AppliedExemption | null> {
  if (request.exemptionType) {
    return EXEMPTING.includes(request.exemptionType) ? { type: request.exemptionType, reason: `exemption_type ${request.exemptionType}: the order is exempt, no tax is collected` } : null
  }
  if (!request.customerId) return null
  const customer = await ctx.customer(request.customerId)
  if (!customer) {
    notes.push({ code: 'customer_not_found', message: `customer_id ${request.customerId} is not on file (POST /taxjar/v2/customers); the order was taxed without a customer exemption` })
    return null
  }
  if (!customerExemptIn(customer, request.to.state)) return null
  const where = customer.exemptRegions.length === 0 ? 'everywhere' : `in ${customer.exemptRegions.join(', ')}`
  return { type: customer.exemptionType as ExemptionType, reason: `customer ${customer.customerId} is exempt (${customer.exemptionType}) ${where}: no tax is collected` }
}

/** The seller's location for sourcing; an in-state sale in an origin state needs its ZIP. */
function sellerOf(request: OrderTaxRequest, rules: StateRules): { state: string; zip5: string | null } | null {
  const from = request.from
  if (!from) return null
  if (rules.sourcing === 'origin' && from.state === request.to.state && !from.zip5) {
    throw validationError([
      { loc: ['body', 'from_zip'], msg: `from_zip is required: ${from.state} taxes an in-state seller's sales at the seller's location (origin sourcing)`, type: 'value_error' },
    ])
  }
  return { state: from.state, zip5: from.zip5 }
}

function shippingPieces(request: OrderTaxRequest, rules: StateRules, lines: readonly Pieces[], parts: RateParts, notes: OrderTax['notes']): Pieces {
  let rule = rules.shipping
  if (rule === 'unverified') {
    notes.push({ code: 'shipping_rule_unverified', message: `the rules table has no verified shipping rule for ${request.to.state} (${rules.freight}); shipping follows its freight_taxable flag (${rules.freightTaxable})` })
    rule = rules.freightTaxable ? 'proportional' : 'exempt'
  }
  switch (rule) {
    case 'exempt':
      return noPieces()
    case 'taxable':
      return fullShipping(request.shipping, parts)
    default:
      return proportionalShipping(request.shipping, lines, request.amount, parts)
  }
}

const taxesSomething = (pieces: Pieces) => Object.values(pieces).some((level) => level.length > 0)

export async function orderTax(request: OrderTaxRequest, ctx: OrderTaxContext): Promise<OrderTax> {
  const state = request.to.state
  const rules = stateRules(state)!
  const notes: OrderTax['notes'] = []
  const lines = request.lines ?? [{ index: 0, id: null, quantity: 1, unitPrice: request.amount, discount: 0, net: request.amount, code: null }]
  const ruled = lineRules(lines, state, ctx.unknownCodes)
  for (const { asGeneral } of ruled) if (asGeneral) notes.push({ code: 'taxed_as_general', message: asGeneral })

  const today = utcDate(ctx.now)
  const destination = await taxLocation(request.to, ctx.sources, ctx.now, today)
  const nexus = orderNexus(request, await ctx.registrations(), today)
  const linesSent = request.lines !== null
  if (!nexus.states.has(state)) {
    notes.push({ code: 'no_nexus', message: `no nexus in ${state} (${nexus.basis === 'nexus_addresses' ? 'nexus_addresses' : 'registration list and from address'}): no tax is collected` })
    return {
      amount: request.amount,
      shipping: request.shipping,
      hasNexus: false,
      nexusBasis: nexus.basis,
      taxSource: null,
      sourcing: null,
      exemptionSent: request.exemptionType,
      exemption: null,
      destination,
      location: destination,
      parts: destination.parts,
      rules,
      lines: [],
      linesSent,
      shippingTax: ZERO_TAX,
      freightTaxable: false,
      taxable: 0,
      amountToCollect: 0,
      rate: 0,
      notes,
    }
  }

  const exemption = await exemptionOf(request, ctx, notes)
  const decision = decideSourcing(state, sellerOf(request, rules))
  if (decision.warning) notes.push(mixedNote(decision.warning))
  const location = decision.origin ? await taxLocation({ ...request.from!, zip5: decision.origin.zip5 }, ctx.sources, ctx.now, today) : destination
  const parts = location.parts
  const county = location.countyFips

  const cap = rules.localItemCap
  const pieces = lines.map((line, i) => (exemption ? noPieces() : linePieces(line.net, line.quantity, ruled[i]!.rule, parts, county, cap?.perItem ?? null)))
  if (cap && !exemption && (parts.county > 0 || parts.city > 0 || parts.district > 0)) {
    for (const line of lines) {
      if (line.net > cap.perItem * line.quantity) notes.push({ code: 'local_tax_item_cap', message: `line_items.${line.index}: local taxes apply only to the first part of each item's price: ${cap.source}` })
    }
  }
  ruled.forEach(({ rule }, i) => {
    if (!exemption && rule.kind === 'exempt_below' && lines[i]!.net < rule.perItem * lines[i]!.quantity && !(county && rule.localExemptCounties.includes(county))) {
      notes.push({ code: 'local_exemption_not_modelled', message: `line_items.${lines[i]!.index}: ${rule.localNote}` })
    }
  })
  const shippingSlices = exemption ? noPieces() : shippingPieces(request, rules, pieces, parts, notes)
  const lineTaxes = lines.map((line, i) => ({ line, category: ruled[i]!.category, tax: partTax(pieces[i]!) }))
  const shippingTax = partTax(shippingSlices)
  let taxable = shippingTax.taxable
  let amountToCollect = shippingTax.tax
  for (const { tax } of lineTaxes) {
    taxable += tax.taxable
    amountToCollect += tax.tax
  }
  // Object literals with every field written out: a spread here costs more than the whole tax.
  return {
    amount: request.amount,
    shipping: request.shipping,
    hasNexus: true,
    nexusBasis: nexus.basis,
    taxSource: decision.sourcing.applied,
    sourcing: decision.sourcing,
    exemptionSent: request.exemptionType,
    exemption,
    destination,
    location,
    parts,
    rules,
    lines: lineTaxes,
    linesSent,
    shippingTax,
    freightTaxable: !exemption && (rules.shipping === 'taxable' || (rules.shipping !== 'exempt' && rules.freightTaxable && pieces.some(taxesSomething))),
    taxable,
    amountToCollect,
    rate: exemption ? 0 : parts.combined,
    notes,
  }
}

const mixedNote = (warning: MixedSourcingWarning) => ({ code: warning.code, message: warning.message })

/** Per level, the taxable amounts and tax of every line and the shipping, summed. */
export function levelTotals(tax: OrderTax): Record<Level, { taxable: number; tax: number }> {
  const totals = { state: { taxable: 0, tax: 0 }, county: { taxable: 0, tax: 0 }, city: { taxable: 0, tax: 0 }, district: { taxable: 0, tax: 0 } }
  for (let i = 0; i <= tax.lines.length; i++) {
    const { levels } = i < tax.lines.length ? tax.lines[i]!.tax : tax.shippingTax
    totals.state.taxable += levels.state.taxable
    totals.state.tax += levels.state.tax
    totals.county.taxable += levels.county.taxable
    totals.county.tax += levels.county.tax
    totals.city.taxable += levels.city.taxable
    totals.city.tax += levels.city.tax
    totals.district.taxable += levels.district.taxable
    totals.district.tax += levels.district.tax
  }
  return totals
}
