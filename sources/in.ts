import { defineState, SST_RATES_URL } from './descriptor.ts'

export default defineState({
  code: 'IN',
  name: 'Indiana',
  fips: '18',
  klass: 'auto',
  feeds: [
    { kind: 'sst', ratesUrl: SST_RATES_URL },
    { kind: 'statutory' },
  ],
  combinedBounds: [7000, 7000],
  anchors: [
    { feed: 'statutory', zip: '46204', expected: '0.07000', asOf: '2026-12-01', edition: 'statutory', source: 'statutory state rate 7.000% (state-rules.csv, rules in force 2026-12-01); no local sales taxes' },
  ],
})
