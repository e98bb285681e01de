// Another process holding the store file open, as a second server, the admin command or a DuckDB
// shell would: a child that opens the file with DuckDB (which locks it) and keeps it until
// released. Used to lock a store before a server starts, and to hold it while a test watches the
// server retry.
import { spawn } from 'node:child_process'
import { PROJECT_ROOT } from './shared.ts'

export type StoreLocker = { pid: number; release: () => Promise<void> }

const SCRIPT = `
import { createRequire } from 'node:module'
const { DuckDBInstance } = createRequire(process.cwd() + '/package.json')('@duckdb/node-api')
const instance = await DuckDBInstance.create(process.argv[1])
process.stdout.write('locked\\n')
process.stdin.resume()
process.stdin.on('end', () => { instance.closeSync(); process.exit(0) })
`

/** Resolves once the child holds the file's lock; `release()` closes it and waits for the child to exit. */
export async function lockStore(file: string): Promise<StoreLocker> {
  const child = spawn(process.execPath, ['--input-type=module', '-e', SCRIPT, file], { cwd: PROJECT_ROOT, stdio: ['pipe', 'pipe', 'pipe'] })
  const killOnExit = () => child.kill('SIGKILL')
  process.once('exit', killOnExit)
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()))
  void exited.then(() => process.off('exit', killOnExit))
  let errors = ''
  child.stderr!.on('data', (chunk: Buffer) => (errors += chunk.toString()))
  await new Promise<void>((resolve, reject) => {
    child.stdout!.on('data', (chunk: Buffer) => chunk.toString().includes('locked') && resolve())
    child.once('exit', (code) => reject(new Error(`the locker exited (${code}) before locking ${file}:\n${errors}`)))
  })
  return {
    pid: child.pid!,
    release: async () => {
      child.stdin!.end()
      await exited
    },
  }
}
