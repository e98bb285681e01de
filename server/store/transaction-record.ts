// A transaction after normalization: what is stored and what every endpoint reads back.

export type TransactionKind = 'order' | 'refund'

export const EXEMPTION_TYPES = ['wholesale', 'government', 'marketplace', 'other', 'non_exempt'] as const
export type ExemptionType = (typeof EXEMPTION_TYPES)[number]

/** Providers whose sales are marketplace-facilitated (TaxJar's list). */
export const MARKETPLACE_PROVIDERS: readonly string[] = ['amazon', 'ebay', 'etsy', 'facebook', 'walmart']

/** Where a stored transaction came from. */
export type TransactionSource = 'api' | 'backfill' | 'taxjar'

/** A line item as stored and echoed: money as decimal strings, signed like the transaction. */
export type LineItem = {
  id: string | null
  quantity: string
  product_identifier: string | null
  description: string | null
  product_tax_code: string | null
  unit_price: string
  discount: string
  sales_tax: string
}

export type TransactionRecord = {
  provider: string
  transactionId: string
  kind: TransactionKind
  /** ISO instant, UTC */
  transactionAt: string
  /** UTC calendar date of transactionAt */
  transactionDate: string
  toCountry: string
  toZip: string
  toState: string
  toCity: string | null
  toStreet: string | null
  fromCountry: string | null
  fromZip: string | null
  fromState: string | null
  fromCity: string | null
  fromStreet: string | null
  /** units of 1/10,000 dollar (money.ts); positive for orders, negative for refunds */
  amount: number
  shipping: number
  salesTax: number
  customerId: string | null
  exemptionType: ExemptionType | null
  marketplace: boolean
  referenceId: string | null
  lineItems: LineItem[] | null
}

/** The identity of a stored transaction within an account. */
export type TransactionKey = { provider: string; transactionId: string; kind: TransactionKind }

export const keyOf = (record: TransactionRecord): TransactionKey => ({ provider: record.provider, transactionId: record.transactionId, kind: record.kind })
