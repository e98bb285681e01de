// Maryland: General rate unchanged. New 3% rate on data/IT and software-publishing services from 2025-07-01 (HB 352).
// Rules (rate, nexus, sourcing, freight) from shared rules table state-rules.csv; its sources: OST audit 2026-07-11 + maryland.py; STI MD page; SOVOS MD blog; OST shipping doc
import { defineState } from './descriptor.ts'

export default defineState({
  code: "MD",
  name: "Maryland",
  fips: "24",
  klass: "static",
  feeds: [
    { kind: 'statutory', citation: "state rate 6.000% per rules table (OST audit 2026-07-11 + maryland.py)" },
  ],
  stateRate: 6000,
  combinedBounds: [6000, 6000],
  hasSalesTax: true,
  localTaxes: "no",
  nexus: {
    dollarThreshold: 100000,
    transactionThreshold: 200,
    combine: "sales_or_transactions",
    measurementPeriod: "previous or current calendar year",
    salesCounted: "gross revenue",
    marketplaceSalesCounted: "included",
  },
  sourcing: "destination",
  freight: "exempt_if_separately_stated",
  freightTaxable: false,
  sstStatus: "not_member",
  rulesSource: "state-rules.csv (high confidence): OST audit 2026-07-11 + maryland.py; STI MD page; SOVOS MD blog; OST shipping doc",
  anchors: [
    { feed: 'statutory', zip: '21202', expected: '0.06000', asOf: '2026-12-01', edition: 'statutory', source: 'statutory state rate 6.000% (state-rules.csv, rules in force 2026-12-01); no local sales taxes' },
  ],
})
