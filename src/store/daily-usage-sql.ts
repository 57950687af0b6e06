/**
 * The gateway's daily use of the platform's quotas, in SQL for both dialects (migration
 * 012_daily_usage), so every instance on one database counts against the same quotas when
 * there is no Redis. One row per UTC day, quota and subject (the account's quotas have subject
 * '', per-user ones the user's id): what was used and whether the platform said it is spent.
 * A take is all or nothing: each charge is a conditional increment in one write transaction.
 */
import type { Kysely, Migration } from 'kysely';
import type { DailyCharge, DailyUsageRow, DailyUsageStore } from './store.js';

interface UsageRow {
  day: string;
  quota: string;
  subject: string;
  used: number;
  /** 1 once the platform refused a call for this quota today (adopted until the reset). */
  exhausted: number;
}
export interface DailyUsageTables {
  daily_usage: UsageRow;
}

export const dailyUsageMigration: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema
      .createTable('daily_usage')
      .addColumn('day', 'text', (c) => c.notNull())
      .addColumn('quota', 'text', (c) => c.notNull())
      .addColumn('subject', 'text', (c) => c.notNull())
      .addColumn('used', 'integer', (c) => c.notNull())
      .addColumn('exhausted', 'integer', (c) => c.notNull())
      .addPrimaryKeyConstraint('daily_usage_pk', ['day', 'quota', 'subject'])
      .execute();
  },
};

/** The adapters' databases hold this table among others (Kysely's table map is invariant). */
export const asDailyUsageDb = <DB>(db: Kysely<DB>): Kysely<DailyUsageTables> =>
  db as unknown as Kysely<DailyUsageTables>;

/** Thrown inside the transaction to roll back the charges already made. */
class Refused extends Error {
  constructor(readonly charge: DailyCharge) {
    super('daily quota refused');
  }
}

export class DailyUsageRepo implements DailyUsageStore {
  constructor(
    private readonly db: Kysely<DailyUsageTables>,
    private readonly write: <T>(fn: (trx: Kysely<DailyUsageTables>) => Promise<T>) => Promise<T>,
  ) {}

  async take(day: string, charges: DailyCharge[]): Promise<DailyCharge | undefined> {
    try {
      await this.write(async (trx) => {
        for (const c of charges) {
          await trx
            .insertInto('daily_usage')
            .values({ day, quota: c.quota, subject: c.subject, used: 0, exhausted: 0 })
            .onConflict((oc) => oc.columns(['day', 'quota', 'subject']).doNothing())
            .execute();
          // The check and the count in one statement: two instances cannot both take the last one.
          let q = trx
            .updateTable('daily_usage')
            .set((eb) => ({ used: eb('used', '+', 1) }))
            .where('day', '=', day)
            .where('quota', '=', c.quota)
            .where('subject', '=', c.subject)
            .where('exhausted', '=', 0);
          if (c.limit !== null) q = q.where('used', '<', c.limit);
          const r = await q.executeTakeFirst();
          if (Number(r.numUpdatedRows) === 0) throw new Refused(c);
        }
      });
      return undefined;
    } catch (err) {
      if (err instanceof Refused) return err.charge;
      throw err;
    }
  }

  async add(day: string, quota: string, subject: string, n: number): Promise<void> {
    await this.db
      .insertInto('daily_usage')
      .values({ day, quota, subject, used: n, exhausted: 0 })
      .onConflict((oc) =>
        oc
          .columns(['day', 'quota', 'subject'])
          .doUpdateSet((eb) => ({ used: eb('daily_usage.used', '+', n) })),
      )
      .execute();
  }

  async exhaust(day: string, quota: string, subject: string): Promise<void> {
    await this.db
      .insertInto('daily_usage')
      .values({ day, quota, subject, used: 0, exhausted: 1 })
      .onConflict((oc) => oc.columns(['day', 'quota', 'subject']).doUpdateSet({ exhausted: 1 }))
      .execute();
  }

  async usage(day: string): Promise<DailyUsageRow[]> {
    const rows = await this.db.selectFrom('daily_usage').selectAll().where('day', '=', day).execute();
    return rows.map((r) => ({
      quota: r.quota,
      subject: r.subject,
      used: Number(r.used),
      exhausted: Number(r.exhausted) === 1,
    }));
  }

  async prune(beforeDay: string): Promise<number> {
    const r = await this.db.deleteFrom('daily_usage').where('day', '<', beforeDay).executeTakeFirst();
    return Number(r.numDeletedRows);
  }
}
