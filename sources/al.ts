// Alabama: General rate unchanged. Grocery food taxed at a reduced state rate (3%); a further cut to 2% is contingent on revenue growth.
// Rules (rate, nexus, sourcing, freight) from shared rules table state-rules.csv; its sources: OST sovos-state-summary.tsv; OST docs/legislation/shipping-taxability.md; CBOX nexus+baseline; STI AL nexus chart; AVIOR chart (12/31/25)
import { defineState } from './descriptor.ts'

export default defineState({
  code: "AL",
  name: "Alabama",
  fips: "01",
  klass: "reload",
  feeds: [
    { kind: 'avalara-zip5', dropPattern: "TAXRATES_ZIP5_AL*.csv" },
  ],
  stateRate: 4000,
  combinedBounds: [0, 13000],
  hasSalesTax: true,
  localTaxes: "yes",
  nexus: {
    dollarThreshold: 250000,
    transactionThreshold: null,
    combine: "sales_only",
    measurementPeriod: "previous calendar year",
    salesCounted: "retail sales of TPP into AL (plus a solicitation/activity requirement)",
    marketplaceSalesCounted: "excluded (sales through a registered facilitator)",
  },
  sourcing: "destination",
  freight: "exempt_if_separately_stated",
  freightTaxable: false,
  sstStatus: "not_member",
  rulesSource: "state-rules.csv (high confidence): OST sovos-state-summary.tsv; OST docs/legislation/shipping-taxability.md; CBOX nexus+baseline; STI AL nexus chart; AVIOR chart (12/31/25)",
  anchors: [
    { feed: 'avalara-zip5', zip: '35203', expected: '0.10000', asOf: '2025-12-01', edition: '202512', source: 'TAXRATES_ZIP5_AL202512.csv row 35203 (BIRMINGHAM): combined 0.100000 (Avalara estimate, a regression pin rather than a primary-source verification)' },
  ],
})
