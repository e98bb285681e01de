// North Dakota: Unchanged.
// Rules (rate, nexus, sourcing, freight) from shared rules table state-rules.csv; its sources: N.D.C.C. 57-39.2-02.2; STI ND page; SOVOS ND blog
import { defineState, SST_RATES_URL } from './descriptor.ts'

export default defineState({
  code: "ND",
  name: "North Dakota",
  fips: "38",
  klass: "auto",
  feeds: [
    { kind: 'sst', ratesUrl: SST_RATES_URL },
    { kind: 'avalara-zip5', dropPattern: "TAXRATES_ZIP5_ND*.csv" },
  ],
  stateRate: 5000,
  combinedBounds: [0, 14000],
  hasSalesTax: true,
  localTaxes: "yes",
  nexus: {
    dollarThreshold: 100000,
    transactionThreshold: null,
    combine: "sales_only",
    measurementPeriod: "previous or current calendar year",
    salesCounted: "taxable sales",
    marketplaceSalesCounted: "excluded",
  },
  sourcing: "destination",
  freight: "taxable_if_item_taxable",
  freightTaxable: true,
  sstStatus: "full_member",
  rulesSource: "state-rules.csv (high confidence): N.D.C.C. 57-39.2-02.2; STI ND page; SOVOS ND blog",
  anchors: [
    { feed: 'avalara-zip5', zip: '58102', expected: '0.07750', asOf: '2025-12-01', edition: '202512', source: 'TAXRATES_ZIP5_ND202512.csv row 58102 (FARGO): combined 0.077500 (Avalara estimate, a regression pin rather than a primary-source verification)' },
  ],
})
