// Maine: Unchanged. Category rates: 8% prepared food, 9% lodging, 10% short-term auto rental, 14% adult-use cannabis (from 2026-01-01).
// Rules (rate, nexus, sourcing, freight) from shared rules table state-rules.csv; its sources: OST audit 2026-07-11; STI ME page; AVALARA 2021 ME blog; OST shipping doc
import { defineState } from './descriptor.ts'

export default defineState({
  code: "ME",
  name: "Maine",
  fips: "23",
  klass: "static",
  feeds: [
    { kind: 'statutory', citation: "state rate 5.500% per rules table (OST audit 2026-07-11)" },
  ],
  stateRate: 5500,
  combinedBounds: [5500, 5500],
  hasSalesTax: true,
  localTaxes: "no",
  nexus: {
    dollarThreshold: 100000,
    transactionThreshold: null,
    combine: "sales_only",
    measurementPeriod: "previous or current calendar year",
    salesCounted: "gross sales",
    marketplaceSalesCounted: "excluded (once the facilitator certifies it collects)",
  },
  sourcing: "destination",
  freight: "exempt_if_separately_stated",
  freightTaxable: false,
  sstStatus: "not_member",
  rulesSource: "state-rules.csv (high confidence): OST audit 2026-07-11; STI ME page; AVALARA 2021 ME blog; OST shipping doc",
  anchors: [
    { feed: 'statutory', zip: '04101', expected: '0.05500', asOf: '2026-12-01', edition: 'statutory', source: 'statutory state rate 5.500% (state-rules.csv, rules in force 2026-12-01); no local sales taxes' },
  ],
})
