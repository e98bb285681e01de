import { defineState } from './descriptor.ts'

export default defineState({
  code: 'MD',
  name: 'Maryland',
  fips: '24',
  klass: 'static',
  feeds: [
    { kind: 'statutory' },
  ],
  combinedBounds: [6000, 6000],
  anchors: [
    { feed: 'statutory', zip: '21202', expected: '0.06000', asOf: '2026-12-01', edition: 'statutory', source: 'statutory state rate 6.000% (state-rules.csv, rules in force 2026-12-01); no local sales taxes' },
  ],
})
