// California: CDTFA's statewide base rate 7.25% = 6.00% state + 1.25% mandatory uniform local (Bradley-Burns). Unchanged.
// Rules (rate, nexus, sourcing, freight) from shared rules table state-rules.csv; its sources: OST sovos-state-summary.tsv; OST shipping doc; CBOX sourcing note; STI CA marketplace page; GRANT THORNTON 2019 CA alert
import { defineState } from './descriptor.ts'

export default defineState({
  code: "CA",
  name: "California",
  fips: "06",
  klass: "auto",
  feeds: [
    { kind: 'cdtfa', url: 'https://www.cdtfa.ca.gov/taxes-and-fees/SalesTaxRates1-1-26.xlsx' },
    { kind: 'avalara-zip5', dropPattern: "TAXRATES_ZIP5_CA*.csv" },
  ],
  stateRate: 7250,
  combinedBounds: [0, 16250],
  hasSalesTax: true,
  localTaxes: "yes",
  nexus: {
    dollarThreshold: 500000,
    transactionThreshold: null,
    combine: "sales_only",
    measurementPeriod: "preceding or current calendar year",
    salesCounted: "gross: all sales of TPP delivered into CA, incl. exempt/resale, plus sales of related persons",
    marketplaceSalesCounted: "included",
  },
  sourcing: "mixed",
  freight: "exempt_if_separately_stated",
  freightTaxable: false,
  sstStatus: "not_member",
  rulesSource: "state-rules.csv (high confidence): OST sovos-state-summary.tsv; OST shipping doc; CBOX sourcing note; STI CA marketplace page; GRANT THORNTON 2019 CA alert",
  anchors: [
    { feed: 'cdtfa', zip: '95814', expected: '0.08750', asOf: '2026-01-01', edition: '2026-01-01', source: 'SalesTaxRates1-1-26.xlsx row "Sacramento, 0.0875, Sacramento, City"; HUD puts 95814 wholly in Sacramento County, USPS city SACRAMENTO' },
    { feed: 'cdtfa', zip: '95608', expected: '0.07750', asOf: '2026-01-01', edition: '2026-01-01', source: 'SalesTaxRates1-1-26.xlsx row "Sacramento County, 0.0775, Sacramento, County" (Carmichael is unincorporated)' },
    { feed: 'cdtfa', zip: '90012', expected: '0.09750', asOf: '2026-01-01', edition: '2026-01-01', source: 'SalesTaxRates1-1-26.xlsx row "Los Angeles, 0.0975, Los Angeles, City"' },
  ],
})
