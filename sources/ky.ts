// Kentucky: Unchanged.
// Rules (rate, nexus, sourcing, freight) from shared rules table state-rules.csv; its sources: CBOX nexus (effectiveFrom 2026-08-01); TLX (changed between 2026-05 and 2026-08); trailingzero KY page; fastdemocracy KY 2026RS bill summary; STI KY page
import { defineState, SST_RATES_URL } from './descriptor.ts'

export default defineState({
  code: "KY",
  name: "Kentucky",
  fips: "21",
  klass: "auto",
  feeds: [
    { kind: 'sst', ratesUrl: SST_RATES_URL },
    { kind: 'statutory', citation: "state rate 6.000% per rules table (CBOX nexus (effectiveFrom 2026-08-01))" },
  ],
  stateRate: 6000,
  combinedBounds: [6000, 6000],
  hasSalesTax: true,
  localTaxes: "no",
  nexus: {
    dollarThreshold: 100000,
    transactionThreshold: null,
    combine: "sales_only",
    measurementPeriod: "previous or current calendar year",
    salesCounted: "gross receipts",
    marketplaceSalesCounted: "included",
  },
  sourcing: "destination",
  freight: "taxable_if_item_taxable",
  freightTaxable: true,
  sstStatus: "full_member",
  rulesSource: "state-rules.csv (medium confidence): CBOX nexus (effectiveFrom 2026-08-01); TLX (changed between 2026-05 and 2026-08); trailingzero KY page; fastdemocracy KY 2026RS bill summary; STI KY page",
  anchors: [
    { feed: 'statutory', zip: '40202', expected: '0.06000', asOf: '2026-12-01', edition: 'statutory', source: 'statutory state rate 6.000% (state-rules.csv, rules in force 2026-12-01); no local sales taxes' },
  ],
})
