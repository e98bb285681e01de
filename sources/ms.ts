import { defineState } from './descriptor.ts'

const EVIDENCE = 'publisher-evidence-remaining.md §6.1'

export default defineState({
  code: 'MS',
  name: 'Mississippi',
  fips: '28',
  klass: 'static',
  feeds: [
    {
      kind: 'statute-table',
      verifiedOn: '2026-12-01',
      levies: [
        // "Effective March 1, 2014. Repeal date July 1, 2035": in force through the day before.
        { place: '2836000', name: 'Jackson', tax: 'Jackson Special Infrastructure Tax', rate: '0.01000', from: '2014-03-01', to: '2035-06-30', citation: `${EVIDENCE} (MS-5750, TAP-ms); rules table MS row ("Jackson 1% special")` },
        // Repealed on certification, no fixed date.
        { place: '2874840', name: 'Tupelo', tax: 'Tupelo Water Procurement Facility Tax (Ch. 920, Laws 1988)', rate: '0.00250', from: '1989-02-01', to: null, citation: `${EVIDENCE} (MS-289, TAP-ms); rules table MS row ("Tupelo 0.25%")` },
      ],
    },
    { kind: 'avalara-zip5', dropPattern: 'TAXRATES_ZIP5_MS*.csv' },
  ],
  combinedBounds: [0, 10000],
  anchors: [
    { feed: 'statute-table', zip: '39201', expected: '0.08000', asOf: '2026-12-01', edition: '2026-12-01', source: `Jackson (place 2836000, Hinds): state 7% + Jackson 1% (2014-03-01 to 2035-06-30) (${EVIDENCE}, publisher-evidence-remaining.md §6.2 pins)` },
    { feed: 'statute-table', zip: '39401', expected: '0.07000', asOf: '2026-12-01', edition: '2026-12-01', source: 'Hattiesburg general retail: state 7% only (publisher-evidence-remaining.md §6.2 pins)' },
    { feed: 'avalara-zip5', zip: '39201', expected: '0.08000', asOf: '2025-12-01', edition: '202512', source: 'TAXRATES_ZIP5_MS202512.csv row 39201 (JACKSON): combined 0.080000 (Avalara estimate, a regression pin rather than a primary-source verification)' },
  ],
})
