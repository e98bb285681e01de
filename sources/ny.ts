// New York: Unchanged.
// Rules (rate, nexus, sourcing, freight) from shared rules table state-rules.csv; its sources: TaxCloud copy of NY TSB-M-19(4)S; Hodgson Russ; OST audit 2026-07-18; OST shipping doc
import { defineState } from './descriptor.ts'

export default defineState({
  code: "NY",
  name: "New York",
  fips: "36",
  klass: "reload",
  feeds: [
    { kind: 'avalara-zip5', dropPattern: "TAXRATES_ZIP5_NY*.csv" },
  ],
  stateRate: 4000,
  combinedBounds: [0, 13000],
  hasSalesTax: true,
  localTaxes: "yes",
  nexus: {
    dollarThreshold: 500000,
    transactionThreshold: 100,
    combine: "sales_and_transactions",
    measurementPeriod: "immediately preceding four sales-tax quarters (quarters end Feb/May/Aug/Nov)",
    salesCounted: "gross receipts from TPP delivered into NY",
    marketplaceSalesCounted: "unverified",
  },
  sourcing: "destination",
  freight: "taxable_if_item_taxable",
  freightTaxable: true,
  sstStatus: "not_member",
  rulesSource: "state-rules.csv (high confidence): TaxCloud copy of NY TSB-M-19(4)S; Hodgson Russ; OST audit 2026-07-18; OST shipping doc",
  anchors: [
    { feed: 'avalara-zip5', zip: '10001', expected: '0.08875', asOf: '2025-12-01', edition: '202512', source: 'TAXRATES_ZIP5_NY202512.csv row 10001 (NEW YORK CITY): combined 0.088750 (Avalara estimate, a regression pin rather than a primary-source verification)' },
  ],
})
