// The JSON text of a simple answer (api.md "Simple answer"). A state's standing warnings are shared
// by every answer of the state and frozen (snapshot-facts.ts): each is serialized once and its text
// kept while the warning lives; the rest of the answer is serialized as usual.
import type { LookupWarning } from './lookup-warnings.ts'
import type { SimpleLookupBody } from './tax-response.ts'

const sharedTexts = new WeakMap<object, string>()

function warningText(warning: LookupWarning): string {
  if (typeof warning === 'string' || !Object.isFrozen(warning)) return JSON.stringify(warning)
  let text = sharedTexts.get(warning)
  if (text === undefined) sharedTexts.set(warning, (text = JSON.stringify(warning)))
  return text
}

/** The body's JSON text, `meta.warnings` written last in `meta`. */
export function simpleBodyText({ rate, meta }: SimpleLookupBody): string {
  const { warnings, ...rest } = meta
  const head = JSON.stringify(rest)
  return `{"rate":${JSON.stringify(rate)},"meta":${head.slice(0, -1)},"warnings":[${warnings.map(warningText).join(',')}]}}`
}
