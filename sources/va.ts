// Virginia: State 4.3% + mandatory statewide 1% local = 5.3% minimum; unchanged. Food/hygiene 1% (local only).
// Rules (rate, nexus, sourcing, freight) from shared rules table state-rules.csv; its sources: STI VA page; OST va_data.py + audit 2026-06-29; CBOX VA note; TLX; OST shipping doc
import { defineState } from './descriptor.ts'

export default defineState({
  code: "VA",
  name: "Virginia",
  fips: "51",
  klass: "reload",
  feeds: [
    { kind: 'avalara-zip5', dropPattern: "TAXRATES_ZIP5_VA*.csv" },
  ],
  stateRate: 4300,
  combinedBounds: [0, 14300],
  hasSalesTax: true,
  localTaxes: "yes",
  nexus: {
    dollarThreshold: 100000,
    transactionThreshold: 200,
    combine: "sales_or_transactions",
    measurementPeriod: "previous or current calendar year",
    salesCounted: "retail sales (gross revenue from retail sales)",
    marketplaceSalesCounted: "excluded",
  },
  sourcing: "origin",
  freight: "exempt_if_separately_stated",
  freightTaxable: false,
  sstStatus: "not_member",
  rulesSource: "state-rules.csv (high confidence): STI VA page; OST va_data.py + audit 2026-06-29; CBOX VA note; TLX; OST shipping doc",
  anchors: [
    { feed: 'avalara-zip5', zip: '23219', expected: '0.06000', asOf: '2025-12-01', edition: '202512', source: 'TAXRATES_ZIP5_VA202512.csv row 23219 (RICHMOND): combined 0.060000 (Avalara estimate, a regression pin rather than a primary-source verification)' },
  ],
})
