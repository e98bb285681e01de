// Texas: Unchanged.
// Rules (rate, nexus, sourcing, freight) from shared rules table state-rules.csv; its sources: STI TX page (Rule 3.286); Texas Comptroller single local rate page; OST audit 2026-06-29; CBOX sourcing
import { defineState } from './descriptor.ts'

export default defineState({
  code: "TX",
  name: "Texas",
  fips: "48",
  klass: "reload",
  feeds: [
    { kind: 'avalara-zip5', dropPattern: "TAXRATES_ZIP5_TX*.csv" },
  ],
  stateRate: 6250,
  combinedBounds: [0, 15250],
  hasSalesTax: true,
  localTaxes: "yes",
  nexus: {
    dollarThreshold: 500000,
    transactionThreshold: null,
    combine: "sales_only",
    measurementPeriod: "preceding 12 calendar months",
    salesCounted: "total Texas revenue (taxable, nontaxable and exempt)",
    marketplaceSalesCounted: "included",
  },
  sourcing: "origin",
  freight: "taxable_if_item_taxable",
  freightTaxable: true,
  sstStatus: "not_member",
  rulesSource: "state-rules.csv (high confidence): STI TX page (Rule 3.286); Texas Comptroller single local rate page; OST audit 2026-06-29; CBOX sourcing",
  anchors: [
    { feed: 'avalara-zip5', zip: '77002', expected: '0.08250', asOf: '2025-12-01', edition: '202512', source: 'TAXRATES_ZIP5_TX202512.csv row 77002 (HOUSTON): combined 0.082500 (Avalara estimate, a regression pin rather than a primary-source verification)' },
  ],
})
