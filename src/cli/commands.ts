/**
 * The CLI's commands: name, one-line summary, full help, the options each takes, and how it
 * runs. Each command's module is imported only when it runs, so `serve` and `sandbox` start
 * exactly as their own entries (src/main.ts, the emulator package's main) do, those entries first.
 */

export interface OptionSpec {
  /** Takes the next argument as its value (`--url <base>`). */
  value?: string;
}

export type Options = Record<string, string | true>;

export interface Command {
  name: string;
  summary: string;
  help: string;
  options: Record<string, OptionSpec>;
  /** The operands it requires, in order, by name (`backup <file>`). */
  operands?: string[];
  /** The exit code, or 'running' for a command that keeps the process (a server). */
  run(options: Options, operands: string[]): Promise<number | 'running'>;
}

const CONFIG =
  'Configuration comes from the environment, as for the service (FLEETGATE_DATA_DIR, DATABASE_URL,\nFLEETGATE_DB_SCHEMA, PORT, HOST, ...; see the README).';

export const COMMANDS: readonly Command[] = [
  {
    name: 'serve',
    summary: 'Start the service (as npm start does), with the emulator beside it in sandbox mode',
    help: `usage: fleetgate serve

Starts the service on HOST:PORT (default 127.0.0.1:3000): brand API and portal, gateway,
dashboard and MCP endpoints; in sandbox mode (no VIDEO_CLIENT_ID) the platform emulator too,
with the demo account linked. The same start as npm start and npm run dev (src/main.ts):
migrates the store, prints the URLs and, on the first start, the generated API key (on a
terminal; piped, only the path of the file it is saved in). A weak API key stops the start.
Stops cleanly on SIGTERM or SIGINT.

${CONFIG}
`,
    options: {},
    run: async () => {
      await import('../main.js');
      return 'running';
    },
  },
  {
    name: 'sandbox',
    summary: 'Start the platform emulator alone (as npm run sandbox does)',
    help: `usage: fleetgate sandbox

Starts the platform emulator alone on 127.0.0.1:SANDBOX_PORT (default 3001), as npm run sandbox
does (packages/platform-emulator): platform REST under /v2, OAuth under /oauth, the control API under
/_sandbox. Its state is kept in FLEETGATE_DATA_DIR. Stops on SIGTERM or SIGINT.

${CONFIG}
`,
    options: {},
    run: async () => {
      await import('@fleetgate/platform-emulator/main');
      return 'running';
    },
  },
  {
    name: 'migrate',
    summary: 'Apply the store’s pending schema migrations, say which, and exit',
    help: `usage: fleetgate migrate

Opens the configured store (PostgreSQL at DATABASE_URL, in FLEETGATE_DB_SCHEMA when set; else
SQLite at FLEETGATE_DATA_DIR/fleetgate.db), applies the schema migrations it has not run yet,
prints which, and exits. Safe to repeat and to run beside running instances: they migrate the
same way at start, and on PostgreSQL one lock lets only one of them apply a migration.

${CONFIG}
`,
    options: {},
    run: async () => (await import('./migrate.js')).migrate(),
  },
  {
    name: 'rotate-key',
    summary: 'Add a new token-encryption key and re-encrypt every sealed value under it',
    help: `usage: fleetgate rotate-key [--retire <keyId>]

Adds a new key to FLEETGATE_DATA_DIR/encryption-keys.json and re-encrypts every sealed value in
the store (tokens, PKCE verifiers, webhook subscription secrets) under it. Online: a running
instance still decrypts with the older keys, which are kept, and seals new values under the new
key from then on. Each value is rewritten only if it is still what was read, so a token refreshed
meanwhile is re-encrypted, not overwritten. With FLEETGATE_ENCRYPTION_KEY set, set it to the new
key afterwards (or unset it), or new values keep using the old one.

  --retire <keyId>   instead, remove an older key from encryption-keys.json, once nothing in the
                     store is sealed with it (rotate first); never the current or newest key

Exit status: 0 done; 1 a value could not be decrypted (it is left as it is), or the key was not
retired (the reason on stderr).

${CONFIG}
`,
    options: { '--retire': { value: 'keyId' } },
    run: async (o) =>
      typeof o['--retire'] === 'string'
        ? (await import('./retire-key.js')).retireKeyCommand(o['--retire'])
        : (await import('./rotate-key.js')).rotateKey(),
  },
  {
    name: 'status',
    summary: 'Print the link and status report (from the running service, else the store)',
    help: `usage: fleetgate status [--url <base>] [--offline] [--json]

Prints the link and status report. By default it asks the running service for the report the
dashboard shows (GET /api/video/status, live platform checks included), at http://HOST:PORT with
the API key from FLEETGATE_API_KEY or FLEETGATE_DATA_DIR/api-key. When nothing answers there, or
with --offline, it reads the store alone: the link, its account and token expiry, the stored
events and registrations; the platform is not asked.

  --url <base>   the service's base URL (default http://HOST:PORT; loopback for a wildcard HOST)
  --offline      read the store only, without calling the service
  --json         print the report as JSON: the service's body, or the store's summary

Exit status: 0 linked and healthy; 3 not linked, the link needs renewing, or the platform fails
(its cause is printed); 1 no report.

${CONFIG}
`,
    options: { '--url': { value: 'base' }, '--offline': {}, '--json': {} },
    run: async (o) =>
      (await import('./status.js')).status({
        ...(typeof o['--url'] === 'string' ? { url: o['--url'] } : {}),
        offline: o['--offline'] === true,
        json: o['--json'] === true,
      }),
  },
  {
    name: 'backup',
    summary: 'Write one archive to restore from: keys, API key, and on SQLite the database',
    help: `usage: fleetgate backup <file> [--force]

Writes a backup archive (a gzipped tar, mode 0600) while the service runs, with a manifest: the
fleetgate version, the store's migration level, every table's row count, the encryption key ids
and a SHA-256 checksum of each file. It holds:
  - on SQLite, a consistent online copy of FLEETGATE_DATA_DIR/fleetgate.db (SQLite's backup API:
    every write committed before it began, while writers go on);
  - the encryption keys the sealed tokens and webhook secrets need: encryption-keys.json, and
    FLEETGATE_ENCRYPTION_KEY when set (without them no copy of the store can open the tokens);
  - the API key from the data dir (not FLEETGATE_API_KEY, which you keep);
  - in sandbox mode, the emulator's state as it last saved it.
On PostgreSQL (DATABASE_URL) it does not hold the database: back that up with pg_dump and keep
both together; the archive holds the keys and a manifest read from the live database.
Keys are never printed, only their ids. The archive holds secrets: it is refused in a folder
other users can read, or over an existing file, unless --force.

  --force   write it even into a folder others can read, or over an existing file

Exit status: 0 written; 1 not written (the reason on stderr).

${CONFIG}
`,
    options: { '--force': {} },
    operands: ['file'],
    run: async (o, [file]) =>
      (await import('./backup.js')).backup({ file: file ?? '', force: o['--force'] === true }),
  },
  {
    name: 'restore',
    summary: 'Restore a backup archive into an empty data dir (migrated forward if older)',
    help: `usage: fleetgate restore <file> [--force]

Restores an archive written by fleetgate backup into FLEETGATE_DATA_DIR, which must be empty
(or missing); then npm start serves the linked account with its tokens readable, the stored
events, the outgoing webhooks not yet delivered (each delivered once) and the brand versions.
Before anything is put in place it checks the archive: every file against its checksum, the
migration level (an archive from a newer fleetgate is refused; an older one is migrated
forward), every table's row count against the manifest, and that its keys open every sealed
value.
On PostgreSQL (DATABASE_URL), restore the database's dump first (psql or pg_restore); this then
checks the archive's keys against that database and puts them, and the API key, in the data dir.

  --force   restore into a data dir that is not empty, replacing its store, keys and API key
            (stop the service first), or even when the keys do not open every sealed value

Exit status: 0 restored; 1 nothing restored (the reason on stderr).

${CONFIG}
`,
    options: { '--force': {} },
    operands: ['file'],
    run: async (o, [file]) =>
      (await import('./restore.js')).restore({ file: file ?? '', force: o['--force'] === true }),
  },
];

const HELP_LINE = { name: 'help', summary: 'Show this help, or a command’s: fleetgate help <command>' };

export const USAGE = `usage: fleetgate <command> [options]

Commands:
${[...COMMANDS, HELP_LINE].map((c) => `  ${c.name.padEnd(12)}${c.summary}`).join('\n')}

fleetgate <command> --help shows a command's help. Run through npm: npm run fleetgate -- <command>.
Exit status: 0 done, 1 failed, 2 not understood (this help on stderr).
`;

export const findCommand = (name: string): Command | undefined => COMMANDS.find((c) => c.name === name);
