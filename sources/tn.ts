// Tennessee: Unchanged (groceries 4%).
// Rules (rate, nexus, sourcing, freight) from shared rules table state-rules.csv; its sources: TN DOR RS-1/RS-3/SUT-29 articles; TCA 67-6-902/903; LBMC note; OST sovos-state-summary.tsv
import { defineState, SST_RATES_URL } from './descriptor.ts'

export default defineState({
  code: "TN",
  name: "Tennessee",
  fips: "47",
  klass: "auto",
  feeds: [
    { kind: 'sst', ratesUrl: SST_RATES_URL },
    { kind: 'avalara-zip5', dropPattern: "TAXRATES_ZIP5_TN*.csv" },
  ],
  stateRate: 7000,
  combinedBounds: [0, 16000],
  hasSalesTax: true,
  localTaxes: "yes",
  nexus: {
    dollarThreshold: 100000,
    transactionThreshold: null,
    combine: "sales_only",
    measurementPeriod: "previous 12-month period",
    salesCounted: "retail sales incl. exempt retail sales, excl. sales for resale",
    marketplaceSalesCounted: "unverified",
  },
  sourcing: "origin",
  freight: "taxable_if_item_taxable",
  freightTaxable: true,
  sstStatus: "associate_member",
  rulesSource: "state-rules.csv (high confidence): TN DOR RS-1/RS-3/SUT-29 articles; TCA 67-6-902/903; LBMC note; OST sovos-state-summary.tsv",
  anchors: [
    { feed: 'avalara-zip5', zip: '37203', expected: '0.09250', asOf: '2025-12-01', edition: '202512', source: 'TAXRATES_ZIP5_TN202512.csv row 37203 (NASHVILLE): combined 0.092500 (Avalara estimate, a regression pin rather than a primary-source verification)' },
  ],
})
