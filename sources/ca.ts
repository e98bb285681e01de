// California: CDTFA's statewide base rate 7.25% = 6.00% state + 1.25% mandatory uniform local (Bradley-Burns). Unchanged.
// Rules (rate, nexus, sourcing, freight) from shared rules table state-rules.csv; its sources: OST sovos-state-summary.tsv; OST shipping doc; CBOX sourcing note; STI CA marketplace page; GRANT THORNTON 2019 CA alert
import { defineState } from './descriptor.ts'

export default defineState({
  code: "CA",
  name: "California",
  fips: "06",
  klass: "auto",
  feed: { kind: 'cdtfa', url: 'https://www.cdtfa.ca.gov/taxes-and-fees/SalesTaxRates1-1-26.xlsx' },
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
  anchors: [],
})
