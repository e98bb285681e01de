// States, DC and the inhabited territories with the names and abbreviations people write for them.
import { placeMatchKey } from '../../../snapshot-contract/place-names.ts'

export type StateName = { code: string; fips: string; name: string; aliases: readonly string[] }

export const STATE_NAMES: readonly StateName[] = [
  { code: 'AL', fips: '01', name: 'Alabama', aliases: ['Ala', 'Alab'] },
  { code: 'AK', fips: '02', name: 'Alaska', aliases: [] },
  { code: 'AZ', fips: '04', name: 'Arizona', aliases: ['Ariz'] },
  { code: 'AR', fips: '05', name: 'Arkansas', aliases: ['Ark'] },
  { code: 'CA', fips: '06', name: 'California', aliases: ['Calif', 'Cal', 'Cali'] },
  { code: 'CO', fips: '08', name: 'Colorado', aliases: ['Colo'] },
  { code: 'CT', fips: '09', name: 'Connecticut', aliases: ['Conn'] },
  { code: 'DE', fips: '10', name: 'Delaware', aliases: ['Del'] },
  {
    code: 'DC',
    fips: '11',
    name: 'District of Columbia',
    aliases: ['Washington DC', 'Washington D.C.', 'Wash DC', 'Wash. D.C.', 'Dist of Columbia', 'Dist. of Columbia'],
  },
  { code: 'FL', fips: '12', name: 'Florida', aliases: ['Fla'] },
  { code: 'GA', fips: '13', name: 'Georgia', aliases: [] },
  { code: 'HI', fips: '15', name: 'Hawaii', aliases: ["Hawai'i"] },
  { code: 'ID', fips: '16', name: 'Idaho', aliases: [] },
  { code: 'IL', fips: '17', name: 'Illinois', aliases: ['Ill', 'Ills'] },
  { code: 'IN', fips: '18', name: 'Indiana', aliases: ['Ind'] },
  { code: 'IA', fips: '19', name: 'Iowa', aliases: [] },
  { code: 'KS', fips: '20', name: 'Kansas', aliases: ['Kan', 'Kans'] },
  { code: 'KY', fips: '21', name: 'Kentucky', aliases: [] },
  { code: 'LA', fips: '22', name: 'Louisiana', aliases: [] },
  { code: 'ME', fips: '23', name: 'Maine', aliases: [] },
  { code: 'MD', fips: '24', name: 'Maryland', aliases: [] },
  { code: 'MA', fips: '25', name: 'Massachusetts', aliases: ['Mass'] },
  { code: 'MI', fips: '26', name: 'Michigan', aliases: ['Mich'] },
  { code: 'MN', fips: '27', name: 'Minnesota', aliases: ['Minn'] },
  { code: 'MS', fips: '28', name: 'Mississippi', aliases: ['Miss'] },
  { code: 'MO', fips: '29', name: 'Missouri', aliases: [] },
  { code: 'MT', fips: '30', name: 'Montana', aliases: ['Mont'] },
  { code: 'NE', fips: '31', name: 'Nebraska', aliases: ['Neb', 'Nebr'] },
  { code: 'NV', fips: '32', name: 'Nevada', aliases: ['Nev'] },
  { code: 'NH', fips: '33', name: 'New Hampshire', aliases: ['N Hampshire', 'N. Hampshire'] },
  { code: 'NJ', fips: '34', name: 'New Jersey', aliases: ['N Jersey', 'N. Jersey'] },
  { code: 'NM', fips: '35', name: 'New Mexico', aliases: ['N Mex', 'N. Mex.', 'New Mex', 'N Mexico', 'N. Mexico'] },
  { code: 'NY', fips: '36', name: 'New York', aliases: ['N York', 'N. York'] },
  { code: 'NC', fips: '37', name: 'North Carolina', aliases: ['N Carolina', 'N. Carolina', 'No Carolina', 'No. Carolina'] },
  { code: 'ND', fips: '38', name: 'North Dakota', aliases: ['N Dakota', 'N. Dakota', 'N Dak', 'N. Dak.', 'No Dakota'] },
  { code: 'OH', fips: '39', name: 'Ohio', aliases: [] },
  { code: 'OK', fips: '40', name: 'Oklahoma', aliases: ['Okla'] },
  { code: 'OR', fips: '41', name: 'Oregon', aliases: ['Ore', 'Oreg'] },
  { code: 'PA', fips: '42', name: 'Pennsylvania', aliases: ['Penn', 'Penna'] },
  { code: 'RI', fips: '44', name: 'Rhode Island', aliases: [] },
  { code: 'SC', fips: '45', name: 'South Carolina', aliases: ['S Carolina', 'S. Carolina', 'So Carolina', 'So. Carolina'] },
  { code: 'SD', fips: '46', name: 'South Dakota', aliases: ['S Dakota', 'S. Dakota', 'S Dak', 'S. Dak.', 'So Dakota'] },
  { code: 'TN', fips: '47', name: 'Tennessee', aliases: ['Tenn'] },
  { code: 'TX', fips: '48', name: 'Texas', aliases: ['Tex'] },
  { code: 'UT', fips: '49', name: 'Utah', aliases: [] },
  { code: 'VT', fips: '50', name: 'Vermont', aliases: [] },
  { code: 'VA', fips: '51', name: 'Virginia', aliases: ['Virg'] },
  { code: 'WA', fips: '53', name: 'Washington', aliases: ['Wash', 'Washington State', 'Wash State'] },
  { code: 'WV', fips: '54', name: 'West Virginia', aliases: ['W Virginia', 'W. Virginia', 'W Va', 'W. Va.', 'WVa'] },
  { code: 'WI', fips: '55', name: 'Wisconsin', aliases: ['Wis', 'Wisc'] },
  { code: 'WY', fips: '56', name: 'Wyoming', aliases: ['Wyo'] },
  { code: 'AS', fips: '60', name: 'American Samoa', aliases: ['Am Samoa', 'Am. Samoa'] },
  { code: 'GU', fips: '66', name: 'Guam', aliases: [] },
  {
    code: 'MP',
    fips: '69',
    name: 'Northern Mariana Islands',
    aliases: ['Northern Marianas', 'N Mariana Islands', 'N. Mariana Islands', 'CNMI'],
  },
  { code: 'PR', fips: '72', name: 'Puerto Rico', aliases: [] },
  {
    code: 'VI',
    fips: '78',
    name: 'U.S. Virgin Islands',
    aliases: ['US Virgin Islands', 'Virgin Islands', 'USVI'],
  },
]

export const STATE_CODES: ReadonlySet<string> = new Set(STATE_NAMES.map((s) => s.code))

/** Longest name or alias in words; callers try phrases up to this length. */
export const LONGEST_STATE_NAME_WORDS = Math.max(
  ...STATE_NAMES.flatMap((s) => [s.name, ...s.aliases]).map((n) => n.split(/\s+/).length),
)

const CODE_BY_NAME_KEY: ReadonlyMap<string, string> = new Map(
  STATE_NAMES.flatMap((s) => [s.name, ...s.aliases].map((n) => [placeMatchKey(n), s.code] as const)),
)

export type StateMatch = { code: string; form: 'code' | 'name' }

/** "wa", "W.A.", "D.C." are codes (a case or punctuation difference only); "Illinois", "Calif.", "Wash DC" are names. */
export function matchState(words: readonly string[]): StateMatch | null {
  if (words.length === 1) {
    const bare = words[0]!.toUpperCase().replace(/\./g, '')
    if (STATE_CODES.has(bare)) return { code: bare, form: 'code' }
  }
  const code = CODE_BY_NAME_KEY.get(placeMatchKey(words.join(' ')))
  return code ? { code, form: 'name' } : null
}
