// Louisiana: Raised from 4.45% to 5.0% on 2025-01-01 (2024 3rd Extraordinary Session); set to fall to 4.75% on 2030-01-01.
// Rules (rate, nexus, sourcing, freight) from shared rules table state-rules.csv; its sources: OST louisiana audit (2026-07-10); LDR FAQ on delivery charges; Liskow on RIB 25-025; STI + Ryan on HB 171 (2023)
import { defineState } from './descriptor.ts'

export default defineState({
  code: "LA",
  name: "Louisiana",
  fips: "22",
  klass: "reload",
  feed: { kind: 'avalara-zip5', dropPattern: "TAXRATES_ZIP5_LA*.csv" },
  stateRate: 5000,
  combinedBounds: [0, 14000],
  hasSalesTax: true,
  localTaxes: "yes",
  nexus: {
    dollarThreshold: 100000,
    transactionThreshold: null,
    combine: "sales_only",
    measurementPeriod: "previous or current calendar year",
    salesCounted: "gross sales for remote sellers (facilitators: retail sales)",
    marketplaceSalesCounted: "unverified",
  },
  sourcing: "destination",
  freight: "taxable_if_item_taxable",
  freightTaxable: true,
  sstStatus: "not_member",
  rulesSource: "state-rules.csv (high confidence): OST louisiana audit (2026-07-10); LDR FAQ on delivery charges; Liskow on RIB 25-025; STI + Ryan on HB 171 (2023)",
  anchors: [
    { zip: '70112', expected: '0.10000', asOf: '2025-12-01', edition: '202512', source: 'TAXRATES_ZIP5_LA202512.csv: row 70112 (FRENCH QUARTER EDD) at 0.102450 folds the district\'s 0.245% over the whole ZIP; the other New Orleans ZIPs of Orleans Parish agree on 0.100000, the default (sub_zip_district; Avalara estimate, a regression pin rather than a primary-source verification)' },
  ],
})
