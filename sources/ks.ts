// Kansas: General rate unchanged; state rate on food 0% since 2025-01-01.
// Rules (rate, nexus, sourcing, freight) from shared rules table state-rules.csv; its sources: OST sovos-state-summary.tsv; STI + AVALARA 2023 KS delivery pages; OST audit (KS); discern KS page
import { defineState } from './descriptor.ts'

export default defineState({
  code: "KS",
  name: "Kansas",
  fips: "20",
  klass: "reload",
  feed: { kind: 'avalara-zip5', dropPattern: "TAXRATES_ZIP5_KS*.csv" },
  stateRate: 6500,
  combinedBounds: [0, 15500],
  hasSalesTax: true,
  localTaxes: "yes",
  nexus: {
    dollarThreshold: 100000,
    transactionThreshold: null,
    combine: "sales_only",
    measurementPeriod: "previous or current calendar year",
    salesCounted: "cumulative gross receipts",
    marketplaceSalesCounted: "unverified (one guide says excludable if facilitator registered)",
  },
  sourcing: "destination",
  freight: "exempt_if_separately_stated",
  freightTaxable: false,
  sstStatus: "full_member",
  rulesSource: "state-rules.csv (high confidence): OST sovos-state-summary.tsv; STI + AVALARA 2023 KS delivery pages; OST audit (KS); discern KS page",
  anchors: [
    { zip: '67202', expected: '0.07500', asOf: '2025-12-01', edition: '202512', source: 'TAXRATES_ZIP5_KS202512.csv: row 67202 (WICHITA) at 0.095000 folds a 2% special district over part of the ZIP; the other Wichita ZIPs of Sedgwick County agree on 0.075000, the default (sub_zip_district; Avalara estimate, a regression pin rather than a primary-source verification)' },
  ],
})
