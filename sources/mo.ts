// Missouri: Unchanged.
// Rules (rate, nexus, sourcing, freight) from shared rules table state-rules.csv; its sources: OST sovos-state-summary.tsv + audit 2026-07-13; BDO/RSM on SB 153; TaxCloud MO blog; CBOX sourcing
import { defineState } from './descriptor.ts'

export default defineState({
  code: "MO",
  name: "Missouri",
  fips: "29",
  klass: "reload",
  feed: { kind: 'avalara-zip5', dropPattern: "TAXRATES_ZIP5_MO*.csv" },
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
    { zip: '63101', expected: '0.09679', asOf: '2025-12-01', edition: '202512', source: 'TAXRATES_ZIP5_MO202512.csv: row 63101 (SAINT LOUIS CONVENTION CENTER HOTEL 3 COMMUNITY IMPROVEMENT DISTRICT SL) at 0.116790 folds a 2% CID over the whole ZIP; the other St. Louis ZIPs agree on 0.096790, the default (sub_zip_district; Avalara estimate, a regression pin rather than a primary-source verification)' },
  ],
})
