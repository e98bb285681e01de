// The legal facts of every state, DC and Puerto Rico, one row each, as the shared rules table
// state-rules.csv states them (the rules in force in Q4 2026): the general state rate over its
// effective windows, whether a sales tax exists, the economic-nexus rule, intrastate sourcing and
// the freight rule, with the table's sources for the row. The per-state descriptors hold what
// changes per state and per refresh; test/state-facts.test.ts compares every row with the CSV.
import * as z from 'zod'

/** The date the rules table vouches for: state-rules.md gives the rules in force in Q4 2026, "e.g. on 2026-12-01". */
export const RULES_TABLE_AS_OF = '2026-12-01'

const IsoDate = z.iso.date()

/** The general state rate in 1e-5 units from `from` through `to` (null: open). */
const RateWindow = z.object({
  rate: z.number().int().nonnegative(),
  from: IsoDate.nullable().default(null),
  to: IsoDate.nullable().default(null),
})
type RateWindow = z.infer<typeof RateWindow>

/** Which sales count toward the dollar threshold: all (gross), retail (not sales for resale), taxable only. */
export const SalesCounted = z.enum(['gross', 'retail', 'taxable', 'n/a'])
/** Whether a marketplace seller counts the sales a collecting facilitator made for it. */
export const MarketplaceSales = z.enum(['included', 'excluded', 'unverified', 'conflicting', 'n/a'])
/** Where an in-state seller's sale is taxed; interstate sales are destination-sourced everywhere. */
export const Sourcing = z.enum(['origin', 'destination', 'mixed', 'n/a'])
/** Whether a delivery charge is taxed: the table's shipping_rule. */
export const FreightRule = z.enum([
  'taxable_if_item_taxable',
  'exempt_if_separately_stated',
  'always_taxable',
  'n/a_no_sales_tax',
  'n/a_no_state_tax',
  'unverified',
])
export const NexusCombination = z.enum(['sales_only', 'sales_or_transactions', 'sales_and_transactions', 'none'])

const NexusRule = z.object({
  dollarThreshold: z.number().int().positive().nullable(),
  transactionThreshold: z.number().int().positive().nullable(),
  combine: NexusCombination,
  /** the state's own look-back, in the table's words */
  measurementPeriod: z.string().min(1),
  salesCounted: SalesCounted,
  marketplaceSales: MarketplaceSales,
  /** the table's words behind the two enums above (they carry conditions the enums leave out) */
  wording: z.object({ salesCounted: z.string().min(1), marketplaceSales: z.string().min(1) }),
})

export const StateFacts = z.object({
  code: z.string().regex(/^[A-Z]{2}$/),
  salesTax: z.enum(['yes', 'no', 'local_only']),
  /** oldest first, each starting the day after the previous ends; one is in force on RULES_TABLE_AS_OF */
  stateRates: z.array(RateWindow).min(1).superRefine(checkWindows),
  nexus: NexusRule,
  sourcing: Sourcing,
  freight: FreightRule,
  /** the rules table's sources for the row */
  source: z.string().min(1),
})
export type StateFacts = z.infer<typeof StateFacts>

export const STATE_FACTS: readonly StateFacts[] = z
  .array(StateFacts)
  .refine((rows) => new Set(rows.map((row) => row.code)).size === rows.length, 'one row per state')
  .parse(tableRows())

const BY_CODE: ReadonlyMap<string, StateFacts> = new Map(STATE_FACTS.map((row) => [row.code, row]))

/** The row of a state, DC or PR by its code (any case); undefined for a code the table does not hold. */
export const stateFacts = (code: string): StateFacts | undefined => BY_CODE.get(code.toUpperCase())

/** The general state rate in force on a date; null before the first window the table states. */
export function stateRateOn(facts: StateFacts, isoDate: string): number | null {
  return windowOn(facts.stateRates, isoDate)?.rate ?? null
}

/**
 * States whose local taxes apply only to the first part of a single item's price: the local levels
 * (county, city, district) tax at most `dollars` per item; the state level taxes the whole price.
 */
export const LOCAL_TAX_ITEM_CAPS: Readonly<Record<string, { dollars: number; source: string }>> = {
  FL: { dollars: 5000, source: 'Fla. Stat. 212.054(2)(b): the discretionary sales surtax applies only to the first $5,000 of the sales amount of a single item (OST st:florida)' },
}

/** The per-item cap on local taxes of a state, in dollars; null where local taxes apply to the whole price. */
export const localTaxItemCap = (code: string): { dollars: number; source: string } | null => LOCAL_TAX_ITEM_CAPS[code.toUpperCase()] ?? null

/** TaxJar's freight_taxable: delivery follows the goods, or is always taxed. */
export const freightTaxable = (facts: StateFacts): boolean => facts.freight === 'taxable_if_item_taxable' || facts.freight === 'always_taxable'

function checkWindows(windows: RateWindow[], context: z.RefinementCtx): void {
  windows.forEach((window, i) => {
    if (window.from !== null && window.to !== null && window.from > window.to) context.addIssue({ code: 'custom', message: `window ${i} ends before it starts` })
    const next = windows[i + 1]
    if (next && (window.to === null || next.from !== dayAfter(window.to))) {
      context.addIssue({ code: 'custom', message: `window ${i + 1} does not start the day after window ${i} ends` })
    }
  })
  if (!windowOn(windows, RULES_TABLE_AS_OF)) context.addIssue({ code: 'custom', message: `no rate in force on ${RULES_TABLE_AS_OF}` })
}

function windowOn(windows: readonly RateWindow[], isoDate: string): RateWindow | undefined {
  return windows.find((w) => (w.from === null || w.from <= isoDate) && (w.to === null || isoDate <= w.to))
}

function dayAfter(isoDate: string): string {
  return new Date(Date.parse(`${isoDate}T00:00:00Z`) + 86_400_000).toISOString().slice(0, 10)
}

/** Dated windows are the ones state_rate_notes states (DC's 2026 step, LA's 2025 rise and 2030 fall, SD's sunset, NM's cut). */
function tableRows(): z.input<typeof StateFacts>[] {
  return [
    {
      code: 'AK', salesTax: 'local_only', stateRates: [{ rate: 0 }],
      nexus: {
        dollarThreshold: 100000, transactionThreshold: null, combine: 'sales_only',
        measurementPeriod: 'previous calendar year per ARSSTC Uniform Code (several guides say current or previous)',
        salesCounted: 'gross', marketplaceSales: 'included',
        wording: { salesCounted: 'statewide gross sales delivered into Alaska (all of AK, not just member towns)', marketplaceSales: 'included' },
      },
      sourcing: 'destination', freight: 'n/a_no_state_tax',
      source: 'OST sovos-state-summary.tsv; OST current-state.md (ARSSTC module); AVALARA 2024-11 AK blog; STI AK chart row; ARSSTC code page',
    },
    {
      code: 'AL', salesTax: 'yes', stateRates: [{ rate: 4000 }],
      nexus: {
        dollarThreshold: 250000, transactionThreshold: null, combine: 'sales_only',
        measurementPeriod: 'previous calendar year',
        salesCounted: 'retail', marketplaceSales: 'excluded',
        wording: { salesCounted: 'retail sales of TPP into AL (plus a solicitation/activity requirement)', marketplaceSales: 'excluded (sales through a registered facilitator)' },
      },
      sourcing: 'destination', freight: 'exempt_if_separately_stated',
      source: 'OST sovos-state-summary.tsv; OST docs/legislation/shipping-taxability.md; CBOX nexus+baseline; STI AL nexus chart; AVIOR chart (12/31/25)',
    },
    {
      code: 'AR', salesTax: 'yes', stateRates: [{ rate: 6500 }],
      nexus: {
        dollarThreshold: 100000, transactionThreshold: 200, combine: 'sales_or_transactions',
        measurementPeriod: 'previous or current calendar year',
        salesCounted: 'taxable', marketplaceSales: 'excluded',
        wording: { salesCounted: 'taxable sales (some guides say aggregate/gross)', marketplaceSales: 'excluded' },
      },
      sourcing: 'destination', freight: 'taxable_if_item_taxable',
      source: 'OST sovos-state-summary.tsv; TLX nexus_thresholds.csv (2026-08-18); AVIOR chart (12/31/25); TAXVALET sheet; AVALARA Jan-2026 changes blog',
    },
    {
      code: 'AZ', salesTax: 'yes', stateRates: [{ rate: 5600 }],
      nexus: {
        dollarThreshold: 100000, transactionThreshold: null, combine: 'sales_only',
        measurementPeriod: 'previous or current calendar year',
        salesCounted: 'gross', marketplaceSales: 'excluded',
        wording: { salesCounted: 'gross sales', marketplaceSales: 'excluded' },
      },
      sourcing: 'origin', freight: 'exempt_if_separately_stated',
      source: 'OST sovos-state-summary.tsv; OST shipping doc; CBOX sourcing (TaxJar+Stripe); STI/HANDSOFF charts; TAXVALET sheet (9/2025)',
    },
    {
      code: 'CA', salesTax: 'yes', stateRates: [{ rate: 7250 }],
      nexus: {
        dollarThreshold: 500000, transactionThreshold: null, combine: 'sales_only',
        measurementPeriod: 'preceding or current calendar year',
        salesCounted: 'gross', marketplaceSales: 'included',
        wording: { salesCounted: 'gross: all sales of TPP delivered into CA, incl. exempt/resale, plus sales of related persons', marketplaceSales: 'included' },
      },
      sourcing: 'mixed', freight: 'exempt_if_separately_stated',
      source: 'OST sovos-state-summary.tsv; OST shipping doc; CBOX sourcing note; STI CA marketplace page; GRANT THORNTON 2019 CA alert',
    },
    {
      code: 'CO', salesTax: 'yes', stateRates: [{ rate: 2900 }],
      nexus: {
        dollarThreshold: 100000, transactionThreshold: null, combine: 'sales_only',
        measurementPeriod: 'previous or current calendar year (collect from 1st day of month after the 90th day past the threshold)',
        salesCounted: 'retail', marketplaceSales: 'excluded',
        wording: { salesCounted: 'retail sales (incl. exempt retail; excl. wholesale)', marketplaceSales: 'excluded (seller counts only direct sales)' },
      },
      sourcing: 'destination', freight: 'exempt_if_separately_stated',
      source: 'OST sovos-state-summary.tsv; OST shipping doc; STI CO codification page; CBOX (DR 1002 July 2026 note); CO leg SB20-099 page',
    },
    {
      code: 'CT', salesTax: 'yes', stateRates: [{ rate: 6350 }],
      nexus: {
        dollarThreshold: 100000, transactionThreshold: 200, combine: 'sales_and_transactions',
        measurementPeriod: '12-month period ending on the Sept 30 immediately preceding the filing period',
        salesCounted: 'retail', marketplaceSales: 'conflicting',
        wording: { salesCounted: 'gross receipts from retail sales (TPP and services)', marketplaceSales: 'conflicting: included per STI/TaxValet/Peisner; excluded per Avalara-derived guide' },
      },
      sourcing: 'destination', freight: 'taxable_if_item_taxable',
      source: 'OST audit 2026-07-04; OST sovos-state-summary.tsv; AVALARA 2019 CT blog; HANDSOFF chart; TAXVALET sheet; AVIOR chart',
    },
    {
      code: 'DC', salesTax: 'yes', stateRates: [{ rate: 6000, to: '2026-09-30' }, { rate: 7000, from: '2026-10-01' }],
      nexus: {
        dollarThreshold: 100000, transactionThreshold: 200, combine: 'sales_or_transactions',
        measurementPeriod: 'previous or current calendar year',
        salesCounted: 'retail', marketplaceSales: 'included',
        wording: { salesCounted: 'retail sales delivered into DC', marketplaceSales: 'included' },
      },
      sourcing: 'n/a', freight: 'taxable_if_item_taxable',
      source: 'OST district_of_columbia.py + audit 2026-07-04; KPMG TWIST 2025-12-15; Thomson Reuters FY2026 BSA note; DC OTR remote-seller FAQ; STI DC page; TLX',
    },
    {
      code: 'DE', salesTax: 'no', stateRates: [{ rate: 0 }],
      nexus: {
        dollarThreshold: null, transactionThreshold: null, combine: 'none',
        measurementPeriod: 'n/a',
        salesCounted: 'n/a', marketplaceSales: 'n/a',
        wording: { salesCounted: 'n/a', marketplaceSales: 'n/a' },
      },
      sourcing: 'n/a', freight: 'n/a_no_sales_tax',
      source: 'OST audit 2026-07-05; CBOX baseline',
    },
    {
      code: 'FL', salesTax: 'yes', stateRates: [{ rate: 6000 }],
      nexus: {
        dollarThreshold: 100000, transactionThreshold: null, combine: 'sales_only',
        measurementPeriod: 'previous calendar year',
        salesCounted: 'taxable', marketplaceSales: 'excluded',
        wording: { salesCounted: 'taxable remote sales', marketplaceSales: 'excluded' },
      },
      sourcing: 'destination', freight: 'exempt_if_separately_stated',
      source: 'OST audit 2026-07-05; OST shipping doc; CBOX FL note; TAXMATRIX FL page; nexusrules FL page; AVIOR chart',
    },
    {
      code: 'GA', salesTax: 'yes', stateRates: [{ rate: 4000 }],
      nexus: {
        dollarThreshold: 100000, transactionThreshold: 200, combine: 'sales_or_transactions',
        measurementPeriod: 'previous or current calendar year',
        salesCounted: 'retail', marketplaceSales: 'unverified',
        wording: { salesCounted: 'retail sales', marketplaceSales: 'unverified (one guide says excluded)' },
      },
      sourcing: 'destination', freight: 'taxable_if_item_taxable',
      source: 'OST sovos-state-summary.tsv; OST audit 2026-07-06; SOVOS GA nexus blog; AVIOR chart (12/31/25); TLX; nexusrules GA page',
    },
    {
      code: 'HI', salesTax: 'yes', stateRates: [{ rate: 4000 }],
      nexus: {
        dollarThreshold: 100000, transactionThreshold: 200, combine: 'sales_or_transactions',
        measurementPeriod: 'current or immediately preceding calendar year',
        salesCounted: 'gross', marketplaceSales: 'included',
        wording: { salesCounted: 'gross income/proceeds', marketplaceSales: 'included' },
      },
      sourcing: 'destination', freight: 'always_taxable',
      source: 'OST sovos-state-summary.tsv; OST audit 2026-07-06 + finding hi-maui; STI HI page; AVIOR chart; TLX',
    },
    {
      code: 'IA', salesTax: 'yes', stateRates: [{ rate: 6000 }],
      nexus: {
        dollarThreshold: 100000, transactionThreshold: null, combine: 'sales_only',
        measurementPeriod: 'previous or current calendar year',
        salesCounted: 'gross', marketplaceSales: 'included',
        wording: { salesCounted: 'gross revenue incl. exempt, wholesale/resale', marketplaceSales: 'included (Iowa DOR)' },
      },
      sourcing: 'destination', freight: 'exempt_if_separately_stated',
      source: 'Iowa DOR remote-seller page; OST shipping doc; SOVOS IA blog',
    },
    {
      code: 'ID', salesTax: 'yes', stateRates: [{ rate: 6000 }],
      nexus: {
        dollarThreshold: 100000, transactionThreshold: null, combine: 'sales_only',
        measurementPeriod: 'previous or current calendar year',
        salesCounted: 'gross', marketplaceSales: 'included',
        wording: { salesCounted: 'gross sales', marketplaceSales: 'included' },
      },
      sourcing: 'destination', freight: 'exempt_if_separately_stated',
      source: 'OST shipping doc; STI ID page; Idaho STC online-sellers page; CBOX ID baseline note',
    },
    {
      code: 'IL', salesTax: 'yes', stateRates: [{ rate: 6250 }],
      nexus: {
        dollarThreshold: 100000, transactionThreshold: null, combine: 'sales_only',
        measurementPeriod: 'preceding 12 months, re-tested at each quarter end',
        salesCounted: 'retail', marketplaceSales: 'excluded',
        wording: { salesCounted: 'gross receipts from TPP sales to IL purchasers (excl. resale and registrable vehicles)', marketplaceSales: 'excluded (verify against 86 Ill. Adm. Code 131.120)' },
      },
      sourcing: 'mixed', freight: 'exempt_if_separately_stated',
      source: 'OST sovos-state-summary.tsv; STI IL 2026 page; SOVOS IL update; TaxCloud IL note; STI/Fonoa IL sourcing 2025; AVALARA Jan-2026 blog; CBOX sourcing note',
    },
    {
      code: 'IN', salesTax: 'yes', stateRates: [{ rate: 7000 }],
      nexus: {
        dollarThreshold: 100000, transactionThreshold: null, combine: 'sales_only',
        measurementPeriod: 'previous or current calendar year',
        salesCounted: 'gross', marketplaceSales: 'excluded',
        wording: { salesCounted: 'gross revenue', marketplaceSales: 'excluded' },
      },
      sourcing: 'destination', freight: 'taxable_if_item_taxable',
      source: 'AVALARA 2024-03 IN/WY blog; HBK IN note; STI IN page; SALESTAXHELPER Jan-2026 list',
    },
    {
      code: 'KS', salesTax: 'yes', stateRates: [{ rate: 6500 }],
      nexus: {
        dollarThreshold: 100000, transactionThreshold: null, combine: 'sales_only',
        measurementPeriod: 'previous or current calendar year',
        salesCounted: 'gross', marketplaceSales: 'unverified',
        wording: { salesCounted: 'cumulative gross receipts', marketplaceSales: 'unverified (one guide says excludable if facilitator registered)' },
      },
      sourcing: 'destination', freight: 'exempt_if_separately_stated',
      source: 'OST sovos-state-summary.tsv; STI + AVALARA 2023 KS delivery pages; OST audit (KS); discern KS page',
    },
    {
      code: 'KY', salesTax: 'yes', stateRates: [{ rate: 6000 }],
      nexus: {
        dollarThreshold: 100000, transactionThreshold: null, combine: 'sales_only',
        measurementPeriod: 'previous or current calendar year',
        salesCounted: 'gross', marketplaceSales: 'included',
        wording: { salesCounted: 'gross receipts', marketplaceSales: 'included' },
      },
      sourcing: 'destination', freight: 'taxable_if_item_taxable',
      source: 'CBOX nexus (effectiveFrom 2026-08-01); TLX (changed between 2026-05 and 2026-08); trailingzero KY page; fastdemocracy KY 2026RS bill summary; STI KY page',
    },
    {
      code: 'LA', salesTax: 'yes', stateRates: [{ rate: 4450, to: '2024-12-31' }, { rate: 5000, from: '2025-01-01', to: '2029-12-31' }, { rate: 4750, from: '2030-01-01' }],
      nexus: {
        dollarThreshold: 100000, transactionThreshold: null, combine: 'sales_only',
        measurementPeriod: 'previous or current calendar year',
        salesCounted: 'gross', marketplaceSales: 'unverified',
        wording: { salesCounted: 'gross sales for remote sellers (facilitators: retail sales)', marketplaceSales: 'unverified' },
      },
      sourcing: 'destination', freight: 'taxable_if_item_taxable',
      source: 'OST louisiana audit (2026-07-10); LDR FAQ on delivery charges; Liskow on RIB 25-025; STI + Ryan on HB 171 (2023)',
    },
    {
      code: 'MA', salesTax: 'yes', stateRates: [{ rate: 6250 }],
      nexus: {
        dollarThreshold: 100000, transactionThreshold: null, combine: 'sales_only',
        measurementPeriod: 'previous or current calendar year',
        salesCounted: 'gross', marketplaceSales: 'excluded',
        wording: { salesCounted: 'gross sales (taxable + exempt)', marketplaceSales: 'excluded if the facilitator collects' },
      },
      sourcing: 'destination', freight: 'exempt_if_separately_stated',
      source: 'OST audit 2026-07-10; STI MA page; AVALARA 2019 MA FAQ; OST shipping doc',
    },
    {
      code: 'MD', salesTax: 'yes', stateRates: [{ rate: 6000 }],
      nexus: {
        dollarThreshold: 100000, transactionThreshold: 200, combine: 'sales_or_transactions',
        measurementPeriod: 'previous or current calendar year',
        salesCounted: 'gross', marketplaceSales: 'included',
        wording: { salesCounted: 'gross revenue', marketplaceSales: 'included' },
      },
      sourcing: 'destination', freight: 'exempt_if_separately_stated',
      source: 'OST audit 2026-07-11 + maryland.py; STI MD page; SOVOS MD blog; OST shipping doc',
    },
    {
      code: 'ME', salesTax: 'yes', stateRates: [{ rate: 5500 }],
      nexus: {
        dollarThreshold: 100000, transactionThreshold: null, combine: 'sales_only',
        measurementPeriod: 'previous or current calendar year',
        salesCounted: 'gross', marketplaceSales: 'excluded',
        wording: { salesCounted: 'gross sales', marketplaceSales: 'excluded (once the facilitator certifies it collects)' },
      },
      sourcing: 'destination', freight: 'exempt_if_separately_stated',
      source: 'OST audit 2026-07-11; STI ME page; AVALARA 2021 ME blog; OST shipping doc',
    },
    {
      code: 'MI', salesTax: 'yes', stateRates: [{ rate: 6000 }],
      nexus: {
        dollarThreshold: 100000, transactionThreshold: 200, combine: 'sales_or_transactions',
        measurementPeriod: 'previous calendar year',
        salesCounted: 'gross', marketplaceSales: 'included',
        wording: { salesCounted: 'gross sales (taxable + nontaxable)', marketplaceSales: 'included' },
      },
      sourcing: 'destination', freight: 'exempt_if_separately_stated',
      source: 'STI MI pages; MCL 205.52c; SOVOS MI blog; Clayton McKervey + vatupdate on PA 20/21 of 2023',
    },
    {
      code: 'MN', salesTax: 'yes', stateRates: [{ rate: 6875 }],
      nexus: {
        dollarThreshold: 100000, transactionThreshold: 200, combine: 'sales_or_transactions',
        measurementPeriod: '12 months ending on the last day of the most recent calendar quarter',
        salesCounted: 'retail', marketplaceSales: 'included',
        wording: { salesCounted: 'retail sales', marketplaceSales: 'included' },
      },
      sourcing: 'destination', freight: 'taxable_if_item_taxable',
      source: 'MN DOR \'who needs to register\'; STI MN page; AVALARA 2019 MN blog; OST shipping doc',
    },
    {
      code: 'MO', salesTax: 'yes', stateRates: [{ rate: 4225 }],
      nexus: {
        dollarThreshold: 100000, transactionThreshold: null, combine: 'sales_only',
        measurementPeriod: '12 months ending each calendar quarter (tested quarterly)',
        salesCounted: 'taxable', marketplaceSales: 'unverified',
        wording: { salesCounted: 'taxable sales of TPP', marketplaceSales: 'unverified (TaxCloud says included)' },
      },
      sourcing: 'origin', freight: 'exempt_if_separately_stated',
      source: 'OST sovos-state-summary.tsv + audit 2026-07-13; BDO/RSM on SB 153; TaxCloud MO blog; CBOX sourcing',
    },
    {
      code: 'MS', salesTax: 'yes', stateRates: [{ rate: 7000 }],
      nexus: {
        dollarThreshold: 250000, transactionThreshold: null, combine: 'sales_only',
        measurementPeriod: 'any consecutive 12-month period (prior 12 months)',
        salesCounted: 'gross', marketplaceSales: 'excluded',
        wording: { salesCounted: 'gross sales', marketplaceSales: 'excluded' },
      },
      sourcing: 'origin', freight: 'taxable_if_item_taxable',
      source: 'STI MS page; OST sovos-state-summary.tsv; CBOX sourcing + grocery note; OST shipping doc',
    },
    {
      code: 'MT', salesTax: 'no', stateRates: [{ rate: 0 }],
      nexus: {
        dollarThreshold: null, transactionThreshold: null, combine: 'none',
        measurementPeriod: 'n/a',
        salesCounted: 'n/a', marketplaceSales: 'n/a',
        wording: { salesCounted: 'n/a', marketplaceSales: 'n/a' },
      },
      sourcing: 'n/a', freight: 'n/a_no_sales_tax',
      source: 'OST state-coverage.md; CBOX baseline',
    },
    {
      code: 'NC', salesTax: 'yes', stateRates: [{ rate: 4750 }],
      nexus: {
        dollarThreshold: 100000, transactionThreshold: null, combine: 'sales_only',
        measurementPeriod: 'previous or current calendar year',
        salesCounted: 'gross', marketplaceSales: 'included',
        wording: { salesCounted: 'gross sales', marketplaceSales: 'included (NCDOR)' },
      },
      sourcing: 'destination', freight: 'taxable_if_item_taxable',
      source: 'NCDOR remote-sales page; AVALARA 2024-07 NC note; TaxValet NC note; OST audit 2026-07-14',
    },
    {
      code: 'ND', salesTax: 'yes', stateRates: [{ rate: 5000 }],
      nexus: {
        dollarThreshold: 100000, transactionThreshold: null, combine: 'sales_only',
        measurementPeriod: 'previous or current calendar year',
        salesCounted: 'taxable', marketplaceSales: 'excluded',
        wording: { salesCounted: 'taxable sales', marketplaceSales: 'excluded' },
      },
      sourcing: 'destination', freight: 'taxable_if_item_taxable',
      source: 'N.D.C.C. 57-39.2-02.2; STI ND page; SOVOS ND blog',
    },
    {
      code: 'NE', salesTax: 'yes', stateRates: [{ rate: 5500 }],
      nexus: {
        dollarThreshold: 100000, transactionThreshold: 200, combine: 'sales_or_transactions',
        measurementPeriod: 'previous or current calendar year',
        salesCounted: 'retail', marketplaceSales: 'included',
        wording: { salesCounted: 'retail sales', marketplaceSales: 'included (incl. sales through multivendor marketplace platforms)' },
      },
      sourcing: 'destination', freight: 'taxable_if_item_taxable',
      source: 'OST sovos-state-summary.tsv; OST shipping doc; TLX; AVIOR-era charts',
    },
    {
      code: 'NH', salesTax: 'no', stateRates: [{ rate: 0 }],
      nexus: {
        dollarThreshold: null, transactionThreshold: null, combine: 'none',
        measurementPeriod: 'n/a',
        salesCounted: 'n/a', marketplaceSales: 'n/a',
        wording: { salesCounted: 'n/a', marketplaceSales: 'n/a' },
      },
      sourcing: 'n/a', freight: 'n/a_no_sales_tax',
      source: 'OST state-coverage.md; CBOX baseline',
    },
    {
      code: 'NJ', salesTax: 'yes', stateRates: [{ rate: 6625 }],
      nexus: {
        dollarThreshold: 100000, transactionThreshold: 200, combine: 'sales_or_transactions',
        measurementPeriod: 'current or prior calendar year',
        salesCounted: 'gross', marketplaceSales: 'included',
        wording: { salesCounted: 'gross revenue (taxable + nontaxable retail)', marketplaceSales: 'included' },
      },
      sourcing: 'destination', freight: 'taxable_if_item_taxable',
      source: 'NJ Division of Taxation remote-seller page/FAQ; STI NJ page; vatcalc + fastdemocracy on S3604; TLX; AVIOR chart',
    },
    {
      code: 'NM', salesTax: 'yes', stateRates: [{ rate: 4875, from: '2023-07-01' }],
      nexus: {
        dollarThreshold: 100000, transactionThreshold: null, combine: 'sales_only',
        measurementPeriod: 'previous calendar year',
        salesCounted: 'taxable', marketplaceSales: 'excluded',
        wording: { salesCounted: 'taxable gross receipts', marketplaceSales: 'excluded if the marketplace provider collects (seller deduction)' },
      },
      sourcing: 'destination', freight: 'taxable_if_item_taxable',
      source: 'OST new_mexico.py/nm_data.py + finding nm-bernalillo; STI NM page; SOVOS NM blog; AVALARA July-2021 note',
    },
    {
      code: 'NV', salesTax: 'yes', stateRates: [{ rate: 6850 }],
      nexus: {
        dollarThreshold: 100000, transactionThreshold: 200, combine: 'sales_or_transactions',
        measurementPeriod: 'previous or current calendar year',
        salesCounted: 'retail', marketplaceSales: 'included',
        wording: { salesCounted: 'retail sales', marketplaceSales: 'included' },
      },
      sourcing: 'destination', freight: 'exempt_if_separately_stated',
      source: 'STI NV page; OST shipping doc; CBOX baseline note; OST audit (NV Q4-2025 file current)',
    },
    {
      code: 'NY', salesTax: 'yes', stateRates: [{ rate: 4000 }],
      nexus: {
        dollarThreshold: 500000, transactionThreshold: 100, combine: 'sales_and_transactions',
        measurementPeriod: 'immediately preceding four sales-tax quarters (quarters end Feb/May/Aug/Nov)',
        salesCounted: 'gross', marketplaceSales: 'unverified',
        wording: { salesCounted: 'gross receipts from TPP delivered into NY', marketplaceSales: 'unverified' },
      },
      sourcing: 'destination', freight: 'taxable_if_item_taxable',
      source: 'TaxCloud copy of NY TSB-M-19(4)S; Hodgson Russ; OST audit 2026-07-18; OST shipping doc',
    },
    {
      code: 'OH', salesTax: 'yes', stateRates: [{ rate: 5750 }],
      nexus: {
        dollarThreshold: 100000, transactionThreshold: 200, combine: 'sales_or_transactions',
        measurementPeriod: 'current or preceding calendar year',
        salesCounted: 'gross', marketplaceSales: 'unverified',
        wording: { salesCounted: 'gross receipts (incl. exempt sales)', marketplaceSales: 'unverified' },
      },
      sourcing: 'origin', freight: 'taxable_if_item_taxable',
      source: 'SOVOS OH blog; AVALARA 2019 OH blog; TLX; CBOX sourcing (TaxJar+Stripe); OST shipping doc',
    },
    {
      code: 'OK', salesTax: 'yes', stateRates: [{ rate: 4500 }],
      nexus: {
        dollarThreshold: 100000, transactionThreshold: null, combine: 'sales_only',
        measurementPeriod: 'preceding or current calendar year',
        salesCounted: 'taxable', marketplaceSales: 'excluded',
        wording: { salesCounted: 'taxable sales of TPP', marketplaceSales: 'excluded (where the facilitator collects)' },
      },
      sourcing: 'destination', freight: 'exempt_if_separately_stated',
      source: 'STI OK page; OST sovos-state-summary.tsv; OST shipping doc',
    },
    {
      code: 'OR', salesTax: 'no', stateRates: [{ rate: 0 }],
      nexus: {
        dollarThreshold: null, transactionThreshold: null, combine: 'none',
        measurementPeriod: 'n/a',
        salesCounted: 'n/a', marketplaceSales: 'n/a',
        wording: { salesCounted: 'n/a', marketplaceSales: 'n/a' },
      },
      sourcing: 'n/a', freight: 'n/a_no_sales_tax',
      source: 'OST sovos-state-summary.tsv; CBOX baseline',
    },
    {
      code: 'PA', salesTax: 'yes', stateRates: [{ rate: 6000 }],
      nexus: {
        dollarThreshold: 100000, transactionThreshold: null, combine: 'sales_only',
        measurementPeriod: 'previous calendar year (collection runs April 1 - March 31)',
        salesCounted: 'gross', marketplaceSales: 'included',
        wording: { salesCounted: 'gross sales', marketplaceSales: 'included' },
      },
      sourcing: 'origin', freight: 'taxable_if_item_taxable',
      source: 'OST sovos-state-summary.tsv + audit 2026-06-30; PA DOR answer 209; TaxJar PA support note; TaxCloud PA guide; CBOX sourcing',
    },
    {
      code: 'PR', salesTax: 'yes', stateRates: [{ rate: 10500 }],
      nexus: {
        dollarThreshold: 100000, transactionThreshold: 200, combine: 'sales_or_transactions',
        measurementPeriod: 'preceding 12-month period / prior year (sources word it differently)',
        salesCounted: 'gross', marketplaceSales: 'unverified',
        wording: { salesCounted: 'gross sales', marketplaceSales: 'unverified (sellers get an SUT Collection Release for facilitated sales)' },
      },
      sourcing: 'n/a', freight: 'unverified',
      source: 'OST puerto_rico.py + audit 2026-06-30 + finding pr-prepared-food; SOVOS PR regulatory update; RSM PR; TaxConnex PR',
    },
    {
      code: 'RI', salesTax: 'yes', stateRates: [{ rate: 7000 }],
      nexus: {
        dollarThreshold: 100000, transactionThreshold: 200, combine: 'sales_or_transactions',
        measurementPeriod: 'immediately preceding calendar year',
        salesCounted: 'gross', marketplaceSales: 'included',
        wording: { salesCounted: 'gross revenue', marketplaceSales: 'included' },
      },
      sourcing: 'destination', freight: 'taxable_if_item_taxable',
      source: 'RI Division of Taxation remote-seller page; R.I.G.L. 44-18.2-3; STI RI page; OST audit 2026-06-21',
    },
    {
      code: 'SC', salesTax: 'yes', stateRates: [{ rate: 6000 }],
      nexus: {
        dollarThreshold: 100000, transactionThreshold: null, combine: 'sales_only',
        measurementPeriod: 'previous or current calendar year',
        salesCounted: 'gross', marketplaceSales: 'included',
        wording: { salesCounted: 'gross revenue (taxable, exempt and wholesale; services)', marketplaceSales: 'included' },
      },
      sourcing: 'destination', freight: 'taxable_if_item_taxable',
      source: 'SC Rev. Ruling 18-14 (via Avalara/Burr); STI SC page; OST audit 2026-06-21',
    },
    {
      code: 'SD', salesTax: 'yes', stateRates: [{ rate: 4200, from: '2023-07-01', to: '2027-06-30' }, { rate: 4500, from: '2027-07-01' }],
      nexus: {
        dollarThreshold: 100000, transactionThreshold: null, combine: 'sales_only',
        measurementPeriod: 'previous or current calendar year',
        salesCounted: 'gross', marketplaceSales: 'unverified',
        wording: { salesCounted: 'gross revenue', marketplaceSales: 'unverified' },
      },
      sourcing: 'destination', freight: 'taxable_if_item_taxable',
      source: 'SD SB 30 (2023) enrolled text; AVALARA 2023 SD rate blog; OST audit 2026-06-29',
    },
    {
      code: 'TN', salesTax: 'yes', stateRates: [{ rate: 7000 }],
      nexus: {
        dollarThreshold: 100000, transactionThreshold: null, combine: 'sales_only',
        measurementPeriod: 'previous 12-month period',
        salesCounted: 'retail', marketplaceSales: 'unverified',
        wording: { salesCounted: 'retail sales incl. exempt retail sales, excl. sales for resale', marketplaceSales: 'unverified' },
      },
      sourcing: 'origin', freight: 'taxable_if_item_taxable',
      source: 'TN DOR RS-1/RS-3/SUT-29 articles; TCA 67-6-902/903; LBMC note; OST sovos-state-summary.tsv',
    },
    {
      code: 'TX', salesTax: 'yes', stateRates: [{ rate: 6250 }],
      nexus: {
        dollarThreshold: 500000, transactionThreshold: null, combine: 'sales_only',
        measurementPeriod: 'preceding 12 calendar months',
        salesCounted: 'gross', marketplaceSales: 'included',
        wording: { salesCounted: 'total Texas revenue (taxable, nontaxable and exempt)', marketplaceSales: 'included' },
      },
      sourcing: 'origin', freight: 'taxable_if_item_taxable',
      source: 'STI TX page (Rule 3.286); Texas Comptroller single local rate page; OST audit 2026-06-29; CBOX sourcing',
    },
    {
      code: 'UT', salesTax: 'yes', stateRates: [{ rate: 4850 }],
      nexus: {
        dollarThreshold: 100000, transactionThreshold: null, combine: 'sales_only',
        measurementPeriod: 'previous or current calendar year',
        salesCounted: 'gross', marketplaceSales: 'excluded',
        wording: { salesCounted: 'gross revenue', marketplaceSales: 'excluded if the facilitator collects' },
      },
      sourcing: 'origin', freight: 'exempt_if_separately_stated',
      source: 'STI UT 2025 page; Deloitte on SB 47; CBOX baseline/sourcing; OST shipping doc',
    },
    {
      code: 'VA', salesTax: 'yes', stateRates: [{ rate: 4300 }],
      nexus: {
        dollarThreshold: 100000, transactionThreshold: 200, combine: 'sales_or_transactions',
        measurementPeriod: 'previous or current calendar year',
        salesCounted: 'retail', marketplaceSales: 'excluded',
        wording: { salesCounted: 'retail sales (gross revenue from retail sales)', marketplaceSales: 'excluded' },
      },
      sourcing: 'origin', freight: 'exempt_if_separately_stated',
      source: 'STI VA page; OST va_data.py + audit 2026-06-29; CBOX VA note; TLX; OST shipping doc',
    },
    {
      code: 'VT', salesTax: 'yes', stateRates: [{ rate: 6000 }],
      nexus: {
        dollarThreshold: 100000, transactionThreshold: 200, combine: 'sales_or_transactions',
        measurementPeriod: 'any 12-month period preceding the monthly period (reviewed quarterly)',
        salesCounted: 'gross', marketplaceSales: 'included',
        wording: { salesCounted: 'gross sales', marketplaceSales: 'included (when the seller also sells directly)' },
      },
      sourcing: 'destination', freight: 'taxable_if_item_taxable',
      source: 'VT Dept. of Taxes remote-vendor page (32 V.S.A. 9701(9)(F)); STI VT marketplace page; SOVOS VT blog',
    },
    {
      code: 'WA', salesTax: 'yes', stateRates: [{ rate: 6500 }],
      nexus: {
        dollarThreshold: 100000, transactionThreshold: null, combine: 'sales_only',
        measurementPeriod: 'current or prior calendar year',
        salesCounted: 'gross', marketplaceSales: 'unverified',
        wording: { salesCounted: 'cumulative gross receipts sourced to WA (all income, not just retail)', marketplaceSales: 'unverified' },
      },
      sourcing: 'destination', freight: 'taxable_if_item_taxable',
      source: 'SOVOS WA blog; Grant Thornton WA 2019 alert; OST audit 2026-06-29; OST shipping doc',
    },
    {
      code: 'WI', salesTax: 'yes', stateRates: [{ rate: 5000 }],
      nexus: {
        dollarThreshold: 100000, transactionThreshold: null, combine: 'sales_only',
        measurementPeriod: 'previous or current calendar year',
        salesCounted: 'gross', marketplaceSales: 'included',
        wording: { salesCounted: 'gross sales', marketplaceSales: 'included (no registration needed if all sales go through collecting marketplaces)' },
      },
      sourcing: 'destination', freight: 'taxable_if_item_taxable',
      source: 'WI DOR remote-seller page; STI WI pages; OST audit 2026-06-29',
    },
    {
      code: 'WV', salesTax: 'yes', stateRates: [{ rate: 6000 }],
      nexus: {
        dollarThreshold: 100000, transactionThreshold: 200, combine: 'sales_or_transactions',
        measurementPeriod: 'previous or current calendar year',
        salesCounted: 'gross', marketplaceSales: 'included',
        wording: { salesCounted: 'gross sales', marketplaceSales: 'included' },
      },
      sourcing: 'destination', freight: 'taxable_if_item_taxable',
      source: 'WV Tax Division remote-seller page; STI WV pages; OST audit 2026-06-26; TLX',
    },
    {
      code: 'WY', salesTax: 'yes', stateRates: [{ rate: 4000 }],
      nexus: {
        dollarThreshold: 100000, transactionThreshold: null, combine: 'sales_only',
        measurementPeriod: 'current or immediately preceding calendar year',
        salesCounted: 'gross', marketplaceSales: 'excluded',
        wording: { salesCounted: 'gross revenue (taxable, exempt, wholesale)', marketplaceSales: 'excluded' },
      },
      sourcing: 'destination', freight: 'exempt_if_separately_stated',
      source: 'W.S. 39-15-501 (as amended 2024); STI WY page; AVALARA 2024-03 IN/WY blog; OST audit 2026-06-26',
    },
  ]
}
