// Hawaii: General Excise Tax (GET) on the seller, usually passed on. Unchanged.
// Rules (rate, nexus, sourcing, freight) from shared rules table state-rules.csv; its sources: OST sovos-state-summary.tsv; OST audit 2026-07-06 + finding hi-maui; STI HI page; AVIOR chart; TLX
import { defineState } from './descriptor.ts'

export default defineState({
  code: "HI",
  name: "Hawaii",
  fips: "15",
  klass: "reload",
  feeds: [
    { kind: 'avalara-zip5', dropPattern: "TAXRATES_ZIP5_HI*.csv" },
  ],
  stateRate: 4000,
  combinedBounds: [0, 13000],
  hasSalesTax: true,
  localTaxes: "yes",
  nexus: {
    dollarThreshold: 100000,
    transactionThreshold: 200,
    combine: "sales_or_transactions",
    measurementPeriod: "current or immediately preceding calendar year",
    salesCounted: "gross income/proceeds",
    marketplaceSalesCounted: "included",
  },
  sourcing: "destination",
  freight: "always_taxable",
  freightTaxable: true,
  sstStatus: "not_member",
  rulesSource: "state-rules.csv (high confidence): OST sovos-state-summary.tsv; OST audit 2026-07-06 + finding hi-maui; STI HI page; AVIOR chart; TLX",
  anchors: [
    { feed: 'avalara-zip5', zip: '96813', expected: '0.04500', asOf: '2025-12-01', edition: '202512', source: 'TAXRATES_ZIP5_HI202512.csv row 96813 (HONOLULU): combined 0.045000 (Avalara estimate, a regression pin rather than a primary-source verification)' },
  ],
})
