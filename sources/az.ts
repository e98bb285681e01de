// Arizona: Transaction Privilege Tax (TPT), legally on the seller. Unchanged.
// Rules (rate, nexus, sourcing, freight) from shared rules table state-rules.csv; its sources: OST sovos-state-summary.tsv; OST shipping doc; CBOX sourcing (TaxJar+Stripe); STI/HANDSOFF charts; TAXVALET sheet (9/2025)
import { defineState } from './descriptor.ts'

export default defineState({
  code: "AZ",
  name: "Arizona",
  fips: "04",
  klass: "reload",
  feeds: [
    { kind: 'avalara-zip5', dropPattern: "TAXRATES_ZIP5_AZ*.csv" },
  ],
  stateRate: 5600,
  combinedBounds: [0, 14600],
  hasSalesTax: true,
  localTaxes: "yes",
  nexus: {
    dollarThreshold: 100000,
    transactionThreshold: null,
    combine: "sales_only",
    measurementPeriod: "previous or current calendar year",
    salesCounted: "gross sales",
    marketplaceSalesCounted: "excluded",
  },
  sourcing: "origin",
  freight: "exempt_if_separately_stated",
  freightTaxable: false,
  sstStatus: "not_member",
  rulesSource: "state-rules.csv (high confidence): OST sovos-state-summary.tsv; OST shipping doc; CBOX sourcing (TaxJar+Stripe); STI/HANDSOFF charts; TAXVALET sheet (9/2025)",
  anchors: [
    { feed: 'avalara-zip5', zip: '85004', expected: '0.09100', asOf: '2025-12-01', edition: '202512', source: 'TAXRATES_ZIP5_AZ202512.csv row 85004 (MARICOPA COUNTY STADIUM DISTRICT): combined 0.091000 (Avalara estimate, a regression pin rather than a primary-source verification)' },
  ],
})
