// Rhode Island: Unchanged.
// Rules (rate, nexus, sourcing, freight) from shared rules table state-rules.csv; its sources: RI Division of Taxation remote-seller page; R.I.G.L. 44-18.2-3; STI RI page; OST audit 2026-06-21
import { defineState, SST_RATES_URL } from './descriptor.ts'

export default defineState({
  code: "RI",
  name: "Rhode Island",
  fips: "44",
  klass: "auto",
  feeds: [
    { kind: 'sst', ratesUrl: SST_RATES_URL },
    { kind: 'statutory', citation: "state rate 7.000% per rules table (RI Division of Taxation remote-seller page)" },
  ],
  stateRate: 7000,
  combinedBounds: [7000, 7000],
  hasSalesTax: true,
  localTaxes: "no",
  nexus: {
    dollarThreshold: 100000,
    transactionThreshold: 200,
    combine: "sales_or_transactions",
    measurementPeriod: "immediately preceding calendar year",
    salesCounted: "gross revenue",
    marketplaceSalesCounted: "included",
  },
  sourcing: "destination",
  freight: "taxable_if_item_taxable",
  freightTaxable: true,
  sstStatus: "full_member",
  rulesSource: "state-rules.csv (high confidence): RI Division of Taxation remote-seller page; R.I.G.L. 44-18.2-3; STI RI page; OST audit 2026-06-21",
  anchors: [
    { feed: 'statutory', zip: '02903', expected: '0.07000', asOf: '2026-12-01', edition: 'statutory', source: 'statutory state rate 7.000% (state-rules.csv, rules in force 2026-12-01); no local sales taxes' },
  ],
})
