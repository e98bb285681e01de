import { defineState } from './descriptor.ts'

export default defineState({
  code: 'MA',
  name: 'Massachusetts',
  fips: '25',
  klass: 'static',
  feeds: [
    { kind: 'statutory' },
  ],
  combinedBounds: [6250, 6250],
  anchors: [
    { feed: 'statutory', zip: '02108', expected: '0.06250', asOf: '2026-12-01', edition: 'statutory', source: 'statutory state rate 6.250% (state-rules.csv, rules in force 2026-12-01); no local sales taxes' },
  ],
})
