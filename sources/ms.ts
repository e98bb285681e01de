// Mississippi: General rate unchanged; groceries cut from 7% to 5% on 2025-07-01.
// Rules (rate, nexus, sourcing, freight) from shared rules table state-rules.csv; its sources: STI MS page; OST sovos-state-summary.tsv; CBOX sourcing + grocery note; OST shipping doc
import { defineState } from './descriptor.ts'

export default defineState({
  code: "MS",
  name: "Mississippi",
  fips: "28",
  klass: "reload",
  feeds: [
    { kind: 'avalara-zip5', dropPattern: "TAXRATES_ZIP5_MS*.csv" },
  ],
  stateRate: 7000,
  combinedBounds: [0, 10000],
  hasSalesTax: true,
  localTaxes: "limited",
  nexus: {
    dollarThreshold: 250000,
    transactionThreshold: null,
    combine: "sales_only",
    measurementPeriod: "any consecutive 12-month period (prior 12 months)",
    salesCounted: "gross sales",
    marketplaceSalesCounted: "excluded",
  },
  sourcing: "origin",
  freight: "taxable_if_item_taxable",
  freightTaxable: true,
  sstStatus: "not_member",
  rulesSource: "state-rules.csv (high confidence): STI MS page; OST sovos-state-summary.tsv; CBOX sourcing + grocery note; OST shipping doc",
  anchors: [
    { feed: 'avalara-zip5', zip: '39201', expected: '0.08000', asOf: '2025-12-01', edition: '202512', source: 'TAXRATES_ZIP5_MS202512.csv row 39201 (JACKSON): combined 0.080000 (Avalara estimate, a regression pin rather than a primary-source verification)' },
  ],
})
