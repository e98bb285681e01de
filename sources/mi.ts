// Michigan: Unchanged (constitutional cap).
// Rules (rate, nexus, sourcing, freight) from shared rules table state-rules.csv; its sources: STI MI pages; MCL 205.52c; SOVOS MI blog; Clayton McKervey + vatupdate on PA 20/21 of 2023
import { defineState, SST_RATES_URL } from './descriptor.ts'

export default defineState({
  code: "MI",
  name: "Michigan",
  fips: "26",
  klass: "auto",
  feeds: [
    { kind: 'sst', ratesUrl: SST_RATES_URL },
    { kind: 'statutory', citation: "state rate 6.000% per rules table (STI MI pages)" },
  ],
  stateRate: 6000,
  combinedBounds: [6000, 6000],
  hasSalesTax: true,
  localTaxes: "no",
  nexus: {
    dollarThreshold: 100000,
    transactionThreshold: 200,
    combine: "sales_or_transactions",
    measurementPeriod: "previous calendar year",
    salesCounted: "gross sales (taxable + nontaxable)",
    marketplaceSalesCounted: "included",
  },
  sourcing: "destination",
  freight: "exempt_if_separately_stated",
  freightTaxable: false,
  sstStatus: "full_member",
  rulesSource: "state-rules.csv (high confidence): STI MI pages; MCL 205.52c; SOVOS MI blog; Clayton McKervey + vatupdate on PA 20/21 of 2023",
  anchors: [
    { feed: 'statutory', zip: '48226', expected: '0.06000', asOf: '2026-12-01', edition: 'statutory', source: 'statutory state rate 6.000% (state-rules.csv, rules in force 2026-12-01); no local sales taxes' },
  ],
})
