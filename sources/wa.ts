// Washington: Unchanged.
// Rules (rate, nexus, sourcing, freight) from shared rules table state-rules.csv; its sources: SOVOS WA blog; Grant Thornton WA 2019 alert; OST audit 2026-06-29; OST shipping doc
import { defineState, SST_RATES_URL } from './descriptor.ts'

export default defineState({
  code: "WA",
  name: "Washington",
  fips: "53",
  klass: "auto",
  feeds: [
    { kind: 'sst', ratesUrl: SST_RATES_URL },
    { kind: 'avalara-zip5', dropPattern: "TAXRATES_ZIP5_WA*.csv" },
  ],
  stateRate: 6500,
  combinedBounds: [0, 15500],
  hasSalesTax: true,
  localTaxes: "yes",
  nexus: {
    dollarThreshold: 100000,
    transactionThreshold: null,
    combine: "sales_only",
    measurementPeriod: "current or prior calendar year",
    salesCounted: "cumulative gross receipts sourced to WA (all income, not just retail)",
    marketplaceSalesCounted: "unverified",
  },
  sourcing: "destination",
  freight: "taxable_if_item_taxable",
  freightTaxable: true,
  sstStatus: "full_member",
  rulesSource: "state-rules.csv (high confidence): SOVOS WA blog; Grant Thornton WA 2019 alert; OST audit 2026-06-29; OST shipping doc",
  anchors: [
    { feed: 'avalara-zip5', zip: '98101', expected: '0.10350', asOf: '2025-12-01', edition: '202512', source: 'TAXRATES_ZIP5_WA202512.csv row 98101 (SEATTLE): combined 0.103500 (Avalara estimate, a regression pin rather than a primary-source verification)' },
  ],
})
