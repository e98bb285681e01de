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
    { feed: 'sst', zip: '56139', expected: '0.06875', asOf: '2026-04-01', edition: '2026Q2FEB18', source: 'MNR2026Q2FEB18.csv state row 27,45,27 (0.06875); Pipestone County (117) has no county row and Holland (27-29618) no city row; Pipestone County is outside every district area of sources/mn-district-areas.ts' },
    { feed: 'sst', zip: '55401', expected: '0.09025', asOf: '2026-04-01', edition: '2026Q2FEB18', source: 'MNR2026Q2FEB18.csv rows 27,45,27 (0.06875), 27,00,053 Hennepin (0.0015), 27,01,43000 Minneapolis (0.005), 27,63,80004 (0.005 from 2017-10-01), 27,63,80008 (0.0075 from 2023-10-01), 27,63,80009 (0.0025 from 2023-10-01), the districts placed in Hennepin by sources/mn-district-areas.ts; mn-regional-taxes.md: the combined rate MN DOR publishes for Minneapolis is 9.025%' },
  ],
})
