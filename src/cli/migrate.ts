/**
 * `fleetgate migrate`: opens the configured store, applies the schema migrations it has not run
 * yet, and says which (the service does the same at start; this lets an operator do it first,
 * say before a rollout, and see the result).
 */
import { parseConfig } from '../config.js';
import { openStore } from '../store/create-store.js';
import { describeStore, storeOptions } from './store-target.js';

export async function migrate(): Promise<number> {
  const config = parseConfig(process.env);
  const store = await openStore(storeOptions(config));
  try {
    const before = await store.migrations();
    await store.migrate();
    const after = await store.migrations();
    if (after.unknown.length > 0) {
      // A newer release migrated it: nothing to apply, and nothing is ever migrated back.
      process.stdout.write(
        `${describeStore(config)}: newer than this code: it has run ${after.unknown.join(', ')}, which this version does not know; nothing applied. Its schema still serves this version (an instance of it may keep running during a rolling upgrade); upgrade it.\n`,
      );
      return 0;
    }
    const applied = after.applied.filter((m) => !before.applied.includes(m));
    const latest = after.applied.at(-1) ?? 'none';
    process.stdout.write(
      `${describeStore(config)}: ${
        applied.length > 0
          ? `applied ${applied.length} migration(s): ${applied.join(', ')}; now at ${latest}.`
          : `up to date (${after.applied.length} migrations, latest ${latest}).`
      }\n`,
    );
    return 0;
  } finally {
    await store.close();
  }
}
