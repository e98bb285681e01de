// `npm run admin -- <command> [options]` (commands in USAGE): account and API-key management
// (api.md "Authentication"). Talks to the running server's loopback admin listener, or opens the store when no
// server runs.
import { parseArgs } from 'node:util'
import { AdminError, connectAdmin, type AdminClient } from './admin/admin-client.ts'
import { SettingsError } from './base/settings-error.ts'
import { existsSync } from 'node:fs'
import { readEndpointAt } from './admin/endpoint-file.ts'
import { readServerSettings, type ServerSettings } from './settings.ts'
import { recoverStoreFile } from './store/recover-store-file.ts'
import { StoreOpenError } from './store/open-store-file.ts'
import { TierName } from './base/tiers.ts'

const USAGE = `usage: npm run admin -- <command> [options]
  create-account --name NAME --tier ${TierName.options.join('|')} [--json]
  create-key     --account ACCOUNT_ID [--json]
  revoke-key     --key KEY_ID [--json]
  list-accounts  [--json]
  usage          [--account ACCOUNT_ID] [--month YYYY-MM] [--json]
  recover-store  [--pid PID] [--json]   put back the store file a running server lost (store_file_lost)`

class UsageError extends Error {}

type Options = { name?: string; tier?: string; account?: string; key?: string; month?: string; pid?: string; json?: boolean }

async function main(argv: string[]): Promise<void> {
  const { positionals, values } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: {
      name: { type: 'string' },
      tier: { type: 'string' },
      account: { type: 'string' },
      key: { type: 'string' },
      month: { type: 'string' },
      pid: { type: 'string' },
      json: { type: 'boolean', default: false },
      help: { type: 'boolean', short: 'h' },
    },
  })
  const command = positionals[0]
  if (values.help || !command) {
    process.stdout.write(`${USAGE}\n`)
    return
  }
  const settings = readServerSettings()
  if (command === 'recover-store') {
    const { result, text } = await recoverStore(settings, values.pid)
    process.stdout.write(`${values.json ? JSON.stringify(result) : text}\n`)
    return
  }
  const client = await connectAdmin(settings)
  try {
    const { result, text } = await run(client, command, values)
    process.stdout.write(`${values.json ? JSON.stringify(result) : text}\n`)
  } finally {
    await client.close()
  }
}

const ONCE = 'The key is shown only now; store it safely.'

async function run(client: AdminClient, command: string, o: Options): Promise<{ result: unknown; text: string }> {
  const need = (value: string | undefined, flag: string) => {
    if (!value) throw new UsageError(`${command} needs --${flag}`)
    return value
  }
  switch (command) {
    case 'create-account': {
      const tier = TierName.safeParse(need(o.tier, 'tier'))
      if (!tier.success) throw new UsageError(`--tier must be one of ${TierName.options.join(', ')}`)
      const r = await client.createAccount({ name: need(o.name, 'name'), tier: tier.data })
      const trial = r.trial_ends_at ? `  trial ends ${r.trial_ends_at}` : ''
      return { result: r, text: `account ${r.account_id}  ${r.name}  ${r.tier}${trial}\nkey ${r.key_id}: ${r.api_key}\n${ONCE}` }
    }
    case 'create-key': {
      const r = await client.createKey({ account_id: need(o.account, 'account') })
      return { result: r, text: `key ${r.key_id} for ${r.account_id}: ${r.api_key}\n${ONCE}` }
    }
    case 'revoke-key': {
      const r = await client.revokeKey(need(o.key, 'key'))
      return { result: r, text: `key ${r.key_id} of ${r.account_id} revoked at ${r.revoked_at}` }
    }
    case 'list-accounts': {
      const r = await client.listAccounts()
      const lines = r.accounts.flatMap((a) => [
        `${a.account_id}  ${a.name}  ${a.tier}  created ${a.created_at}${a.trial_ends_at ? `  trial ends ${a.trial_ends_at}` : ''}`,
        ...a.keys.map((k) => `  ${k.key_id}  ${k.key_prefix}…  ${k.revoked_at ? `revoked ${k.revoked_at}` : 'active'}`),
      ])
      return { result: r, text: lines.join('\n') || 'no accounts' }
    }
    case 'usage': {
      const r = await client.usage({ account_id: o.account, month: o.month })
      return { result: r, text: r.usage.map((u) => `${u.account_id}  ${u.month}  ${u.lookups}`).join('\n') || 'no usage' }
    }
    default:
      throw new UsageError(`unknown command ${command}`)
  }
}

// Works on the files of a server that still runs, never through its admin listener: its store is
// what was lost, and its endpoint file may have gone with it (hence --pid).
async function recoverStore(settings: ServerSettings, pidOption: string | undefined): Promise<{ result: unknown; text: string }> {
  if (settings.store.kind !== 'duckdb') throw new UsageError('recover-store is for a DuckDB store file; PostgreSQL keeps its own files')
  const endpoint = settings.adminEndpointFile ? await readEndpointAt(settings.adminEndpointFile) : null
  const pid = pidOption === undefined ? endpoint?.pid : Number(pidOption)
  if (pid === undefined || !Number.isInteger(pid) || pid <= 0) throw new UsageError('recover-store needs --pid PID of the running server (its endpoint file is gone)')
  if (!existsSync(`/proc/${pid}/fd`)) throw new UsageError(`no process ${pid} runs here: the store can be recovered only while the server that lost it still runs`)
  const files = recoverStoreFile(settings.store.file, pid, Date.now())
  const lines = files.map((f) => `${f.file}: ${f.outcome === 'restored' ? `restored from process ${pid}${f.displaced ? ` (the file found there moved to ${f.displaced})` : ''}` : f.outcome === 'in_place' ? 'in place' : `not open in process ${pid}`}`)
  const restored = files.some((f) => f.outcome === 'restored')
  lines.push(restored ? 'Now restart the server: it keeps its write-ahead log at shutdown, and the next start replays it into the restored file.' : 'Nothing to restore.')
  return { result: { pid, files, restart_needed: restored }, text: lines.join('\n') }
}

try {
  await main(process.argv.slice(2))
} catch (error) {
  const known = error instanceof UsageError || error instanceof AdminError || error instanceof SettingsError || error instanceof StoreOpenError
  process.stderr.write(`${known ? (error as Error).message : (error as Error).stack}\n`)
  if (error instanceof UsageError) process.stderr.write(`${USAGE}\n`)
  process.exitCode = error instanceof UsageError ? 2 : 1
}
