// Alaska: No state sales tax.
// Rules (rate, nexus, sourcing, freight) from shared rules table state-rules.csv; its sources: OST sovos-state-summary.tsv; OST current-state.md (ARSSTC module); AVALARA 2024-11 AK blog; STI AK chart row; ARSSTC code page
import { defineState } from './descriptor.ts'

export default defineState({
  code: "AK",
  name: "Alaska",
  fips: "02",
  klass: "reload",
  feeds: [
    { kind: 'avalara-zip5', dropPattern: "TAXRATES_ZIP5_AK*.csv" },
  ],
  stateRate: 0,
  combinedBounds: [0, 9000],
  hasSalesTax: true,
  localTaxes: "local_only",
  nexus: {
    dollarThreshold: 100000,
    transactionThreshold: null,
    combine: "sales_only",
    measurementPeriod: "previous calendar year per ARSSTC Uniform Code (several guides say current or previous)",
    salesCounted: "statewide gross sales delivered into Alaska (all of AK, not just member towns)",
    marketplaceSalesCounted: "included",
  },
  sourcing: "destination",
  freight: "n/a_no_state_tax",
  freightTaxable: false,
  sstStatus: "not_member",
  rulesSource: "state-rules.csv (medium confidence): OST sovos-state-summary.tsv; OST current-state.md (ARSSTC module); AVALARA 2024-11 AK blog; STI AK chart row; ARSSTC code page",
  anchors: [
    { feed: 'avalara-zip5', zip: '99501', expected: '0.00000', asOf: '2025-12-01', edition: '202512', source: 'TAXRATES_ZIP5_AK202512.csv row 99501 (ANCHORAGE BOROUGH): combined 0.000000 (Avalara estimate, a regression pin rather than a primary-source verification)' },
  ],
})
