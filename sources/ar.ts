// Arkansas: General rate unchanged. State sales tax on groceries (0.125%) eliminated 2026-01-01; local taxes on food still apply.
// Rules (rate, nexus, sourcing, freight) from shared rules table state-rules.csv; its sources: OST sovos-state-summary.tsv; TLX nexus_thresholds.csv (2026-08-18); AVIOR chart (12/31/25); TAXVALET sheet; AVALARA Jan-2026 changes blog
import { defineState, SST_RATES_URL } from './descriptor.ts'

export default defineState({
  code: "AR",
  name: "Arkansas",
  fips: "05",
  klass: "auto",
  feeds: [
    { kind: 'sst', ratesUrl: SST_RATES_URL },
    { kind: 'avalara-zip5', dropPattern: "TAXRATES_ZIP5_AR*.csv" },
  ],
  stateRate: 6500,
  combinedBounds: [0, 15500],
  hasSalesTax: true,
  localTaxes: "yes",
  nexus: {
    dollarThreshold: 100000,
    transactionThreshold: 200,
    combine: "sales_or_transactions",
    measurementPeriod: "previous or current calendar year",
    salesCounted: "taxable sales (some guides say aggregate/gross)",
    marketplaceSalesCounted: "excluded",
  },
  sourcing: "destination",
  freight: "taxable_if_item_taxable",
  freightTaxable: true,
  sstStatus: "full_member",
  rulesSource: "state-rules.csv (high confidence): OST sovos-state-summary.tsv; TLX nexus_thresholds.csv (2026-08-18); AVIOR chart (12/31/25); TAXVALET sheet; AVALARA Jan-2026 changes blog",
  anchors: [
    { feed: 'avalara-zip5', zip: '72201', expected: '0.08625', asOf: '2025-12-01', edition: '202512', source: 'TAXRATES_ZIP5_AR202512.csv row 72201 (LITTLE ROCK): combined 0.086250 (Avalara estimate, a regression pin rather than a primary-source verification)' },
  ],
})
