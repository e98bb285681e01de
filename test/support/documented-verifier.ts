// The signature check docs/api.md gives receivers to copy, taken from the page as written: its
// `js` block defining verifyTaxatlasSignature, saved as a module and imported, so the tests check
// deliveries with the very code a receiver runs.
import { readFile, writeFile } from 'node:fs/promises'
import path from 'node:path'
import { pathToFileURL } from 'node:url'
import { PROJECT_ROOT } from './shared.ts'
import { tempDir } from './temp-dirs.ts'

export type Verifier = (rawBody: string, signature: string | undefined, secret: string, toleranceSeconds?: number) => boolean

export async function documentedVerifier(): Promise<Verifier> {
  const page = await readFile(path.join(PROJECT_ROOT, 'docs/api.md'), 'utf8')
  const block = [...page.matchAll(/```js\n([\s\S]*?)```/g)].map((m) => m[1]!).find((code) => code.includes('export function verifyTaxatlasSignature'))
  if (!block) throw new Error('docs/api.md has no js block defining verifyTaxatlasSignature')
  const file = path.join(await tempDir('verifier'), 'verify.mjs')
  await writeFile(file, block)
  const module = (await import(pathToFileURL(file).href)) as { verifyTaxatlasSignature: Verifier }
  return module.verifyTaxatlasSignature
}
