/**
 * Which of a store's schema migrations a database has run and which are still to run, read
 * from Kysely's bookkeeping table without changing anything (`fleetgate migrate` reports it).
 */
import type { Migrator } from 'kysely';

export interface MigrationState {
  applied: string[];
  pending: string[];
}

export async function migrationState(migrator: Migrator): Promise<MigrationState> {
  const all = await migrator.getMigrations();
  return {
    applied: all.filter((m) => m.executedAt !== undefined).map((m) => m.name),
    pending: all.filter((m) => m.executedAt === undefined).map((m) => m.name),
  };
}
