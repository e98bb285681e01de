import { defineState, AL_RATES_PAGE, statutoryFloor } from './descriptor.ts'

export default defineState({
  code: 'AL',
  name: 'Alabama',
  fips: '01',
  klass: 'auto',
  feeds: [
    { kind: 'al-dor', pageUrl: AL_RATES_PAGE, trial: true },
    { kind: 'avalara-zip5', dropPattern: 'TAXRATES_ZIP5_AL*.csv' },
    statutoryFloor('Alabama', 'Alabama DOR (rates for state-administered locals; locality rate lookup/file); self-administered cities/counties publish their own'),
  ],
  combinedBounds: [0, 13000],
  anchors: [
    { feed: 'avalara-zip5', zip: '35203', expected: '0.10000', asOf: '2025-12-01', edition: '202512', source: 'TAXRATES_ZIP5_AL202512.csv row 35203 (BIRMINGHAM): combined 0.100000 (Avalara estimate, a regression pin rather than a primary-source verification)' },
  ],
})
