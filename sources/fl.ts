// Florida: Unchanged.
// Rules (rate, nexus, sourcing, freight) from shared rules table state-rules.csv; its sources: OST audit 2026-07-05; OST shipping doc; CBOX FL note; TAXMATRIX FL page; nexusrules FL page; AVIOR chart
import { defineState } from './descriptor.ts'

export default defineState({
  code: "FL",
  name: "Florida",
  fips: "12",
  klass: "reload",
  feeds: [
    { kind: 'avalara-zip5', dropPattern: "TAXRATES_ZIP5_FL*.csv" },
  ],
  stateRate: 6000,
  combinedBounds: [0, 15000],
  hasSalesTax: true,
  localTaxes: "yes",
  nexus: {
    dollarThreshold: 100000,
    transactionThreshold: null,
    combine: "sales_only",
    measurementPeriod: "previous calendar year",
    salesCounted: "taxable remote sales",
    marketplaceSalesCounted: "excluded",
  },
  sourcing: "destination",
  freight: "exempt_if_separately_stated",
  freightTaxable: false,
  sstStatus: "not_member",
  rulesSource: "state-rules.csv (high confidence): OST audit 2026-07-05; OST shipping doc; CBOX FL note; TAXMATRIX FL page; nexusrules FL page; AVIOR chart",
  anchors: [
    { feed: 'avalara-zip5', zip: '33131', expected: '0.07000', asOf: '2025-12-01', edition: '202512', source: 'TAXRATES_ZIP5_FL202512.csv row 33131 (MIAMI): combined 0.070000 (Avalara estimate, a regression pin rather than a primary-source verification)' },
  ],
})
