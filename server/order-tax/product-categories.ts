// The product categories order tax understands (TaxJar's product_tax_code values), and per state
// how each level of tax treats them, with the source of every rule. Data only: what a rule means
// is computed in line-tax.ts. A line without a code is general tangible goods, taxed at every level.
// A state a category has no rule for is `not_modeled`: an order asking for it is refused (400)
// rather than taxed at a guess, unless the server treats such codes as general
// (TAXATLAS_UNKNOWN_TAX_CODES=general). Sales-tax holidays are not modelled.
import { dollarsToUnits } from '../sale/money.ts'

/** `rate`: a reduced rate (1e-5 units) that replaces the jurisdiction's own. */
export type Treatment = 'taxable' | 'exempt' | { rate: number }

export type CategoryRule =
  /** every item: `state` for the state level, `local` for county, city and special districts */
  | { kind: 'levels'; state: Treatment; local: 'taxable' | 'exempt'; source: string }
  /** each item's price up to `perItem` (money units) is exempt at every level; the excess is taxed */
  | { kind: 'exempt_up_to'; perItem: number; source: string }
  /**
   * an item priced below `perItem` is exempt from the state and special-district levels, and from
   * county and city taxes only in `localExemptCounties` (5-digit FIPS); at or above it, taxed in full
   */
  | { kind: 'exempt_below'; perItem: number; localExemptCounties: readonly string[]; localNote: string; source: string }
  | { kind: 'not_modeled'; reason: string }

export type Category = {
  code: string
  name: string
  description: string
  /** the rule of every state without its own entry */
  otherwise: CategoryRule
  states: Readonly<Record<string, CategoryRule>>
}

const exempt = (source: string): CategoryRule => ({ kind: 'levels', state: 'exempt', local: 'exempt', source })
const taxable = (source: string): CategoryRule => ({ kind: 'levels', state: 'taxable', local: 'taxable', source })
const stateRate = (rate: Treatment, source: string): CategoryRule => ({ kind: 'levels', state: rate, local: 'taxable', source })

/** States with no general sales tax: nothing to collect, whatever the product. */
const NO_SALES_TAX: Record<string, CategoryRule> = Object.fromEntries(
  ['DE', 'MT', 'NH', 'OR'].map((code) => [code, exempt('no state or local general sales tax (rules table: general_sales_tax = no)')]),
)

const SHARED_BASE = 'local taxes share the state base'

export const CATEGORIES: readonly Category[] = [
  {
    code: '20010',
    name: 'Clothing',
    description: 'All human wearing apparel suitable for general use.',
    otherwise: taxable('no general clothing exemption in the state (sales-tax holidays are not modelled)'),
    states: {
      ...NO_SALES_TAX,
      MN: exempt(`Minn. Stat. § 297A.67 subd. 8 (clothing); ${SHARED_BASE} (§ 297A.99 subd. 4)`),
      NJ: exempt('N.J.S.A. 54:32B-8.4 (clothing and footwear; fur clothing excepted)'),
      PA: exempt(`72 P.S. § 7204(26) (clothing; formal apparel, furs and sporting goods excepted); the Allegheny and Philadelphia ${SHARED_BASE}`),
      VT: exempt('32 V.S.A. § 9741(45) (clothing); local option taxes share the state base (24 V.S.A. § 138)'),
      MA: { kind: 'exempt_up_to', perItem: Number(dollarsToUnits(175)), source: 'M.G.L. c. 64H § 6(k): clothing exempt up to $175 per item; the excess is taxed' },
      RI: { kind: 'exempt_up_to', perItem: Number(dollarsToUnits(250)), source: 'R.I. Gen. Laws § 44-18-30(27): clothing and footwear exempt up to $250 per item; the excess is taxed' },
      NY: {
        kind: 'exempt_below',
        perItem: Number(dollarsToUnits(110)),
        // New York City's five counties: Bronx, Kings, New York, Queens, Richmond.
        localExemptCounties: ['36005', '36047', '36061', '36081', '36085'],
        localNote:
          'New York City exempts clothing under $110 from its local tax; the other localities that elected the exemption (Publication 718-C) are not in the table, so their local tax is applied',
        source:
          'N.Y. Tax Law § 1115(a)(30) and Publication 718-C: clothing and footwear under $110 per item are exempt from the 4% state tax and the 0.375% MCTD tax; local taxes apply unless the locality elected the exemption',
      },
    },
  },
  {
    code: '40030',
    name: 'Food & Groceries',
    description: 'Food for human consumption, unprepared.',
    otherwise: { kind: 'not_modeled', reason: "the state's (or its localities') treatment of groceries is not in the table" },
    states: {
      ...NO_SALES_TAX,
      CA: exempt(`Cal. Rev. & Tax. Code § 6359; Bradley-Burns and district taxes share the base`),
      CT: exempt('Conn. Gen. Stat. § 12-412(13)'),
      DC: exempt('D.C. Code § 47-2005 (food for human consumption off the premises)'),
      FL: exempt(`Fla. Stat. § 212.08(1); discretionary surtaxes apply only to taxable sales`),
      IA: exempt(`Iowa Code § 423.3(57); ${SHARED_BASE}`),
      IN: exempt('Ind. Code § 6-2.5-5-20'),
      KY: exempt('KRS 139.485'),
      MA: exempt('M.G.L. c. 64H § 6(h)'),
      MD: exempt('Md. Code, Tax-Gen. § 11-206'),
      ME: exempt('36 M.R.S. § 1760(3)'),
      MI: exempt('MCL 205.54g'),
      MN: exempt(`Minn. Stat. § 297A.67 subd. 2; ${SHARED_BASE}`),
      ND: exempt(`N.D.C.C. § 57-39.2-04.1; ${SHARED_BASE}`),
      NE: exempt(`Neb. Rev. Stat. § 77-2704.24; ${SHARED_BASE}`),
      NJ: exempt('N.J.S.A. 54:32B-8.2'),
      NM: exempt(`NMSA § 7-9-92 (food sold at retail food stores); ${SHARED_BASE}`),
      NV: exempt(`NRS 372.284; ${SHARED_BASE}`),
      NY: exempt(`N.Y. Tax Law § 1115(a)(1); ${SHARED_BASE}`),
      OH: exempt(`Ohio Rev. Code § 5739.02(B)(2); ${SHARED_BASE}`),
      PA: exempt(`72 P.S. § 7204(29); ${SHARED_BASE}`),
      RI: exempt('R.I. Gen. Laws § 44-18-30(9)'),
      TX: exempt(`Tex. Tax Code § 151.314; ${SHARED_BASE}`),
      VT: exempt(`32 V.S.A. § 9741(13); ${SHARED_BASE}`),
      WA: exempt(`RCW 82.08.0293; ${SHARED_BASE}`),
      WI: exempt(`Wis. Stat. § 77.54(20n); ${SHARED_BASE}`),
      WV: exempt(`W. Va. Code § 11-15-3a (food for home consumption); ${SHARED_BASE}`),
      TN: stateRate({ rate: 4000 }, 'Tenn. Code § 67-6-228: food and food ingredients at a 4% state rate; local taxes apply at their own rate'),
      MO: stateRate({ rate: 1225 }, 'RSMo § 144.014: food at a 1.225% state rate; local taxes apply at their own rate'),
      AR: stateRate('exempt', 'rules table: the 0.125% state tax on groceries ended 2026-01-01; local taxes on food still apply'),
      KS: stateRate('exempt', 'rules table (state-rules.md): state rate on food 0% from 2025-01-01 (K.S.A. 79-3603); local taxes still apply'),
      OK: stateRate('exempt', 'HB 1955 (2024): state sales tax on groceries 0% from 2024-08-29 (68 O.S. § 1357.10); local taxes still apply'),
      HI: taxable('HRS § 237-13: the general excise tax applies to all gross income; no food exemption'),
      ID: taxable('Idaho Code § 63-3612: food is taxable (relief is an income-tax credit)'),
      SD: taxable('SDCL § 10-45-2: no food exemption; municipal taxes apply'),
      AL: { kind: 'not_modeled', reason: "the rules table marks Alabama's reduced grocery rate (3%, with a contingent cut to 2%) as uncertain, and local grocery rates vary" },
      IL: { kind: 'not_modeled', reason: 'Illinois ended its 1% state grocery tax on 2026-01-01 and localities may impose their own 1%; which did is not in the data' },
      MS: { kind: 'not_modeled', reason: "the rules table gives Mississippi's 5% state grocery rate (from 2025-07-01), not whether its local levies apply" },
    },
  },
  {
    code: '51020',
    name: 'Prescription',
    description: 'Drugs for human use administered or dispensed by prescription.',
    otherwise: exempt(`every state with a sales tax exempts prescription drugs for humans; ${SHARED_BASE}`),
    states: {
      IL: { kind: 'not_modeled', reason: 'Illinois taxes prescription drugs at its 1% low rate and some local taxes treat them differently; not in the table' },
      AK: { kind: 'not_modeled', reason: 'Alaska has only local taxes, each with its own exemptions' },
    },
  },
  {
    code: '31000',
    name: 'Digital Goods',
    description: 'Digital products transferred electronically, meaning obtained by the purchaser by means other than tangible storage media.',
    otherwise: { kind: 'not_modeled', reason: "the state's treatment of digital goods is not in the table" },
    states: {
      ...NO_SALES_TAX,
      CA: exempt('Cal. Code Regs. tit. 18 § 1502(f)(1)(D): a product transferred electronically, with no tangible medium, is not tangible personal property'),
      PA: taxable('Act 84 of 2016 (72 P.S. § 7201): digital downloads of video, audio, books, apps and games are taxable'),
      WA: taxable(`RCW 82.04.192 and 82.08.020: digital products are retail sales; ${SHARED_BASE}`),
    },
  },
  {
    code: '30070',
    name: 'Software as a Service',
    description: 'Pre-written software, delivered electronically, but accessed remotely.',
    otherwise: { kind: 'not_modeled', reason: "the state's treatment of remotely accessed software is not in the table" },
    states: {
      ...NO_SALES_TAX,
      CA: exempt('Cal. Code Regs. tit. 18 § 1502: remote access to software transfers no tangible personal property'),
      PA: taxable('Act 84 of 2016 (72 P.S. § 7201): canned software accessed remotely is taxable'),
      WA: taxable(`RCW 82.04.050(6): remote access software is a digital automated service taxed as a retail sale; ${SHARED_BASE}`),
      MD: {
        kind: 'not_modeled',
        reason: "the rules table notes Maryland's 3% rate on data/IT and software-publishing services from 2025-07-01 (HB 352) but not which rate remote software takes",
      },
    },
  },
  {
    code: '99999',
    name: 'Other Exempt',
    description: 'Item is exempt.',
    otherwise: exempt("the seller's classification: an item it holds exempt by law or certificate"),
    states: {},
  },
]

const BY_CODE = new Map(CATEGORIES.map((category) => [category.code, category]))

export const categoryOf = (code: string): Category | undefined => BY_CODE.get(code)

export const SUPPORTED_CODES: readonly string[] = CATEGORIES.map((category) => category.code)

/** The rule of a category in a state. */
export const ruleIn = (category: Category, state: string): CategoryRule => category.states[state] ?? category.otherwise
