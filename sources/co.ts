import { defineState, CO_RATES_PAGE, statutoryFloor } from './descriptor.ts'

export default defineState({
  code: 'CO',
  name: 'Colorado',
  fips: '08',
  klass: 'auto',
  feeds: [
    { kind: 'co-dor', pageUrl: CO_RATES_PAGE, trial: true },
    { kind: 'avalara-zip5', dropPattern: 'TAXRATES_ZIP5_CO*.csv' },
    statutoryFloor('Colorado', 'Colorado DOR DR 1002 (semiannual, Jan/Jul) and SUTS lookup; home-rule cities publish their own'),
  ],
  combinedBounds: [0, 11900],
  anchors: [
    { feed: 'avalara-zip5', zip: '80202', expected: '0.09150', asOf: '2025-12-01', edition: '202512', source: 'TAXRATES_ZIP5_CO202512.csv row 80202 (DENVER): combined 0.091500 (Avalara estimate, a regression pin rather than a primary-source verification)' },
  ],
})
