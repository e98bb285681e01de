// POST /v1/portability/taxes answered in the service's own shape: the same OrderTax as TaxJar's
// POST /v2/taxes, with money as decimal strings, rates as 5-decimal strings, each level's part
// of every line, and what the answer rests on (sourcing, the rows of the location taxed, its
// confidence and dates, and every note).
import * as z from 'zod'
import { LEVELS, type Level } from '../../snapshot-contract/model.ts'
import { formatRate } from '../../snapshot-contract/rate-units.ts'
import { RESOLVED_VIA } from '../lookup/located.ts'
import { CONFIDENCES, EFFECTIVE_DATE_BASES, RateRow, WarningItem } from '../lookup/tax-response.ts'
import type { PartTax } from '../order-tax/line-tax.ts'
import { levelTotals, type OrderTax } from '../order-tax/order-tax.ts'
import { formatMoney } from '../sale/money.ts'
import { SourcingBlock } from './rates-native.ts'

const Money = z.string().describe('dollars as a decimal string, e.g. "16.50"')
const Rate = z.string().regex(/^\d+\.\d{5}$/)

const LevelPart = z.object({ taxable_amount: Money, rate: Rate, tax_collectable: Money })
const Levels = z.object({ state: LevelPart, county: LevelPart, city: LevelPart, district: LevelPart.describe('special districts, summed') })

const Part = z.object({
  taxable_amount: Money.describe('the most taxed at any level'),
  tax_collectable: Money.describe('the exact tax rounded half up to the cent; the levels add up to it'),
  rate: Rate.describe('the rates applied, summed over the levels that tax something'),
  levels: Levels,
})

export const NativeOrderTaxBody = z
  .object({
    order_total_amount: Money.describe('amount plus shipping'),
    amount: Money.describe('the items after discounts'),
    shipping: Money,
    taxable_amount: Money,
    amount_to_collect: Money.describe('the sum of the lines\' and the shipping\'s tax_collectable'),
    rate: Rate.describe("the location's combined rate; 0 without nexus or under an exemption"),
    has_nexus: z.boolean(),
    nexus_basis: z.enum(['nexus_addresses', 'registrations']).describe('registrations: the registration list plus the from address'),
    tax_source: z.enum(['origin', 'destination']).nullable(),
    sourcing: SourcingBlock.nullable(),
    exemption: z.object({ type: z.string(), reason: z.string() }).nullable(),
    freight_taxable: z.boolean(),
    shipping_rule: z.object({
      applied: z.enum(['proportional', 'taxable', 'exempt', 'unverified']),
      rule: z.string().describe("the rules table's shipping_rule"),
    }),
    location: z.object({ zip: z.string(), state: z.string(), county: z.string(), city: z.string() }).describe('where the order is taxed'),
    rates: z.object({ state: Rate, county: Rate, city: Rate, district: Rate, combined: Rate }),
    components: z.array(RateRow).describe('the taxing authorities of the location'),
    levels: z.object({ state: LevelPart, county: LevelPart, city: LevelPart, district: LevelPart }).describe("every line's and the shipping's part, summed per level"),
    lines: z.array(
      Part.extend({
        id: z.string().nullable(),
        quantity: z.number().int(),
        unit_price: Money,
        discount: Money,
        product_tax_code: z.string().nullable(),
        category: z.string().nullable().describe('the category name; null for general goods'),
      }),
    ).describe('one per line item sent (none when the order sent only an amount)'),
    shipping_tax: Part,
    confidence: z.enum(CONFIDENCES),
    resolved_via: z.enum(RESOLVED_VIA),
    effective_date: z.string().nullable(),
    effective_date_basis: z.enum(EFFECTIVE_DATE_BASES),
    warnings: z.array(z.union([WarningItem, z.object({ code: z.string(), message: z.string() })])),
  })
  .meta({ id: 'OrderTax', description: 'Tax for an order. Money as decimal strings, rates as 5-decimal strings.' })
export type NativeOrderTaxBody = z.output<typeof NativeOrderTaxBody>

const money = (units: number) => formatMoney(units)
const cents = (value: number) => formatMoney(value * 100)

function levelsOf(part: PartTax) {
  return Object.fromEntries(LEVELS.map((l) => [l, { taxable_amount: money(part.levels[l].taxable), rate: formatRate(part.levels[l].rate), tax_collectable: cents(part.levels[l].tax) }])) as z.output<typeof Levels>
}

const partOf = (part: PartTax) => ({ taxable_amount: money(part.taxable), tax_collectable: cents(part.tax), rate: formatRate(part.rate), levels: levelsOf(part) })

export function nativeOrderTax(tax: OrderTax): NativeOrderTaxBody {
  const { rate, meta } = tax.location
  const totals = levelTotals(tax)
  const levelRate = (l: Level) => (tax.hasNexus && !tax.exemption ? tax.parts[l] : 0)
  return {
    order_total_amount: money(tax.amount + tax.shipping),
    amount: money(tax.amount),
    shipping: money(tax.shipping),
    taxable_amount: money(tax.taxable),
    amount_to_collect: cents(tax.amountToCollect),
    rate: formatRate(tax.rate),
    has_nexus: tax.hasNexus,
    nexus_basis: tax.nexusBasis,
    tax_source: tax.taxSource,
    sourcing: tax.sourcing,
    exemption: tax.exemption,
    freight_taxable: tax.freightTaxable,
    shipping_rule: { applied: tax.rules.shipping, rule: tax.rules.freight },
    location: { zip: rate.zip, state: rate.state, county: rate.county, city: rate.city },
    rates: { state: rate.state_rate, county: rate.county_rate, city: rate.city_rate, district: rate.combined_district_rate, combined: rate.combined_rate },
    components: tax.location.rows,
    levels: Object.fromEntries(LEVELS.map((l) => [l, { taxable_amount: money(totals[l].taxable), rate: formatRate(levelRate(l)), tax_collectable: cents(totals[l].tax) }])) as z.output<typeof Levels>,
    lines: tax.linesSent
      ? tax.lines.map(({ line, category, tax: part }) => ({
          id: line.id,
          quantity: line.quantity,
          unit_price: money(line.unitPrice),
          discount: money(line.discount),
          product_tax_code: line.code,
          category: category?.name ?? null,
          ...partOf(part),
        }))
      : [],
    shipping_tax: partOf(tax.shippingTax),
    confidence: meta.confidence,
    resolved_via: meta.resolved_via,
    effective_date: meta.effective_date,
    effective_date_basis: meta.effective_date_basis,
    warnings: [...meta.warnings, ...tax.notes],
  }
}
