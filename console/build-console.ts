// Builds the web console into one directory the server serves at / (TAXATLAS_CONSOLE_DIR): the
// pages, their scripts bundled by esbuild (the typed client, d3-geo and topojson-client inside),
// the stylesheet, the US states map (us-atlas, each state tagged with its code) and Swagger UI for
// the API reference, each text file also gzipped. Nothing is loaded from another host.
// `make build/console/index.html` runs it; tests call buildConsole() into a directory of their own.
import { cp, mkdir, readdir, readFile, rename, rm, writeFile } from 'node:fs/promises'
import { createRequire } from 'node:module'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { gzipSync } from 'node:zlib'
import { build } from 'esbuild'
import { STATES } from '../sources/index.ts'

const CONSOLE = path.dirname(fileURLToPath(import.meta.url))
const require = createRequire(import.meta.url)

/** The pages: where each is served, its title, its body (pages/*.html, set in pages/layout.html) and its script. */
const PAGES = [
  { file: 'index.html', page: 'freshness', title: 'Data freshness', script: 'freshness-page' },
  { file: 'lookup.html', page: 'lookup', title: 'Lookup playground', script: 'lookup-page' },
  { file: 'docs.html', page: 'docs', title: 'API reference', script: 'docs-page', head: ['<link rel="stylesheet" href="/assets/swagger-ui/swagger-ui.css">', '<script src="/assets/swagger-ui/swagger-ui-bundle.js"></script>'] },
  { file: 'account.html', page: 'account', title: 'Account', script: 'account-page' },
  { file: 'changes.html', page: 'changes', title: 'Rate changes', script: 'changes-page' },
  { file: 'returns.html', page: 'returns', title: 'Sales-tax return', script: 'returns-page' },
  { file: 'webhooks.html', page: 'webhooks', title: 'Webhooks', script: 'webhooks-page' },
]
const SWAGGER_FILES = ['swagger-ui-bundle.js', 'swagger-ui.css', 'LICENSE', 'NOTICE']
const COMPRESSED = /\.(html|js|css|json)$/

export async function buildConsole(outDir: string): Promise<void> {
  const building = `${outDir}.tmp-${process.pid}`
  await rm(building, { recursive: true, force: true })
  await mkdir(path.join(building, 'assets'), { recursive: true })
  await build({
    entryPoints: PAGES.map(({ script }) => path.join(CONSOLE, `${script}.ts`)),
    outdir: path.join(building, 'assets'),
    bundle: true,
    splitting: true,
    format: 'esm',
    platform: 'browser',
    target: 'es2022',
    minify: true,
    chunkNames: 'chunks/[name]-[hash]',
    legalComments: 'linked',
    logLevel: 'warning',
  })
  const layout = await readFile(path.join(CONSOLE, 'pages', 'layout.html'), 'utf8')
  for (const { file, page, title, script, head = [] } of PAGES) {
    const main = await withIncludes(await readFile(path.join(CONSOLE, 'pages', `${page}.html`), 'utf8'))
    const fields: Record<string, string> = { title, page, script, head: head.map((line) => `${line}\n`).join(''), main: main.trimEnd() }
    const html = layout.replace(/\{\{(\w+)\}\}/g, (_, name: string) => fields[name]).replace(`data-page="${page}">`, `data-page="${page}" aria-current="page">`)
    await writeFile(path.join(building, file), html)
  }
  await cp(path.join(CONSOLE, 'console.css'), path.join(building, 'assets', 'console.css'))
  const swagger = path.dirname(require.resolve('swagger-ui-dist/package.json'))
  for (const name of SWAGGER_FILES) await cp(path.join(swagger, name), path.join(building, 'assets', 'swagger-ui', name))
  await writeFile(path.join(building, 'assets', 'states.json'), JSON.stringify(await statesTopology()))
  await gzipTextFiles(building)
  await rm(outDir, { recursive: true, force: true })
  await rename(building, outDir)
}

/** A page body with each `<!-- include: name.html -->` line replaced by that file of pages/ (text shared by pages). */
async function withIncludes(body: string): Promise<string> {
  const names = [...new Set([...body.matchAll(/<!-- include: ([\w-]+\.html) -->/g)].map((m) => m[1]!))]
  const parts = new Map(await Promise.all(names.map(async (name) => [name, (await readFile(path.join(CONSOLE, 'pages', name), 'utf8')).trimEnd()] as const)))
  return body.replace(/<!-- include: ([\w-]+\.html) -->/g, (_, name: string) => parts.get(name)!)
}

/** us-atlas's states (10m), each geometry with `code`, the lower-case state code the API uses. */
async function statesTopology(): Promise<unknown> {
  const topology = JSON.parse(await readFile(require.resolve('us-atlas/states-10m.json'), 'utf8'))
  const codeOf = new Map(STATES.map((state) => [state.fips, state.code.toLowerCase()]))
  const states = topology.objects.states
  states.geometries = states.geometries
    .filter((geometry: { id: string }) => codeOf.has(geometry.id))
    .map((geometry: { id: string; properties: { name: string } }) => ({ ...geometry, properties: { ...geometry.properties, code: codeOf.get(geometry.id) } }))
  topology.objects = { states }
  return topology
}

async function gzipTextFiles(dir: string): Promise<void> {
  for (const entry of await readdir(dir, { recursive: true, withFileTypes: true })) {
    if (!entry.isFile() || !COMPRESSED.test(entry.name)) continue
    const file = path.join(entry.parentPath ?? entry.path, entry.name)
    await writeFile(`${file}.gz`, gzipSync(await readFile(file), { level: 9 }))
  }
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const outDir = process.argv[2]
  if (!outDir) throw new Error('usage: tsx console/build-console.ts <output directory>')
  await buildConsole(path.resolve(outDir))
}
