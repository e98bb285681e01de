// Puerto Rico: IVU: 10.5% territorial + 1.0% municipal = 11.5% everywhere; reduced rates exist (4% on B2B/designated professional services; 7% on prepared food for certified merchants).
// Rules (rate, nexus, sourcing, freight) from shared rules table state-rules.csv; its sources: OST puerto_rico.py + audit 2026-06-30 + finding pr-prepared-food; SOVOS PR regulatory update; RSM PR; TaxConnex PR
import { defineState } from './descriptor.ts'

export default defineState({
  code: "PR",
  name: "Puerto Rico",
  fips: "72",
  klass: "reload",
  feeds: [
    { kind: 'avalara-zip5', dropPattern: "TAXRATES_ZIP5_PR*.csv" },
  ],
  stateRate: 10500,
  combinedBounds: [0, 20500],
  hasSalesTax: true,
  localTaxes: "yes",
  nexus: {
    dollarThreshold: 100000,
    transactionThreshold: 200,
    combine: "sales_or_transactions",
    measurementPeriod: "preceding 12-month period / prior year (sources word it differently)",
    salesCounted: "gross sales",
    marketplaceSalesCounted: "unverified (sellers get an SUT Collection Release for facilitated sales)",
  },
  sourcing: "n/a",
  freight: "unverified",
  freightTaxable: false,
  sstStatus: "not_member",
  rulesSource: "state-rules.csv (medium confidence): OST puerto_rico.py + audit 2026-06-30 + finding pr-prepared-food; SOVOS PR regulatory update; RSM PR; TaxConnex PR",
  anchors: [
    { feed: 'avalara-zip5', zip: '00901', expected: '0.11500', asOf: '2025-12-01', edition: '202512', source: 'TAXRATES_ZIP5_PR202512.csv row 00901 (SAN JUAN CO): combined 0.115000 (Avalara estimate, a regression pin rather than a primary-source verification)' },
  ],
})
