// From the lenient input shape to a TransactionRecord: exact money, a UTC instant, a 5-digit ZIP
// that belongs to the state, TaxJar's rules on ids, exemptions and refunds. Every problem is
// reported (not just the first) as a validation detail located relative to the transaction.
import type { RateIndex } from '../../snapshot-contract/rate-index.ts'
import { validationError, type ValidationDetail } from '../http/validation.ts'
import { cleanText, stateOf, zipOf, type Fail } from '../sale/field-values.ts'
import { formatMoney, parseMoney } from '../sale/money.ts'
import { zipStateMismatch } from '../sale/zip-state-check.ts'
import { parseTransactionDate } from './transaction-date.ts'
import type { LineItemInput, TransactionInput } from './transaction-input.ts'
import {
  EXEMPTION_TYPES,
  MARKETPLACE_PROVIDERS,
  type ExemptionType,
  type LineItem,
  type TransactionKind,
  type TransactionRecord,
} from '../store/transaction-record.ts'

export type NormalizeOptions = {
  /** the snapshot in service's rates: to_zip must be used within to_state */
  rates: RateIndex
  /** fixed by the endpoint (TaxJar orders / refunds); otherwise `kind`, or the sign of `amount` */
  kind?: TransactionKind
  /** TaxJar refunds must name the order they refund */
  requireReference?: boolean
  /** x-api-version 2020-08-07: line items plus shipping must add up to amount */
  checkLineTotals?: boolean
}

export type Normalized = { ok: true; record: TransactionRecord } | { ok: false; detail: ValidationDetail[] }

const TRANSACTION_ID = /^[A-Za-z0-9_-]{1,255}$/
const PROVIDER = /^[a-z0-9_-]{1,64}$/
const US = new Set(['US', 'USA', 'UNITED STATES', 'UNITED STATES OF AMERICA'])

export function normalizeTransaction(input: TransactionInput, options: NormalizeOptions): Normalized {
  const detail: ValidationDetail[] = []
  const fail = (loc: (string | number)[], msg: string, input?: unknown) =>
    detail.push({ loc, msg, type: 'value_error', ...(input === undefined ? {} : { input }) })
  const text = (field: keyof TransactionInput, value: unknown = input[field]) => cleanText(value, [field], fail)

  const transactionId = input.transaction_id === undefined ? '' : String(input.transaction_id).trim()
  if (!transactionId) fail(['transaction_id'], 'transaction_id is required')
  else if (!TRANSACTION_ID.test(transactionId)) fail(['transaction_id'], 'transaction_id may only contain letters, digits, _ and - (at most 255)', input.transaction_id)

  const provider = (text('provider') ?? 'api').toLowerCase()
  if (!PROVIDER.test(provider)) fail(['provider'], 'provider may only contain letters, digits, _ and - (at most 64)', input.provider)

  let at = ''
  let date = ''
  if (input.transaction_date === undefined) fail(['transaction_date'], 'transaction_date is required')
  else {
    const parsed = parseTransactionDate(input.transaction_date)
    if (parsed.ok) ({ at, date } = parsed.value)
    else fail(['transaction_date'], parsed.reason, input.transaction_date)
  }

  const toCountry = (text('to_country') ?? 'US').toUpperCase()
  if (!US.has(toCountry)) fail(['to_country'], `only US transactions are tracked (to_country ${toCountry})`, input.to_country)

  const toState = stateOf(text('to_state'), ['to_state'], true, fail)
  const toZip = zipOf(input.to_zip, ['to_zip'], true, fail)
  if (toState && toZip) {
    const mismatch = zipStateMismatch(options.rates, toZip, toState)
    if (mismatch) detail.push({ loc: ['to_zip'], msg: mismatch, type: 'zip_state_mismatch', input: input.to_zip })
  }
  const fromState = stateOf(text('from_state'), ['from_state'], false, fail)
  const fromZip = zipOf(input.from_zip ?? undefined, ['from_zip'], false, fail)
  const toCity = text('to_city')
  const toStreet = text('to_street')
  const fromCountry = text('from_country')?.toUpperCase() ?? null
  const fromCity = text('from_city')
  const fromStreet = text('from_street')
  const customerId = text('customer_id')

  const money = (field: 'amount' | 'shipping' | 'sales_tax', required: boolean): number => {
    const value = input[field]
    if (value === undefined || value === '') {
      if (required) fail([field], `${field} is required`)
      return 0
    }
    const parsed = parseMoney(value)
    if (parsed.ok) return parsed.units
    fail([field], `${field}: ${parsed.reason}`, value)
    return 0
  }
  const amount = money('amount', true)
  const shipping = money('shipping', false)
  const salesTax = money('sales_tax', false)

  const kind: TransactionKind = options.kind ?? input.kind ?? (amount < 0 ? 'refund' : 'order')
  const sign = kind === 'refund' ? -1 : 1
  const signed = (units: number) => sign * Math.abs(units)

  let exemptionType: ExemptionType | null = null
  const exemption = text('exemption_type')?.toLowerCase()
  if (exemption) {
    if ((EXEMPTION_TYPES as readonly string[]).includes(exemption)) exemptionType = exemption as ExemptionType
    else fail(['exemption_type'], `exemption_type must be one of ${EXEMPTION_TYPES.join(', ')}`, input.exemption_type)
  }
  if (salesTax !== 0 && (exemptionType === 'wholesale' || exemptionType === 'government' || exemptionType === 'other')) {
    fail(['sales_tax'], `sales_tax must be 0 for an exemption_type of ${exemptionType}`, input.sales_tax)
  }

  const referenceId = text('transaction_reference_id')
  if (kind === 'refund' && options.requireReference && !referenceId) fail(['transaction_reference_id'], 'transaction_reference_id (the order refunded) is required for a refund')
  if (referenceId && referenceId === transactionId) fail(['transaction_id'], 'a refund needs its own transaction_id, different from transaction_reference_id')

  const lineItems = input.line_items ? input.line_items.map((line, i) => lineItemOf(line, i, sign, fail)) : null
  if (options.checkLineTotals && lineItems && lineItems.length > 0 && detail.length === 0) {
    const mismatch = lineTotalMismatch(lineItems, amount, shipping)
    if (mismatch) fail(['amount'], mismatch, input.amount)
  }

  if (detail.length > 0) return { ok: false, detail }
  return {
    ok: true,
    record: {
      provider,
      transactionId,
      kind,
      transactionAt: at,
      transactionDate: date,
      toCountry: 'US',
      toZip: toZip!,
      toState: toState!,
      toCity,
      toStreet,
      fromCountry,
      fromZip,
      fromState,
      fromCity,
      fromStreet,
      amount: signed(amount),
      shipping: signed(shipping),
      salesTax: signed(salesTax),
      customerId,
      exemptionType,
      marketplace: input.marketplace === true || exemptionType === 'marketplace' || MARKETPLACE_PROVIDERS.includes(provider),
      referenceId,
      lineItems,
    },
  }
}

/** The record of a request body, or a 422 whose problems are located within the body. */
export function recordOfBody(input: TransactionInput, options: NormalizeOptions): TransactionRecord {
  const normalized = normalizeTransaction(input, options)
  if (!normalized.ok) throw validationError(normalized.detail.map((d) => ({ ...d, loc: ['body', ...d.loc] })))
  return normalized.record
}

function lineItemOf(line: LineItemInput, index: number, sign: number, fail: Fail): LineItem {
  const loc = (field: string) => ['line_items', index, field]
  const money = (field: 'unit_price' | 'discount' | 'sales_tax' | 'quantity', fallback: string) => {
    const value = line[field]
    if (value === undefined || value === '') return fallback
    const parsed = parseMoney(value)
    if (parsed.ok) return formatMoney(field === 'quantity' ? Math.abs(parsed.units) : sign * Math.abs(parsed.units))
    fail(loc(field), `${field}: ${parsed.reason}`, value)
    return fallback
  }
  return {
    id: cleanText(line.id, loc('id'), fail),
    quantity: money('quantity', '1.00'),
    product_identifier: cleanText(line.product_identifier, loc('product_identifier'), fail),
    description: cleanText(line.description, loc('description'), fail),
    product_tax_code: cleanText(line.product_tax_code, loc('product_tax_code'), fail),
    unit_price: money('unit_price', '0.00'),
    discount: money('discount', '0.00'),
    sales_tax: money('sales_tax', '0.00'),
  }
}

/** Exact check in 1e-8 dollars: Σ(quantity × unit_price − discount) + shipping = amount. */
function lineTotalMismatch(lines: LineItem[], amount: number, shipping: number): string | null {
  const units = (text: string) => BigInt(Math.abs((parseMoney(text) as { units: number }).units))
  let total = 0n
  for (const line of lines) total += units(line.quantity) * units(line.unit_price) - units(line.discount) * 10_000n
  const expected = (BigInt(Math.abs(amount)) - BigInt(Math.abs(shipping))) * 10_000n
  if (total === expected) return null
  return `amount ${formatMoney(Math.abs(amount))} is not the line items (${formatMoney(total / 10_000n)}) plus shipping (${formatMoney(Math.abs(shipping))})`
}
