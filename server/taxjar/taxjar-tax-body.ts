// TaxJar's `tax` object (POST /v2/taxes) from an OrderTax. TaxJar answers this endpoint with JSON
// numbers: each is an exact integer (money units, cents, rate units) written as its decimal —
// 10,000 money units as 1, 725 rate units as 0.00725 — which is the text of the double nearest
// it, the very double Number("19.99") reads, with nothing summed or multiplied in floating point.
// TaxJar's own inconsistent names are kept (state_tax_rate at the top, state_sales_tax_rate in
// shipping and line items, special_taxable_amount in shipping only). `exemption_reason` is ours:
// why an exemption applied.
import * as z from 'zod'
import { RATE_SCALE_DIGITS } from '../../snapshot-contract/rate-units.ts'
import { scaledNumberText } from '../base/scaled-number-text.ts'
import { MONEY_DECIMALS } from '../sale/money.ts'
import type { PartTax } from '../order-tax/line-tax.ts'
import { levelTotals, type OrderTax } from '../order-tax/order-tax.ts'

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

// The answer is written as JSON text directly, field by field in the schema's order: building
// the objects and serializing them cost more than the whole tax calculation. Every number is the
// text JSON.stringify would write for it (base/scaled-number-text.ts); every string goes through
// JSON.stringify.
const dollars = (units: number) => scaledNumberText(units, MONEY_DECIMALS)
const cents = (value: number) => scaledNumberText(value, 2)
const fraction = (units: number) => scaledNumberText(units, RATE_SCALE_DIGITS)
const string = (value: string | null) => (value === null ? 'null' : JSON.stringify(value))

/** The fields a line item's and the shipping's part share, then the district's taxable amount under `districtTaxable`, closing the object. */
function partText(part: PartTax, districtTaxable: string): string {
  const { state, county, city, district } = part.levels
  return (
    `"taxable_amount":${dollars(part.taxable)},"tax_collectable":${cents(part.tax)},"combined_tax_rate":${fraction(part.rate)},` +
    `"state_taxable_amount":${dollars(state.taxable)},"state_sales_tax_rate":${fraction(state.rate)},"state_amount":${cents(state.tax)},` +
    `"county_taxable_amount":${dollars(county.taxable)},"county_tax_rate":${fraction(county.rate)},"county_amount":${cents(county.tax)},` +
    `"city_taxable_amount":${dollars(city.taxable)},"city_tax_rate":${fraction(city.rate)},"city_amount":${cents(city.tax)},` +
    `"special_tax_rate":${fraction(district.rate)},"special_district_amount":${cents(district.tax)},"${districtTaxable}":${dollars(district.taxable)}}`
  )
}

function breakdownText(tax: OrderTax): string {
  const { state, county, city, district } = levelTotals(tax)
  const levelRate = (units: number) => fraction(tax.exemption ? 0 : units)
  let text =
    `{"taxable_amount":${dollars(tax.taxable)},"tax_collectable":${cents(tax.amountToCollect)},"combined_tax_rate":${fraction(tax.rate)},` +
    `"state_taxable_amount":${dollars(state.taxable)},"state_tax_rate":${levelRate(tax.parts.state)},"state_tax_collectable":${cents(state.tax)},` +
    `"county_taxable_amount":${dollars(county.taxable)},"county_tax_rate":${levelRate(tax.parts.county)},"county_tax_collectable":${cents(county.tax)},` +
    `"city_taxable_amount":${dollars(city.taxable)},"city_tax_rate":${levelRate(tax.parts.city)},"city_tax_collectable":${cents(city.tax)},` +
    `"special_district_taxable_amount":${dollars(district.taxable)},"special_tax_rate":${levelRate(tax.parts.district)},"special_district_tax_collectable":${cents(district.tax)},` +
    `"shipping":{${partText(tax.shippingTax, 'special_taxable_amount')},"line_items":[`
  for (let i = 0; i < tax.lines.length; i++) {
    const { line, tax: part } = tax.lines[i]!
    text += `${i === 0 ? '' : ','}{"id":${string(line.id)},${partText(part, 'special_district_taxable_amount')}`
  }
  return `${text}]}`
}

/** TaxJar's `{"tax": …}` answer as JSON text, matching TaxjarTaxBody. */
export function taxjarTaxText(tax: OrderTax): string {
  const { rate } = tax.location
  let text =
    `{"tax":{"order_total_amount":${dollars(tax.amount + tax.shipping)},"shipping":${dollars(tax.shipping)},"taxable_amount":${dollars(tax.taxable)},` +
    `"amount_to_collect":${cents(tax.amountToCollect)},"rate":${fraction(tax.rate)},"has_nexus":${tax.hasNexus},"freight_taxable":${tax.freightTaxable},` +
    `"tax_source":${string(tax.taxSource)}`
  if (tax.exemptionSent) text += `,"exemption_type":${string(tax.exemptionSent)}`
  if (tax.exemption) text += `,"exemption_reason":${string(tax.exemption.reason)}`
  text += `,"jurisdictions":{"country":"US","state":${string(rate.state)}`
  if (rate.county) text += `,"county":${string(rate.county)}`
  if (rate.city) text += `,"city":${string(rate.city)}`
  text += '}'
  if (tax.hasNexus && tax.linesSent) text += `,"breakdown":${breakdownText(tax)}`
  return `${text}}}`
}
