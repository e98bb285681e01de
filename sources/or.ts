// Oregon: No general sales tax.
// Rules (rate, nexus, sourcing, freight) from shared rules table state-rules.csv; its sources: OST sovos-state-summary.tsv; CBOX baseline
import { defineState } from './descriptor.ts'

export default defineState({
  code: "OR",
  name: "Oregon",
  fips: "41",
  klass: "static",
  feeds: [
    { kind: 'statutory', citation: "state rate 0.000% per rules table (OST sovos-state-summary.tsv)" },
  ],
  stateRate: 0,
  combinedBounds: [0, 0],
  hasSalesTax: false,
  localTaxes: "no",
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
  rulesSource: "state-rules.csv (high confidence): OST sovos-state-summary.tsv; CBOX baseline",
  anchors: [
    { feed: 'statutory', zip: '97204', expected: '0.00000', asOf: '2026-12-01', edition: 'statutory', source: 'statutory state rate 0.000% (state-rules.csv, rules in force 2026-12-01); no local sales taxes' },
  ],
})
