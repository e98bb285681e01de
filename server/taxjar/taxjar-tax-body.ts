// TaxJar's `tax` object (POST /v2/taxes) from an OrderTax. TaxJar answers this endpoint with JSON
// numbers: each is one division of an exact integer by a power of ten (money units by 10,000,
// cents by 100, rate units by 100,000). IEEE division rounds correctly, so the result is the
// double nearest the exact decimal — the very double Number("19.99") reads — with nothing summed
// or multiplied in floating point. TaxJar's own inconsistent names are
// kept (state_tax_rate at the top, state_sales_tax_rate in shipping and line items,
// special_taxable_amount in shipping only). `exemption_reason` is ours: why an exemption applied.
import { z } from 'zod'
import { MONEY_SCALE } from '../portability/money.ts'
import type { PartTax } from './line-tax.ts'
import { levelTotals, type OrderTax } from './order-tax.ts'

const amount = z.number().describe('dollars, e.g. 16.5')
const rate = z.number().describe('a fraction, e.g. 0.0725')

/** The fields a line item's and the shipping's part share; each names its district taxable amount its own way. */
const PART_SHAPE = {
  taxable_amount: amount,
  tax_collectable: amount,
  combined_tax_rate: rate,
  state_taxable_amount: amount,
  state_sales_tax_rate: rate,
  state_amount: amount,
  county_taxable_amount: amount,
  county_tax_rate: rate,
  county_amount: amount,
  city_taxable_amount: amount,
  city_tax_rate: rate,
  city_amount: amount,
  special_tax_rate: rate,
  special_district_amount: amount,
}

const TaxjarShippingBreakdown = z.object({ ...PART_SHAPE, special_taxable_amount: amount }).meta({ id: 'TaxjarShippingBreakdown' })
const TaxjarLineBreakdown = z
  .object({ id: z.string().nullable(), ...PART_SHAPE, special_district_taxable_amount: amount })
  .meta({ id: 'TaxjarLineBreakdown' })

export const TaxjarBreakdown = z
  .object({
    taxable_amount: amount,
    tax_collectable: amount,
    combined_tax_rate: rate,
    state_taxable_amount: amount,
    state_tax_rate: rate,
    state_tax_collectable: amount,
    county_taxable_amount: amount,
    county_tax_rate: rate,
    county_tax_collectable: amount,
    city_taxable_amount: amount,
    city_tax_rate: rate,
    city_tax_collectable: amount,
    special_district_taxable_amount: amount,
    special_tax_rate: rate,
    special_district_tax_collectable: amount,
    shipping: TaxjarShippingBreakdown,
    line_items: z.array(TaxjarLineBreakdown),
  })
  .meta({ id: 'TaxjarBreakdown' })

export const TaxjarTax = z
  .object({
    order_total_amount: amount.describe('amount plus shipping'),
    shipping: amount,
    taxable_amount: amount,
    amount_to_collect: amount.describe('the sum of each line item\'s and the shipping\'s tax, each rounded half up to the cent'),
    rate: rate.describe("the location's combined rate; 0 without nexus or under an exemption"),
    has_nexus: z.boolean(),
    freight_taxable: z.boolean(),
    tax_source: z.enum(['origin', 'destination']).nullable(),
    exemption_type: z.string().optional().describe('as sent, when sent'),
    exemption_reason: z.string().optional().describe('taxatlas: why no tax is collected, when an exemption applied'),
    jurisdictions: z.object({ country: z.literal('US'), state: z.string(), county: z.string().optional(), city: z.string().optional() }),
    breakdown: TaxjarBreakdown.optional().describe('omitted without nexus and when no line_items were sent'),
  })
  .meta({ id: 'TaxjarTax' })

export const TaxjarTaxBody = z.object({ tax: TaxjarTax }).meta({ id: 'TaxjarTaxes' })
export type TaxjarTaxBody = z.output<typeof TaxjarTaxBody>

const RATE_SCALE = 100_000

const dollars = (units: number) => units / MONEY_SCALE
const cents = (value: number) => value / 100
const fraction = (units: number) => units / RATE_SCALE

/** The fields a line item's and the shipping's part share, written out (a spread costs more here than the tax). */
function partFields(part: PartTax) {
  const { state, county, city, district } = part.levels
  return {
    taxable_amount: dollars(part.taxable),
    tax_collectable: cents(part.tax),
    combined_tax_rate: fraction(part.rate),
    state_taxable_amount: dollars(state.taxable),
    state_sales_tax_rate: fraction(state.rate),
    state_amount: cents(state.tax),
    county_taxable_amount: dollars(county.taxable),
    county_tax_rate: fraction(county.rate),
    county_amount: cents(county.tax),
    city_taxable_amount: dollars(city.taxable),
    city_tax_rate: fraction(city.rate),
    city_amount: cents(city.tax),
    special_tax_rate: fraction(district.rate),
    special_district_amount: cents(district.tax),
  }
}

/** TaxJar names the district's taxable amount one way for shipping and another for line items. */
const shippingFields = (part: PartTax): z.output<typeof TaxjarShippingBreakdown> =>
  Object.assign(partFields(part), { special_taxable_amount: dollars(part.levels.district.taxable) })

const lineFields = (id: string | null, part: PartTax): z.output<typeof TaxjarLineBreakdown> =>
  Object.assign(partFields(part), { id, special_district_taxable_amount: dollars(part.levels.district.taxable) })

function breakdownOf(tax: OrderTax): z.output<typeof TaxjarBreakdown> {
  const { state, county, city, district } = levelTotals(tax)
  const levelRate = (units: number) => fraction(tax.exemption ? 0 : units)
  return {
    taxable_amount: dollars(tax.taxable),
    tax_collectable: cents(tax.amountToCollect),
    combined_tax_rate: fraction(tax.rate),
    state_taxable_amount: dollars(state.taxable),
    state_tax_rate: levelRate(tax.parts.state),
    state_tax_collectable: cents(state.tax),
    county_taxable_amount: dollars(county.taxable),
    county_tax_rate: levelRate(tax.parts.county),
    county_tax_collectable: cents(county.tax),
    city_taxable_amount: dollars(city.taxable),
    city_tax_rate: levelRate(tax.parts.city),
    city_tax_collectable: cents(city.tax),
    special_district_taxable_amount: dollars(district.taxable),
    special_tax_rate: levelRate(tax.parts.district),
    special_district_tax_collectable: cents(district.tax),
    shipping: shippingFields(tax.shippingTax),
    line_items: tax.lines.map(({ line, tax: part }) => lineFields(line.id, part)),
  }
}

export function taxjarTaxBody(tax: OrderTax): TaxjarTaxBody {
  const { rate } = tax.location
  return {
    tax: {
      order_total_amount: dollars(tax.amount + tax.shipping),
      shipping: dollars(tax.shipping),
      taxable_amount: dollars(tax.taxable),
      amount_to_collect: cents(tax.amountToCollect),
      rate: fraction(tax.rate),
      has_nexus: tax.hasNexus,
      freight_taxable: tax.freightTaxable,
      tax_source: tax.taxSource,
      ...(tax.exemptionSent ? { exemption_type: tax.exemptionSent } : {}),
      ...(tax.exemption ? { exemption_reason: tax.exemption.reason } : {}),
      jurisdictions: { country: 'US', state: rate.state, ...(rate.county ? { county: rate.county } : {}), ...(rate.city ? { city: rate.city } : {}) },
      ...(tax.hasNexus && tax.linesSent ? { breakdown: breakdownOf(tax) } : {}),
    },
  }
}
