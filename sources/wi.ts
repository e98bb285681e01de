// Wisconsin: Unchanged.
// Rules (rate, nexus, sourcing, freight) from shared rules table state-rules.csv; its sources: WI DOR remote-seller page; STI WI pages; OST audit 2026-06-29
import { defineState, SST_RATES_URL } from './descriptor.ts'

export default defineState({
  code: "WI",
  name: "Wisconsin",
  fips: "55",
  klass: "auto",
  feed: { kind: 'sst', ratesUrl: SST_RATES_URL, rateFile: "WIR2026Q2FEB18.csv" },
  stateRate: 5000,
  combinedBounds: [0, 14000],
  hasSalesTax: true,
  localTaxes: "yes",
  nexus: {
    dollarThreshold: 100000,
    transactionThreshold: null,
    combine: "sales_only",
    measurementPeriod: "previous or current calendar year",
    salesCounted: "gross sales",
    marketplaceSalesCounted: "included (no registration needed if all sales go through collecting marketplaces)",
  },
  sourcing: "destination",
  freight: "taxable_if_item_taxable",
  freightTaxable: true,
  sstStatus: "full_member",
  rulesSource: "state-rules.csv (high confidence): WI DOR remote-seller page; STI WI pages; OST audit 2026-06-29",
  anchors: [],
})
