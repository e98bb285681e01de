// An order-tax body read into exact values: money in units of 1/10,000 dollar, whole quantities,
// 5-digit ZIPs that belong to their states in the snapshot in service, and the line items'
// total checked against `amount`. Every problem is reported (not just the first), located within
// the body, as a 422.
import type { RateIndex } from '../../snapshot-contract/rate-index.ts'
import { validationError, type ValidationDetail } from '../http/validation.ts'
import { cleanText, stateOf, zipOf, type Fail } from '../sale/field-values.ts'
import { formatMoney, parseMoney } from '../sale/money.ts'
import { statesOfZip, zipStateMismatch } from '../sale/zip-state-check.ts'
import { EXEMPTION_TYPES, type ExemptionType } from '../store/transaction-record.ts'
import type { OrderTaxInput, TaxLineItemInput } from './order-tax-input.ts'

export type OrderAddress = { zip5: string; state: string; city: string | null; street: string | null }

export type OrderLine = {
  index: number
  id: string | null
  quantity: number
  /** money units */
  unitPrice: number
  discount: number
  /** quantity × unit price − discount */
  net: number
  /** the product_tax_code sent; null: general goods */
  code: string | null
}

export type OrderTaxRequest = {
  to: OrderAddress
  /** the seller's location (from_*), null when none was sent or it is outside the US */
  from: (Omit<OrderAddress, 'zip5'> & { zip5: string | null }) | null
  /** money units: the order excluding shipping */
  amount: number
  shipping: number
  /** null: no line items were sent (the amount is taxed as general goods) */
  lines: OrderLine[] | null
  customerId: string | null
  exemptionType: ExemptionType | null
  /** states of nexus_addresses; null when the field was not sent */
  nexusStates: string[] | null
}

const US = new Set(['US', 'USA', 'UNITED STATES', 'UNITED STATES OF AMERICA'])

export function readOrderTax(input: OrderTaxInput, rates: RateIndex): OrderTaxRequest {
  const detail: ValidationDetail[] = []
  const fail: Fail = (loc, msg, value) => detail.push({ loc: ['body', ...loc], msg, type: 'value_error', ...(value === undefined ? {} : { input: value }) })
  const text = (field: keyof OrderTaxInput) => cleanText(input[field], [field], fail)

  const toCountry = text('to_country')?.toUpperCase() ?? 'US'
  if (!US.has(toCountry)) fail(['to_country'], `to_country ${toCountry}: only US destinations are served`, input.to_country)
  const toState = stateOf(text('to_state'), ['to_state'], true, fail)
  const toZip = zipOf(input.to_zip, ['to_zip'], true, fail)
  if (toState && toZip) {
    const mismatch = zipStateMismatch(rates, toZip, toState)
    if (mismatch) detail.push({ loc: ['body', 'to_zip'], msg: mismatch, type: 'zip_state_mismatch', input: input.to_zip })
  }

  const from = readFrom(input, rates, fail)

  const money = (field: 'amount' | 'shipping', required: boolean): number | null => {
    const value = input[field]
    if (value === undefined || value === '') {
      if (required) fail([field], `${field} is required (0 when there is none)`)
      return null
    }
    return nonNegative(value, [field], fail)
  }
  const amount = money('amount', false)
  const shipping = money('shipping', true) ?? 0

  const lines = input.line_items && input.line_items.length > 0 ? input.line_items.map((line, i) => lineOf(line, i, fail)) : null
  if (lines && detail.length === 0) {
    const mismatch = amountMismatch(lines, amount)
    if (mismatch) fail(['amount'], mismatch, input.amount)
  }
  if (!lines && amount === null) fail(['amount'], 'amount or line_items is required')

  let exemptionType: ExemptionType | null = null
  const exemption = text('exemption_type')?.toLowerCase()
  if (exemption) {
    if ((EXEMPTION_TYPES as readonly string[]).includes(exemption)) exemptionType = exemption as ExemptionType
    else fail(['exemption_type'], `exemption_type must be one of ${EXEMPTION_TYPES.join(', ')}`, input.exemption_type)
  }

  const nexusStates = input.nexus_addresses ? input.nexus_addresses.flatMap((address, i) => nexusStateOf(address, i, rates, fail)) : null
  const customerId = text('customer_id')

  if (detail.length > 0) throw validationError(detail)
  return {
    to: { zip5: toZip!, state: toState!, city: text('to_city'), street: text('to_street') },
    from,
    amount: lines ? lines.reduce((sum, line) => sum + line.net, 0) : amount!,
    shipping,
    lines,
    customerId,
    exemptionType,
    nexusStates,
  }
}

function nonNegative(value: unknown, loc: (string | number)[], fail: Fail): number | null {
  const field = String(loc.at(-1))
  const parsed = parseMoney(value)
  if (!parsed.ok) {
    fail(loc, `${field}: ${parsed.reason}`, value)
    return null
  }
  if (parsed.units < 0) {
    fail(loc, `${field} must not be negative`, value)
    return null
  }
  return parsed.units
}

function readFrom(input: OrderTaxInput, rates: RateIndex, fail: Fail): OrderTaxRequest['from'] {
  const country = cleanText(input.from_country, ['from_country'], fail)?.toUpperCase()
  if (country && !US.has(country)) return null
  const state = stateOf(cleanText(input.from_state, ['from_state'], fail), ['from_state'], false, fail)
  const zip5 = zipOf(input.from_zip ?? undefined, ['from_zip'], false, fail)
  const city = cleanText(input.from_city, ['from_city'], fail)
  const street = cleanText(input.from_street, ['from_street'], fail)
  if (state && zip5) {
    const mismatch = zipStateMismatch(rates, zip5, state, 'from')
    if (mismatch) fail(['from_zip'], mismatch, input.from_zip)
    return { zip5, state, city, street }
  }
  if (zip5) {
    const states = statesOfZip(rates, zip5)
    if (states.length === 1) return { zip5, state: states[0]!, city, street }
    fail(['from_zip'], states.length === 0 ? `from_zip ${zip5} is not a known ZIP code` : `from_zip ${zip5} lies in ${states.join(' and ')}; send from_state too`, input.from_zip)
    return null
  }
  return state ? { zip5: null, state, city, street } : null
}

function lineOf(line: TaxLineItemInput, index: number, fail: Fail): OrderLine {
  const loc = (field: string) => ['line_items', index, field]
  let quantity = 1
  if (line.quantity !== undefined && line.quantity !== '') {
    const parsed = parseMoney(line.quantity)
    if (!parsed.ok) fail(loc('quantity'), `quantity: ${parsed.reason}`, line.quantity)
    else if (parsed.units < 0) fail(loc('quantity'), 'quantity must not be negative', line.quantity)
    else if (parsed.units % 10_000 !== 0) fail(loc('quantity'), 'quantity must be a whole number of items', line.quantity)
    else quantity = parsed.units / 10_000
  }
  let unitPrice = 0
  if (line.unit_price === undefined || line.unit_price === '') fail(loc('unit_price'), 'unit_price is required for every line item (0 for a free item)')
  else unitPrice = nonNegative(line.unit_price, loc('unit_price'), fail) ?? 0
  const discount = line.discount === undefined || line.discount === '' ? 0 : (nonNegative(line.discount, loc('discount'), fail) ?? 0)
  // A product of two integers is exact while it stays a safe integer, and past that the rounded product is larger still.
  const gross = quantity * unitPrice
  let net = 0
  if (gross > Number.MAX_SAFE_INTEGER) fail(loc('unit_price'), 'unit_price × quantity is too large')
  else if (discount > gross) fail(loc('discount'), `discount ${formatMoney(discount)} is more than the line's ${formatMoney(gross)}`, line.discount)
  else net = gross - discount
  const code = cleanText(line.product_tax_code, loc('product_tax_code'), fail)
  return { index, id: cleanText(line.id, loc('id'), fail), quantity, unitPrice, discount, net, code }
}

/** Line items total their prices after discounts; `amount`, when sent, must be that total or the total before discounts. */
function amountMismatch(lines: OrderLine[], amount: number | null): string | null {
  if (amount === null) return null
  const net = lines.reduce((sum, line) => sum + line.net, 0)
  const gross = lines.reduce((sum, line) => sum + line.net + line.discount, 0)
  if (amount === net || amount === gross) return null
  const before = gross === net ? '' : ` (${formatMoney(gross)} before discounts)`
  return `amount ${formatMoney(amount)} is not the line items' total, ${formatMoney(net)} after discounts${before}; amount excludes shipping`
}

function nexusStateOf(address: NonNullable<OrderTaxInput['nexus_addresses']>[number], index: number, rates: RateIndex, fail: Fail): string[] {
  const loc = (field: string) => ['nexus_addresses', index, field]
  const country = cleanText(address.country, loc('country'), fail)?.toUpperCase()
  if (country && !US.has(country)) return []
  const state = stateOf(cleanText(address.state, loc('state'), fail), loc('state'), false, fail)
  if (state) return [state]
  const zip5 = zipOf(address.zip ?? undefined, loc('zip'), false, fail)
  if (!zip5) {
    if (address.state === undefined || address.state === null) fail(loc('state'), 'state (or zip) is required for each nexus address')
    return []
  }
  const states = statesOfZip(rates, zip5)
  if (states.length === 1) return [states[0]!]
  fail(loc('zip'), states.length === 0 ? `zip ${zip5} is not a known ZIP code` : `zip ${zip5} lies in ${states.join(' and ')}; send state too`, address.zip)
  return []
}
