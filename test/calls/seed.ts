import { tablesOf, type Call } from '../../core/db/schema.js';
import type { TestServer } from '../helpers/server.js';

export type CallSeed = Partial<Omit<Call, 'id'>> & { userId: number };

/** Inserts call rows straight into the database, as the PBX would have written them. */
export async function insertCalls(server: TestServer, rows: CallSeed[]): Promise<Call[]> {
  const { calls } = tablesOf(server.database.db);
  return await server.database.db
    .insert(calls)
    .values(rows.map((r) => ({ fromNumber: '+447700900111', toNumber: '+447700900001', ...r })))
    .returning();
}
