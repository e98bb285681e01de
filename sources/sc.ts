// South Carolina: Unchanged.
// Rules (rate, nexus, sourcing, freight) from shared rules table state-rules.csv; its sources: SC Rev. Ruling 18-14 (via Avalara/Burr); STI SC page; OST audit 2026-06-21
import { defineState } from './descriptor.ts'

export default defineState({
  code: "SC",
  name: "South Carolina",
  fips: "45",
  klass: "reload",
  feeds: [
    { kind: 'avalara-zip5', dropPattern: "TAXRATES_ZIP5_SC*.csv" },
  ],
  stateRate: 6000,
  combinedBounds: [0, 15000],
  hasSalesTax: true,
  localTaxes: "yes",
  nexus: {
    dollarThreshold: 100000,
    transactionThreshold: null,
    combine: "sales_only",
    measurementPeriod: "previous or current calendar year",
    salesCounted: "gross revenue (taxable, exempt and wholesale; services)",
    marketplaceSalesCounted: "included",
  },
  sourcing: "destination",
  freight: "taxable_if_item_taxable",
  freightTaxable: true,
  sstStatus: "not_member",
  rulesSource: "state-rules.csv (high confidence): SC Rev. Ruling 18-14 (via Avalara/Burr); STI SC page; OST audit 2026-06-21",
  anchors: [
    { feed: 'avalara-zip5', zip: '29201', expected: '0.08000', asOf: '2025-12-01', edition: '202512', source: 'TAXRATES_ZIP5_SC202512.csv row 29201 (RICHLAND): combined 0.080000 (Avalara estimate, a regression pin rather than a primary-source verification)' },
  ],
})
