// Colorado: Unchanged.
// Rules (rate, nexus, sourcing, freight) from shared rules table state-rules.csv; its sources: OST sovos-state-summary.tsv; OST shipping doc; STI CO codification page; CBOX (DR 1002 July 2026 note); CO leg SB20-099 page
import { defineState } from './descriptor.ts'

export default defineState({
  code: "CO",
  name: "Colorado",
  fips: "08",
  klass: "reload",
  feeds: [
    { kind: 'avalara-zip5', dropPattern: "TAXRATES_ZIP5_CO*.csv" },
  ],
  stateRate: 2900,
  combinedBounds: [0, 11900],
  hasSalesTax: true,
  localTaxes: "yes",
  nexus: {
    dollarThreshold: 100000,
    transactionThreshold: null,
    combine: "sales_only",
    measurementPeriod: "previous or current calendar year (collect from 1st day of month after the 90th day past the threshold)",
    salesCounted: "retail sales (incl. exempt retail; excl. wholesale)",
    marketplaceSalesCounted: "excluded (seller counts only direct sales)",
  },
  sourcing: "destination",
  freight: "exempt_if_separately_stated",
  freightTaxable: false,
  sstStatus: "not_member",
  rulesSource: "state-rules.csv (high confidence): OST sovos-state-summary.tsv; OST shipping doc; STI CO codification page; CBOX (DR 1002 July 2026 note); CO leg SB20-099 page",
  anchors: [
    { feed: 'avalara-zip5', zip: '80202', expected: '0.09150', asOf: '2025-12-01', edition: '202512', source: 'TAXRATES_ZIP5_CO202512.csv row 80202 (DENVER): combined 0.091500 (Avalara estimate, a regression pin rather than a primary-source verification)' },
  ],
})
