// Missouri: Unchanged.
// Rules (rate, nexus, sourcing, freight) from shared rules table state-rules.csv; its sources: OST sovos-state-summary.tsv + audit 2026-07-13; BDO/RSM on SB 153; TaxCloud MO blog; CBOX sourcing
import { defineState } from './descriptor.ts'

export default defineState({
  code: "MO",
  name: "Missouri",
  fips: "29",
  klass: "reload",
  feeds: [
    { kind: 'avalara-zip5', dropPattern: "TAXRATES_ZIP5_MO*.csv" },
  ],
  stateRate: 4225,
  combinedBounds: [0, 13225],
  hasSalesTax: true,
  localTaxes: "yes",
  nexus: {
    dollarThreshold: 100000,
    transactionThreshold: null,
    combine: "sales_only",
    measurementPeriod: "12 months ending each calendar quarter (tested quarterly)",
    salesCounted: "taxable sales of TPP",
    marketplaceSalesCounted: "unverified (TaxCloud says included)",
  },
  sourcing: "origin",
  freight: "exempt_if_separately_stated",
  freightTaxable: false,
  sstStatus: "not_member",
  rulesSource: "state-rules.csv (high confidence): OST sovos-state-summary.tsv + audit 2026-07-13; BDO/RSM on SB 153; TaxCloud MO blog; CBOX sourcing",
  anchors: [
    { feed: 'avalara-zip5', zip: '63101', expected: '0.11679', asOf: '2025-12-01', edition: '202512', source: 'TAXRATES_ZIP5_MO202512.csv row 63101 (SAINT LOUIS CONVENTION CENTER HOTEL 3 COMMUNITY IMPROVEMENT DISTRICT SL): combined 0.116790 (Avalara estimate, a regression pin rather than a primary-source verification)' },
  ],
})
