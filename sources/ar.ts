import { defineState, SST_RATES_URL, statutoryFloor } from './descriptor.ts'
import { sstReading } from './sst-reading.ts'

export default defineState({
  code: 'AR',
  name: 'Arkansas',
  fips: '05',
  klass: 'auto',
  feeds: [
    {
      kind: 'sst',
      ratesUrl: SST_RATES_URL,
      reading: sstReading([{ type: '69', read: 'undecoded', why: 'type-69 special rows, whose meaning no source documents' }]),
    },
    { kind: 'avalara-zip5', dropPattern: 'TAXRATES_ZIP5_AR*.csv' },
    statutoryFloor('Arkansas', 'Arkansas DFA + SST quarterly rate/boundary files'),
  ],
  combinedBounds: [0, 15500],
  anchors: [
    { feed: 'avalara-zip5', zip: '72201', expected: '0.08625', asOf: '2025-12-01', edition: '202512', source: 'TAXRATES_ZIP5_AR202512.csv row 72201 (LITTLE ROCK): combined 0.086250 (Avalara estimate, a regression pin rather than a primary-source verification)' },
  ],
})
