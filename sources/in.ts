// Indiana: Unchanged.
// Rules (rate, nexus, sourcing, freight) from shared rules table state-rules.csv; its sources: AVALARA 2024-03 IN/WY blog; HBK IN note; STI IN page; SALESTAXHELPER Jan-2026 list
import { defineState, SST_RATES_URL } from './descriptor.ts'

export default defineState({
  code: "IN",
  name: "Indiana",
  fips: "18",
  klass: "auto",
  feeds: [
    { kind: 'sst', ratesUrl: SST_RATES_URL },
    { kind: 'statutory', citation: "state rate 7.000% per rules table (AVALARA 2024-03 IN/WY blog)" },
  ],
  stateRate: 7000,
  combinedBounds: [7000, 7000],
  hasSalesTax: true,
  localTaxes: "no",
  nexus: {
    dollarThreshold: 100000,
    transactionThreshold: null,
    combine: "sales_only",
    measurementPeriod: "previous or current calendar year",
    salesCounted: "gross revenue",
    marketplaceSalesCounted: "excluded",
  },
  sourcing: "destination",
  freight: "taxable_if_item_taxable",
  freightTaxable: true,
  sstStatus: "full_member",
  rulesSource: "state-rules.csv (high confidence): AVALARA 2024-03 IN/WY blog; HBK IN note; STI IN page; SALESTAXHELPER Jan-2026 list",
  anchors: [
    { feed: 'statutory', zip: '46204', expected: '0.07000', asOf: '2026-12-01', edition: 'statutory', source: 'statutory state rate 7.000% (state-rules.csv, rules in force 2026-12-01); no local sales taxes' },
  ],
})
