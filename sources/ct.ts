// Connecticut: Unchanged. Category rates exist (e.g., luxury 7.75%, meals 7.35%, computer/data services 1%).
// Rules (rate, nexus, sourcing, freight) from shared rules table state-rules.csv; its sources: OST audit 2026-07-04; OST sovos-state-summary.tsv; AVALARA 2019 CT blog; HANDSOFF chart; TAXVALET sheet; AVIOR chart
import { defineState } from './descriptor.ts'

export default defineState({
  code: "CT",
  name: "Connecticut",
  fips: "09",
  klass: "static",
  feeds: [
    { kind: 'statutory', citation: "state rate 6.350% per rules table (OST audit 2026-07-04)" },
  ],
  stateRate: 6350,
  combinedBounds: [6350, 6350],
  hasSalesTax: true,
  localTaxes: "no",
  nexus: {
    dollarThreshold: 100000,
    transactionThreshold: 200,
    combine: "sales_and_transactions",
    measurementPeriod: "12-month period ending on the Sept 30 immediately preceding the filing period",
    salesCounted: "gross receipts from retail sales (TPP and services)",
    marketplaceSalesCounted: "conflicting: included per STI/TaxValet/Peisner; excluded per Avalara-derived guide",
  },
  sourcing: "destination",
  freight: "taxable_if_item_taxable",
  freightTaxable: true,
  sstStatus: "not_member",
  rulesSource: "state-rules.csv (high confidence): OST audit 2026-07-04; OST sovos-state-summary.tsv; AVALARA 2019 CT blog; HANDSOFF chart; TAXVALET sheet; AVIOR chart",
  anchors: [
    { feed: 'statutory', zip: '06103', expected: '0.06350', asOf: '2026-12-01', edition: 'statutory', source: 'statutory state rate 6.350% (state-rules.csv, rules in force 2026-12-01); no local sales taxes' },
  ],
})
