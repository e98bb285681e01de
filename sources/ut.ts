// Utah: State 4.85%; statewide minimum combined 6.1% including mandatory local levies; food 3% combined (1.75% state).
// Rules (rate, nexus, sourcing, freight) from shared rules table state-rules.csv; its sources: STI UT 2025 page; Deloitte on SB 47; CBOX baseline/sourcing; OST shipping doc
import { defineState, SST_RATES_URL } from './descriptor.ts'

export default defineState({
  code: "UT",
  name: "Utah",
  fips: "49",
  klass: "auto",
  feeds: [
    { kind: 'sst', ratesUrl: SST_RATES_URL },
    { kind: 'avalara-zip5', dropPattern: "TAXRATES_ZIP5_UT*.csv" },
  ],
  stateRate: 4850,
  combinedBounds: [0, 15100],
  hasSalesTax: true,
  localTaxes: "yes",
  nexus: {
    dollarThreshold: 100000,
    transactionThreshold: null,
    combine: "sales_only",
    measurementPeriod: "previous or current calendar year",
    salesCounted: "gross revenue",
    marketplaceSalesCounted: "excluded if the facilitator collects",
  },
  sourcing: "origin",
  freight: "exempt_if_separately_stated",
  freightTaxable: false,
  sstStatus: "full_member",
  rulesSource: "state-rules.csv (high confidence): STI UT 2025 page; Deloitte on SB 47; CBOX baseline/sourcing; OST shipping doc",
  anchors: [
    { feed: 'avalara-zip5', zip: '84111', expected: '0.08450', asOf: '2025-12-01', edition: '202512', source: 'TAXRATES_ZIP5_UT202512.csv row 84111 (SALT LAKE CITY): combined 0.084500 (Avalara estimate, a regression pin rather than a primary-source verification)' },
  ],
})
