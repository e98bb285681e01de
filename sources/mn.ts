// Minnesota: Unchanged.
// Rules (rate, nexus, sourcing, freight) from shared rules table state-rules.csv; its sources: MN DOR 'who needs to register'; STI MN page; AVALARA 2019 MN blog; OST shipping doc
import { defineState, SST_RATES_URL } from './descriptor.ts'

export default defineState({
  code: "MN",
  name: "Minnesota",
  fips: "27",
  klass: "auto",
  feeds: [
    { kind: 'sst', ratesUrl: SST_RATES_URL, rateFile: "MNR2026Q2FEB18.zip" },
    { kind: 'avalara-zip5', dropPattern: "TAXRATES_ZIP5_MN*.csv" },
  ],
  stateRate: 6875,
  combinedBounds: [0, 15875],
  hasSalesTax: true,
  localTaxes: "yes",
  nexus: {
    dollarThreshold: 100000,
    transactionThreshold: 200,
    combine: "sales_or_transactions",
    measurementPeriod: "12 months ending on the last day of the most recent calendar quarter",
    salesCounted: "retail sales",
    marketplaceSalesCounted: "included",
  },
  sourcing: "destination",
  freight: "taxable_if_item_taxable",
  freightTaxable: true,
  sstStatus: "full_member",
  rulesSource: "state-rules.csv (high confidence): MN DOR 'who needs to register'; STI MN page; AVALARA 2019 MN blog; OST shipping doc",
  anchors: [
    { feed: 'sst', zip: '56139', expected: '0.06875', asOf: '2026-04-01', edition: '2026Q2FEB18', source: 'MNR2026Q2FEB18.csv state row 27,45,27 (0.06875); Pipestone County (117) has no county row and Holland (27-29618) no city row; MN district rows (type 63) cannot be bound without the boundary file' },
  ],
})
