// The bundled server `make serve` runs (`make build/server/main.mjs` calls this script; so does
// test/server-bundle.test.ts, through make): server/main.ts and its dependencies as ES modules in
// one directory, what is imported dynamically split into chunks/ (loaded on first use), only
// DuckDB's native client left outside. docs/architecture.md "How the server starts".
//
// A CommonJS package imported with import() keeps its named exports here as it does unbundled.
// Node gives `import('undici')` the package's exports as names (`Agent`, `request`) beside
// `default`; esbuild's code splitting would make the package a chunk whose only export is
// `default`, so `undici.Agent` would be undefined in the bundle alone. Each such import goes
// through a small ES module instead that names every export the package has.
import { readFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { build, type Plugin } from 'esbuild'

// Bundled CommonJS dependencies call require(); an ES module has none, so the bundle gets one.
const REQUIRE_SHIM = "import { createRequire as __taxatlasRequire } from 'node:module'; const require = __taxatlasRequire(import.meta.url);"

/** Whether Node loads `file` as CommonJS: a .cjs file, or a .js file whose package is not `"type": "module"`. */
function isCommonJs(file: string): boolean {
  const extension = path.extname(file)
  if (extension === '.cjs') return true
  if (extension !== '.js') return false
  for (let dir = path.dirname(file); ; dir = path.dirname(dir)) {
    try {
      return JSON.parse(readFileSync(path.join(dir, 'package.json'), 'utf8')).type !== 'module'
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT' || path.dirname(dir) === dir) return true
    }
  }
}

/** Gives import() of a CommonJS module the namespace Node gives it: `default` and every export by name. */
const commonJsNamespaces: Plugin = {
  name: 'commonjs-namespaces',
  setup(builder) {
    const require = createRequire(import.meta.url)
    builder.onResolve({ filter: /.*/ }, async (args) => {
      if (args.kind !== 'dynamic-import' || args.pluginData === commonJsNamespaces) return undefined
      const resolved = await builder.resolve(args.path, { kind: args.kind, importer: args.importer, resolveDir: args.resolveDir, pluginData: commonJsNamespaces })
      if (resolved.errors.length > 0 || resolved.external || !isCommonJs(resolved.path)) return undefined
      return { path: resolved.path, namespace: 'commonjs-namespace' }
    })
    builder.onLoad({ filter: /.*/, namespace: 'commonjs-namespace' }, (args) => {
      // The names its exports object has once loaded: what Node would find, and any it misses.
      const names = Object.keys(require(args.path) as object).filter((name) => name !== 'default')
      const contents = [
        `const exported = require(${JSON.stringify(args.path)})`,
        'export default exported',
        ...names.map((name, i) => `const export${i} = exported[${JSON.stringify(name)}]\nexport { export${i} as ${JSON.stringify(name)} }`),
      ].join('\n')
      return { contents, loader: 'js', resolveDir: path.dirname(args.path) }
    })
  },
}

export async function bundleServer(outdir: string): Promise<void> {
  await build({
    entryPoints: ['server/main.ts'],
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    logLevel: 'warning',
    external: ['@duckdb/node-api'],
    banner: { js: REQUIRE_SHIM },
    splitting: true,
    outdir,
    outExtension: { '.js': '.mjs' },
    chunkNames: 'chunks/[name]-[hash]',
    plugins: [commonJsNamespaces],
  })
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const [outdir] = process.argv.slice(2)
  if (!outdir) throw new Error('usage: tsx server/build-bundle.ts <outdir>')
  await bundleServer(outdir)
}
