import { defineState } from './descriptor.ts'

export default defineState({
  code: 'DC',
  name: 'District of Columbia',
  fips: '11',
  klass: 'static',
  feeds: [
    { kind: 'statutory' },
  ],
  combinedBounds: [6000, 7000],
  anchors: [
    { feed: 'statutory', zip: '20001', expected: '0.06000', asOf: '2026-09-30', edition: 'statutory', source: 'statutory state rate 6.0% through 2026-09-30 (state-rules.csv state_rate_notes); no local sales taxes' },
    { feed: 'statutory', zip: '20001', expected: '0.07000', asOf: '2026-12-01', edition: 'statutory', source: 'statutory state rate 7.000% (state-rules.csv, rules in force 2026-12-01); no local sales taxes' },
  ],
})
