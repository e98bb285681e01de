// Idaho: Unchanged.
// Rules (rate, nexus, sourcing, freight) from shared rules table state-rules.csv; its sources: OST shipping doc; STI ID page; Idaho STC online-sellers page; CBOX ID baseline note
import { defineState } from './descriptor.ts'

export default defineState({
  code: "ID",
  name: "Idaho",
  fips: "16",
  klass: "reload",
  feeds: [
    { kind: 'avalara-zip5', dropPattern: "TAXRATES_ZIP5_ID*.csv" },
  ],
  stateRate: 6000,
  combinedBounds: [0, 9000],
  hasSalesTax: true,
  localTaxes: "limited",
  nexus: {
    dollarThreshold: 100000,
    transactionThreshold: null,
    combine: "sales_only",
    measurementPeriod: "previous or current calendar year",
    salesCounted: "gross sales",
    marketplaceSalesCounted: "included",
  },
  sourcing: "destination",
  freight: "exempt_if_separately_stated",
  freightTaxable: false,
  sstStatus: "not_member",
  rulesSource: "state-rules.csv (high confidence): OST shipping doc; STI ID page; Idaho STC online-sellers page; CBOX ID baseline note",
  anchors: [
    { feed: 'avalara-zip5', zip: '83702', expected: '0.06000', asOf: '2025-12-01', edition: '202512', source: 'TAXRATES_ZIP5_ID202512.csv row 83702 (ADA): combined 0.060000 (Avalara estimate, a regression pin rather than a primary-source verification)' },
  ],
})
