// Massachusetts: Unchanged.
// Rules (rate, nexus, sourcing, freight) from shared rules table state-rules.csv; its sources: OST audit 2026-07-10; STI MA page; AVALARA 2019 MA FAQ; OST shipping doc
import { defineState } from './descriptor.ts'

export default defineState({
  code: "MA",
  name: "Massachusetts",
  fips: "25",
  klass: "static",
  feeds: [
    { kind: 'statutory', citation: "state rate 6.250% per rules table (OST audit 2026-07-10)" },
  ],
  stateRate: 6250,
  combinedBounds: [6250, 6250],
  hasSalesTax: true,
  localTaxes: "no",
  nexus: {
    dollarThreshold: 100000,
    transactionThreshold: null,
    combine: "sales_only",
    measurementPeriod: "previous or current calendar year",
    salesCounted: "gross sales (taxable + exempt)",
    marketplaceSalesCounted: "excluded if the facilitator collects",
  },
  sourcing: "destination",
  freight: "exempt_if_separately_stated",
  freightTaxable: false,
  sstStatus: "not_member",
  rulesSource: "state-rules.csv (high confidence): OST audit 2026-07-10; STI MA page; AVALARA 2019 MA FAQ; OST shipping doc",
  anchors: [
    { feed: 'statutory', zip: '02108', expected: '0.06250', asOf: '2026-12-01', edition: 'statutory', source: 'statutory state rate 6.250% (state-rules.csv, rules in force 2026-12-01); no local sales taxes' },
  ],
})
