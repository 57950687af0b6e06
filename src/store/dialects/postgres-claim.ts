/**
 * PostgreSQL's delivery claim: one statement that picks due deliveries `FOR UPDATE SKIP LOCKED`
 * (rows another instance is claiming right now are skipped, not waited for) and leases them, so
 * instances polling together each get different deliveries.
 */
import { dueDeliveries, type ClaimIds } from '../outbox-sql.js';

export const claimPostgres: ClaimIds = async (db, o) => {
  const rows = await db
    .with('due', () => dueDeliveries(db, o.now).limit(o.limit).forUpdate().skipLocked())
    .updateTable('webhook_deliveries')
    .set({ locked_until: o.now + o.leaseMs, lock_token: o.token })
    .where('id', 'in', (eb) => eb.selectFrom('due').select('due.id'))
    .returning('id')
    .execute();
  return rows.map((r) => r.id);
};
