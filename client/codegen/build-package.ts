// Builds the package in client/dist: the API types regenerated from the server's schemas, then the
// client bundled by esbuild as an ES module (dist/esm) and as CommonJS (dist/cjs, marked so by its
// own package.json), each beside the declarations tsc writes. Run by `npm run build` and before
// `npm pack` / `npm publish` (prepack).
import { cp, readdir, readFile, rm, writeFile } from 'node:fs/promises'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { build, type Format } from 'esbuild'
import { execa } from 'execa'
import { apiTypesSource } from './api-types-source.ts'

const CLIENT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..')
const DIST = path.join(CLIENT, 'dist')
const TSC = path.resolve(CLIENT, '../node_modules/.bin/tsc')

/** The module kinds built, each into its own folder. */
const FORMATS: { format: Format; dir: string }[] = [
  { format: 'esm', dir: path.join(DIST, 'esm') },
  { format: 'cjs', dir: path.join(DIST, 'cjs') },
]

export async function buildClientPackage(): Promise<void> {
  await writeIfChanged(path.join(CLIENT, 'api-types.ts'), apiTypesSource())
  await rm(DIST, { recursive: true, force: true })
  const [esm, cjs] = FORMATS
  await execa(TSC, ['-p', path.join(CLIENT, 'tsconfig.build.json'), '--outDir', esm.dir], { stdio: 'inherit' })
  await declarationsImportJs(esm.dir)
  await cp(esm.dir, cjs.dir, { recursive: true })
  await writeFile(path.join(cjs.dir, 'package.json'), `${JSON.stringify({ type: 'commonjs' })}\n`)
  for (const { format, dir } of FORMATS) {
    await build({
      entryPoints: [path.join(CLIENT, 'index.ts')],
      outfile: path.join(dir, 'index.js'),
      bundle: true,
      format,
      platform: 'neutral',
      target: 'es2022',
      legalComments: 'none',
      logLevel: 'warning',
    })
  }
}

// Left alone when unchanged: the repository's other tools read it meanwhile.
async function writeIfChanged(file: string, text: string): Promise<void> {
  if ((await readFile(file, 'utf8').catch(() => null)) !== text) await writeFile(file, text)
}

// The sources import each other as ./name.ts; the built files are ./name.js.
async function declarationsImportJs(dir: string): Promise<void> {
  for (const name of await readdir(dir)) {
    if (!name.endsWith('.d.ts')) continue
    const file = path.join(dir, name)
    const text = await readFile(file, 'utf8')
    await writeFile(file, text.replace(/(from\s+'\.\/[\w-]+)\.ts'/g, "$1.js'"))
  }
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) await buildClientPackage()
