// What a sales-tax return reads of an account's stored transactions in one state and period
// (server/portability/returns/), as one statement each engine runs with its own placeholders:
// transactions alike for a return — the same place, rate segment and exemption — summed in the
// database, and the few a return must read one by one (line items with product codes, or an
// amount a per-item cap on local taxes may cut) listed apart. The exemption is the transaction's
// own `exemption_type` when it exempts, else a marketplace sale's, else its customer's (exempt in
// the state, as order tax applies it); `non_exempt` keeps a customer's exemption off.
import type { LineItem } from './transaction-record.ts'

/** The exemptions a stored transaction can carry into a return. */
export const RETURN_EXEMPTIONS = ['wholesale', 'government', 'other', 'marketplace'] as const
export type ReturnExemption = (typeof RETURN_EXEMPTIONS)[number]

export type ReturnQuery = {
  state: string
  /** the period, inclusive (UTC dates) */
  from: string
  to: string
  /** an in-state seller's sales are placed at its own ZIP (the state sources them to the origin) */
  origin: boolean
  /** the first days of the period's rate segments after the first, ascending: segment i starts on breaks[i - 1] */
  breaks: readonly string[]
  /** money units: a transaction whose amount less shipping is larger in magnitude is listed on its own; null: none is for that */
  itemizeAbove: number | null
}

/** Where a group of transactions is placed: the ZIP (null for an origin-sourced sale sent without from_zip) and the city sent with it. */
export type ReturnPlace = { zip: string | null; city: string | null }

/** Transactions alike for a return, summed: money in units of 1/10,000 dollar, signed (refunds negative). */
export type ReturnGroup = ReturnPlace & {
  segment: number
  exemption: ReturnExemption | null
  count: number
  amount: bigint
  shipping: bigint
  salesTax: bigint
}

/** A transaction a return reads on its own. */
export type ItemizedTransaction = ReturnPlace & {
  date: string
  exemption: ReturnExemption | null
  amount: number
  shipping: number
  salesTax: number
  lineItems: LineItem[] | null
}

export type ReturnRows = { groups: ReturnGroup[]; itemized: ItemizedTransaction[] }

/** `$1`-style or `?` placeholders: the engine's. */
export type Placeholder = (index: number) => string

export type Statement = { sql: string; params: unknown[] }

// Stored line items are JSON.stringify'd LineItem objects: a code is a string value there, its absence
// null; a transaction without line items (NULL) has none, never an unknown. PostgreSQL indexes the
// rows it selects on this very expression (pg-migrations.ts: transactions_returns_itemized).
const HAS_PRODUCT_CODE = `coalesce(t.line_items LIKE '%"product_tax_code":"%', false)`

/** `sql` with each `:name` replaced by the engine's placeholder, in the order they appear (as `?` needs). */
function bind(sql: string, values: Record<string, unknown>, placeholder: Placeholder): Statement {
  const params: unknown[] = []
  return { sql: sql.replace(/:(\w+)/g, (_, name: string) => placeholder(params.push(values[name]))), params }
}

/** The two statements of a query: the groups, and the transactions read on their own. */
export function returnStatements(accountId: string, query: ReturnQuery, placeholder: Placeholder): { groups: Statement; itemized: Statement } {
  const values: Record<string, unknown> = { account: accountId, state: query.state, from: query.from, to: query.to, cap: query.itemizeAbove }
  query.breaks.forEach((day, i) => (values[`break${i}`] = day))
  const placed = (destination: string, origin: string) => (query.origin ? `CASE WHEN t.from_state = t.to_state THEN ${origin} ELSE ${destination} END` : destination)
  const place = `${placed('t.to_zip', 't.from_zip')} AS zip, ${placed('t.to_city', 't.from_city')} AS city`
  const exemption = `CASE
      WHEN t.exemption_type IN (${RETURN_EXEMPTIONS.map((type) => `'${type}'`).join(', ')}) THEN t.exemption_type
      WHEN t.marketplace THEN 'marketplace'
      WHEN t.exemption_type IS NULL AND c.exemption_type IN ('wholesale', 'government', 'other')
        AND (c.exempt_regions = '[]' OR strpos(c.exempt_regions, '"' || t.to_state || '"') > 0) THEN c.exemption_type
    END`
  const segment = query.breaks.length
    ? `CASE ${query.breaks.map((_, i) => i).reverse().map((i) => `WHEN t.transaction_date >= CAST(:break${i} AS DATE) THEN ${i + 1}`).join(' ')} ELSE 0 END`
    : '0'
  const itemized = query.itemizeAbove === null ? HAS_PRODUCT_CODE : `(${HAS_PRODUCT_CODE} OR abs(t.amount - t.shipping) > CAST(:cap AS BIGINT))`
  const from = `transactions AS t LEFT JOIN customers AS c ON c.account_id = t.account_id AND c.customer_id = t.customer_id
    WHERE t.account_id = :account AND t.to_state = :state AND t.transaction_date BETWEEN CAST(:from AS DATE) AND CAST(:to AS DATE)`
  return {
    groups: bind(
      `SELECT ${place}, ${segment} AS segment, ${exemption} AS exemption, CAST(count(*) AS INTEGER) AS n,
         CAST(sum(t.amount) AS VARCHAR) AS amount, CAST(sum(t.shipping) AS VARCHAR) AS shipping, CAST(sum(t.sales_tax) AS VARCHAR) AS sales_tax
       FROM ${from} AND NOT ${itemized}
       GROUP BY 1, 2, 3, 4`,
      values,
      placeholder,
    ),
    itemized: bind(
      `SELECT ${place}, CAST(t.transaction_date AS VARCHAR) AS transaction_date, ${exemption} AS exemption, t.amount, t.shipping, t.sales_tax, t.line_items
       FROM ${from} AND ${itemized}`,
      values,
      placeholder,
    ),
  }
}

const textOrNull = (value: unknown): string | null => (value === null || value === undefined ? null : String(value))
const exemptionOf = (value: unknown) => textOrNull(value) as ReturnExemption | null

export const returnGroupOf = (row: Record<string, unknown>): ReturnGroup => ({
  zip: textOrNull(row.zip),
  city: textOrNull(row.city),
  segment: Number(row.segment),
  exemption: exemptionOf(row.exemption),
  count: Number(row.n),
  amount: BigInt(String(row.amount)),
  shipping: BigInt(String(row.shipping)),
  salesTax: BigInt(String(row.sales_tax)),
})

export const itemizedOf = (row: Record<string, unknown>): ItemizedTransaction => ({
  zip: textOrNull(row.zip),
  city: textOrNull(row.city),
  date: String(row.transaction_date),
  exemption: exemptionOf(row.exemption),
  amount: Number(row.amount),
  shipping: Number(row.shipping),
  salesTax: Number(row.sales_tax),
  lineItems: row.line_items === null ? null : (JSON.parse(String(row.line_items)) as LineItem[]),
})
