import { defineState, AZ_TPT_PAGE, statutoryFloor } from './descriptor.ts'

export default defineState({
  code: 'AZ',
  name: 'Arizona',
  fips: '04',
  klass: 'auto',
  feeds: [
    { kind: 'az-dor-tpt', pageUrl: AZ_TPT_PAGE, trial: true },
    { kind: 'avalara-zip5', dropPattern: 'TAXRATES_ZIP5_AZ*.csv' },
    statutoryFloor('Arizona', 'Arizona DOR TPT rate tables (monthly)'),
  ],
  combinedBounds: [0, 14600],
  anchors: [
    { feed: 'avalara-zip5', zip: '85004', expected: '0.09100', asOf: '2025-12-01', edition: '202512', source: 'TAXRATES_ZIP5_AZ202512.csv row 85004 (MARICOPA COUNTY STADIUM DISTRICT): combined 0.091000 (Avalara estimate, a regression pin rather than a primary-source verification)' },
  ],
})
