import { defineState, SST_RATES_URL, statutoryFloor } from './descriptor.ts'

export default defineState({
  code: 'GA',
  name: 'Georgia',
  fips: '13',
  klass: 'auto',
  feeds: [
    { kind: 'sst', ratesUrl: SST_RATES_URL },
    { kind: 'avalara-zip5', dropPattern: 'TAXRATES_ZIP5_GA*.csv' },
    statutoryFloor('Georgia', 'Georgia DOR rate charts + SST quarterly files'),
  ],
  combinedBounds: [0, 13000],
  anchors: [
    { feed: 'sst', zip: '30303', expected: '0.08900', asOf: '2026-04-01', edition: '2026Q2FEB19', source: 'GAR2026Q2FEB19.csv rows 13,45,13 (0.04), 13,00,121 Fulton (0.03), 13,01,04000 Atlanta (0.019 from 2022-10-01); HUD puts 30303 wholly in Fulton, USPS city ATLANTA' },
    { feed: 'sst', zip: '30303', expected: '0.08500', asOf: '2022-06-01', edition: '2026Q2FEB19', source: 'same rows on 2022-06-01: Atlanta 13,01,04000 at 0.015 (2022-04-01..2022-09-30)' },
  ],
})
