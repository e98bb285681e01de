import { defineState, SST_RATES_URL, statutoryFloor } from './descriptor.ts'
import { sstReading } from './sst-reading.ts'

export default defineState({
  code: 'SD',
  name: 'South Dakota',
  fips: '46',
  klass: 'auto',
  feeds: [
    {
      kind: 'sst',
      ratesUrl: SST_RATES_URL,
      reading: sstReading([{ type: '49', read: 'replaces-state', why: 'special jurisdiction (tribal) tax, which the SD DOR says replaces the state tax: never added on top of it' }]),
    },
    { kind: 'avalara-zip5', dropPattern: 'TAXRATES_ZIP5_SD*.csv' },
    statutoryFloor('South Dakota', 'SD DOR + SST quarterly files'),
  ],
  combinedBounds: [0, 13200],
  anchors: [
    { feed: 'avalara-zip5', zip: '57104', expected: '0.06200', asOf: '2025-12-01', edition: '202512', source: 'TAXRATES_ZIP5_SD202512.csv row 57104 (SIOUX FALLS): combined 0.062000 (Avalara estimate, a regression pin rather than a primary-source verification)' },
  ],
})
