// Montana: No general sales tax.
// Rules (rate, nexus, sourcing, freight) from shared rules table state-rules.csv; its sources: OST state-coverage.md; CBOX baseline
import { defineState } from './descriptor.ts'

export default defineState({
  code: "MT",
  name: "Montana",
  fips: "30",
  klass: "reload",
  feeds: [
    { kind: 'avalara-zip5', dropPattern: "TAXRATES_ZIP5_MT*.csv" },
  ],
  stateRate: 0,
  combinedBounds: [0, 3000],
  hasSalesTax: false,
  localTaxes: "limited",
  nexus: {
    dollarThreshold: null,
    transactionThreshold: null,
    combine: "none",
    measurementPeriod: "n/a",
    salesCounted: "n/a",
    marketplaceSalesCounted: "n/a",
  },
  sourcing: "n/a",
  freight: "n/a_no_sales_tax",
  freightTaxable: false,
  sstStatus: "not_member",
  rulesSource: "state-rules.csv (high confidence): OST state-coverage.md; CBOX baseline",
  anchors: [
    { feed: 'avalara-zip5', zip: '59601', expected: '0.00000', asOf: '2025-12-01', edition: '202512', source: 'TAXRATES_ZIP5_MT202512.csv row 59601 (HELENA): combined 0.000000 (Avalara estimate, a regression pin rather than a primary-source verification)' },
  ],
})
