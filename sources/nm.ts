// New Mexico: Gross Receipts Tax (on the seller); 4.875% since 2023-07-01.
// Rules (rate, nexus, sourcing, freight) from shared rules table state-rules.csv; its sources: OST new_mexico.py/nm_data.py + finding nm-bernalillo; STI NM page; SOVOS NM blog; AVALARA July-2021 note
import { defineState } from './descriptor.ts'

export default defineState({
  code: "NM",
  name: "New Mexico",
  fips: "35",
  klass: "reload",
  feeds: [
    { kind: 'avalara-zip5', dropPattern: "TAXRATES_ZIP5_NM*.csv" },
  ],
  stateRate: 4875,
  combinedBounds: [0, 13875],
  hasSalesTax: true,
  localTaxes: "yes",
  nexus: {
    dollarThreshold: 100000,
    transactionThreshold: null,
    combine: "sales_only",
    measurementPeriod: "previous calendar year",
    salesCounted: "taxable gross receipts",
    marketplaceSalesCounted: "excluded if the marketplace provider collects (seller deduction)",
  },
  sourcing: "destination",
  freight: "taxable_if_item_taxable",
  freightTaxable: true,
  sstStatus: "not_member",
  rulesSource: "state-rules.csv (high confidence): OST new_mexico.py/nm_data.py + finding nm-bernalillo; STI NM page; SOVOS NM blog; AVALARA July-2021 note",
  anchors: [
    { feed: 'avalara-zip5', zip: '87102', expected: '0.07750', asOf: '2025-12-01', edition: '202512', source: 'TAXRATES_ZIP5_NM202512.csv row 87102 (AIS PROP 19 PUEBLOS #2): combined 0.077500 (Avalara estimate, a regression pin rather than a primary-source verification)' },
  ],
})
