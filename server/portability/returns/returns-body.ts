// The sales-tax return as GET /v1/portability/returns answers it: the schema for /openapi.json, the
// route's reply type and the client's types.
import * as z from 'zod'
import { LEVELS } from '../../../snapshot-contract/model.ts'
import { UNASSIGNED_REASONS } from './return-places.ts'
import { EXEMPT_KINDS } from './taxable-bases.ts'

export const RETURN_FORMATS = ['json', 'csv'] as const

const Money = z.string().describe('exact decimal string, e.g. "1234.50" (2 to 4 decimals); negative where refunds exceed sales')
const Cents = z.string().describe('decimal string in whole cents, e.g. "98.77"')

export const ExemptSales = z
  .object(Object.fromEntries(EXEMPT_KINDS.map((kind) => [kind, Money])) as Record<(typeof EXEMPT_KINDS)[number], typeof Money>)
  .describe(
    'the sales left untaxed, by why: the exemption_type wholesale, government or other (the transaction\'s, else its exempt customer\'s), marketplace (sold through a marketplace facilitator), shipping (the state does not tax a separately stated charge), products (line items whose product category the state exempts), local_item_cap (the part of an item above a cap on local taxes)',
  )
  .meta({ id: 'ReturnExemptSales' })

export const ReturnRow = z
  .object({
    jurisdiction: z.object({
      level: z.enum(LEVELS),
      code: z.string().describe("the source's code for the jurisdiction (as GET /v1/changes names it)"),
      name: z.string().nullable(),
    }),
    filing_code: z
      .object({ code: z.string(), system: z.string().describe('the code system, e.g. "SST jurisdiction code", "IDOR location code"') })
      .nullable()
      .describe("the code the state's return names the jurisdiction by, where the source gives it; null where it does not"),
    rate: z.string().describe('5-decimal fraction: the rate in force (a rate that changed within the period, or a reduced rate, is a row of its own)'),
    transactions: z.number().int().describe('orders and refunds counted in this row'),
    gross_sales: Money.describe('sales less refunds (amount: shipping included, sales tax excluded)'),
    exempt_sales: ExemptSales,
    taxable_sales: Money,
    tax_due: Cents.describe('taxable_sales at this rate, rounded to the cent'),
    tax_collected: Money.describe("the sales tax recorded on the transactions, split between a transaction's rows in proportion to their tax due"),
    difference: Money.describe('tax_collected less tax_due: above zero collected more than due, below zero less'),
    default_choice: z
      .object({ transactions: z.number().int(), gross_sales: Money })
      .describe("what of this row rests on a ZIP's default candidate: the ZIP spans several jurisdictions and the city sent named none of them"),
  })
  .meta({ id: 'ReturnRow' })

export const UnassignedReturnRow = z
  .object({
    reason: z.enum(UNASSIGNED_REASONS),
    message: z.string().describe('why, for the first transaction met'),
    transactions: z.number().int(),
    gross_sales: Money,
    tax_collected: Money,
    zips: z.array(z.string()).describe('up to 20 of the ZIPs concerned'),
  })
  .meta({ id: 'UnassignedReturnRow' })

export const ReturnTotals = z
  .object({
    transactions: z.number().int(),
    gross_sales: Money.describe('every transaction of the period, unassigned ones included: the sum of their amounts'),
    exempt_sales: ExemptSales.describe('at the state level'),
    taxable_sales: Money.describe('at the state level'),
    tax_due: Cents.describe('the sum of the rows\' tax_due'),
    tax_collected: Money.describe('every transaction\'s sales tax as recorded, unassigned ones included'),
    difference: Money,
  })
  .meta({ id: 'ReturnTotals' })

export const ReturnSource = z
  .object({
    from: z.string(),
    to: z.string(),
    data: z.enum(['served', 'held_edition', 'earlier_snapshot', 'none']).describe('the snapshot in service, an older edition it holds, an earlier snapshot, or none held (those days\' transactions are unassigned)'),
    snapshot: z.string().nullable(),
    edition: z.string().nullable(),
    feed: z.string().nullable(),
    source_kind: z.enum(['official', 'aggregator', 'statute']).nullable(),
  })
  .meta({ id: 'ReturnSource' })

export const ReturnNotice = z
  .object({
    code: z.string().describe('rates_not_held, aggregator_rates, product_code_not_applied, shipping_rule_unverified, mixed_sourcing, or a lookup warning code about the places'),
    message: z.string(),
    transactions: z.number().int().nullable().describe('the transactions it concerns, when counted'),
  })
  .meta({ id: 'ReturnNotice' })

export const ReturnsBody = z
  .object({
    state: z.string(),
    name: z.string(),
    period: z.object({ from: z.string(), to: z.string() }),
    snapshot: z.string().describe('the snapshot in service that answered'),
    rows: z.array(ReturnRow).describe('the state first, then counties, cities and districts, each by code and rate; local jurisdictions at a zero rate are left out'),
    unassigned: z.array(UnassignedReturnRow).describe('transactions no jurisdiction could be given, by reason: counted in the totals, never dropped'),
    totals: ReturnTotals,
    sources: z.array(ReturnSource).describe('which rate data answered which days of the period'),
    notices: z.array(ReturnNotice),
  })
  .meta({ id: 'SalesTaxReturn' })
export type ReturnsBody = z.infer<typeof ReturnsBody>
