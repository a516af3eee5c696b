import type Database from 'better-sqlite3';

/**
 * A call that finished while the process was dying may never have fired the hook: the
 * finder returns recent finished calls (ended before `endedBefore`, epoch ms) without a
 * post-call job. Bounded to the newest rows so it stays cheap.
 */
export function orphanedCallFinder(sqlite: Database.Database): (endedBefore: number) => number[] {
  const orphans = sqlite.prepare(
    `select c.id from calls c
     where c.id > (select coalesce(max(id), 0) - 1000 from calls)
       and c.ended_at is not null and c.ended_at < ?
       and not exists (select 1 from jobs j where j.key = 'post-call:' || c.id)`,
  );
  return (endedBefore) => (orphans.all(endedBefore) as { id: number }[]).map((r) => r.id);
}
