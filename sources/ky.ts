import { defineState, SST_RATES_URL } from './descriptor.ts'

export default defineState({
  code: 'KY',
  name: 'Kentucky',
  fips: '21',
  klass: 'auto',
  feeds: [
    { kind: 'sst', ratesUrl: SST_RATES_URL },
    { kind: 'statutory' },
  ],
  combinedBounds: [6000, 6000],
  anchors: [
    { feed: 'statutory', zip: '40202', expected: '0.06000', asOf: '2026-12-01', edition: 'statutory', source: 'statutory state rate 6.000% (state-rules.csv, rules in force 2026-12-01); no local sales taxes' },
  ],
})
