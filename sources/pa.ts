// Pennsylvania: Unchanged.
// Rules (rate, nexus, sourcing, freight) from shared rules table state-rules.csv; its sources: OST sovos-state-summary.tsv + audit 2026-06-30; PA DOR answer 209; TaxJar PA support note; TaxCloud PA guide; CBOX sourcing
import { defineState } from './descriptor.ts'

export default defineState({
  code: "PA",
  name: "Pennsylvania",
  fips: "42",
  klass: "reload",
  feeds: [
    { kind: 'avalara-zip5', dropPattern: "TAXRATES_ZIP5_PA*.csv" },
  ],
  stateRate: 6000,
  combinedBounds: [0, 9000],
  hasSalesTax: true,
  localTaxes: "limited",
  nexus: {
    dollarThreshold: 100000,
    transactionThreshold: null,
    combine: "sales_only",
    measurementPeriod: "previous calendar year (collection runs April 1 - March 31)",
    salesCounted: "gross sales",
    marketplaceSalesCounted: "included",
  },
  sourcing: "origin",
  freight: "taxable_if_item_taxable",
  freightTaxable: true,
  sstStatus: "not_member",
  rulesSource: "state-rules.csv (high confidence): OST sovos-state-summary.tsv + audit 2026-06-30; PA DOR answer 209; TaxJar PA support note; TaxCloud PA guide; CBOX sourcing",
  anchors: [
    { feed: 'avalara-zip5', zip: '19103', expected: '0.08000', asOf: '2025-12-01', edition: '202512', source: 'TAXRATES_ZIP5_PA202512.csv row 19103 (PHILADELPHIA): combined 0.080000 (Avalara estimate, a regression pin rather than a primary-source verification)' },
  ],
})
