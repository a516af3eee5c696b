// Issue 52 item 5: transaction() keeps a body that reads, decides and writes correct on
// PostgreSQL even when it takes no lock. Two cores here are two pools on one throw-away
// PostgreSQL, each running several bodies at once, all about the same rows.
import { and, count, eq, inArray } from 'drizzle-orm';
import { afterEach, describe, expect, it } from 'vitest';
import { insertUser } from '../../core/accounts/users.js';
import { createCallerTextRoad, type RoadResult } from '../../core/caller-texts/road.js';
import type { DatabaseHandle, Db } from '../../core/db/client.js';
import { openAppDatabase } from '../../core/db/open.js';
import { tablesOf } from '../../core/db/schema.js';
import { transaction } from '../../core/db/transaction.js';
import type { MessageGateway } from '../../core/notify/gateway.js';
import { usePostgres } from '../helpers/use-postgres.js';

const postgres = usePostgres();
const quiet = { info: () => {}, warn: () => {}, error: () => {} };
const cores: DatabaseHandle[] = [];
afterEach(async () => {
  for (const core of cores.splice(0)) await core.close();
});

/** Two cores' pools on one fresh database, and an owner. */
async function twoCores(): Promise<{ a: Db; b: Db; ownerId: number }> {
  const url = await postgres().createDatabase({ migrated: true });
  cores.push(...(await Promise.all([1, 2].map(() => openAppDatabase({ kind: 'postgres', url }, quiet)))));
  const [a, b] = cores.map((c) => c.db) as [Db, Db];
  const owner = await insertUser(a, { email: 'serial@example.co.uk', passwordHash: 'not-used', accountStatus: 'active', businessName: 'Serial Ltd' });
  return { a, b, ownerId: owner.id };
}

/** Runs `body` `times` times in all, `lanes` at a time on each core, and resolves when every one has. */
async function onBothCores(cores: Db[], lanes: number, times: number, body: (db: Db) => Promise<void>): Promise<void> {
  let started = 0;
  const lane = async (db: Db) => {
    while (started < times) {
      started++;
      await body(db);
    }
  };
  await Promise.all(cores.flatMap((db) => Array.from({ length: lanes }, () => lane(db))));
}

describe('transaction() on PostgreSQL: SERIALIZABLE bodies on two cores, without locks', () => {
  it('read how many rows there are, then write the next number: 60 bodies, 8 at a time, number 1 to 60 each once', async () => {
    const { a, b, ownerId } = await twoCores();
    const { unansweredQuestions } = tablesOf(a);
    const BODIES = 60;
    // The body forgets every lock: it counts, decides the next number, and inserts it.
    await onBothCores([a, b], 4, BODIES, (db) =>
      transaction(db, async (tx) => {
        const [row] = await tx.select({ n: count() }).from(unansweredQuestions).where(eq(unansweredQuestions.userId, ownerId));
        await tx.insert(unansweredQuestions).values({ userId: ownerId, question: `#${(row?.n ?? 0) + 1}` });
      }),
    );
    const numbers = (await a.select({ q: unansweredQuestions.question }).from(unansweredQuestions).where(eq(unansweredQuestions.userId, ownerId))).map((r) => r.q);
    expect(numbers.sort((x, y) => Number(x.slice(1)) - Number(y.slice(1)))).toEqual(Array.from({ length: BODIES }, (_, i) => `#${i + 1}`));
  });

  it('insert only when there is no row yet: 30 questions, each asked by 4 bodies at once on two cores, each stored once', async () => {
    const { a, b, ownerId } = await twoCores();
    const { unansweredQuestions } = tablesOf(a);
    const QUESTIONS = 30;
    for (let q = 0; q < QUESTIONS; q++) {
      const question = `Do you work on Sundays? (${q})`;
      // No unique index on a question: only the body's own check keeps it single.
      const askOnce = (db: Db) =>
        transaction(db, async (tx) => {
          const asked = await tx.select({ id: unansweredQuestions.id }).from(unansweredQuestions)
            .where(and(eq(unansweredQuestions.userId, ownerId), eq(unansweredQuestions.question, question))).limit(1);
          if (asked.length === 0) await tx.insert(unansweredQuestions).values({ userId: ownerId, question });
        });
      await Promise.all([askOnce(a), askOnce(b), askOnce(a), askOnce(b)]);
    }
    const rows = await a.select({ question: unansweredQuestions.question, n: count() }).from(unansweredQuestions)
      .where(eq(unansweredQuestions.userId, ownerId)).groupBy(unansweredQuestions.question);
    expect(rows.length).toBe(QUESTIONS);
    expect(rows.filter((r) => r.n !== 1)).toEqual([]);
  });

  it('the caller-texts road under a burst: 24 text-backs to one range at once on two cores, each re-run within the retry budget, one sent', async () => {
    const { a, b, ownerId } = await twoCores();
    const sent: string[] = [];
    const gateway: MessageGateway = {
      name: 'counting',
      send: async (msg) => {
        sent.push(msg.to);
        return { providerId: `SM${sent.length}` };
      },
      reconcile: async () => ({ sent: false }),
    };
    const roadOn = (db: Db) => createCallerTextRoad({ db, gateway, now: () => new Date(), log: quiet, caps: { dailyPerOwner: 100, dailyBox: 1000 } });
    const roads = [roadOn(a), roadOn(b)];
    // 24 callers of one range of 100 numbers: the window allows one text-back to the range.
    const results: RoadResult[] = await Promise.all(
      Array.from({ length: 24 }, (_, i) =>
        roads[i % 2]!.send({ userId: ownerId, to: `+4477009001${String(i).padStart(2, '0')}`, from: '+441632960001', kind: 'text-back', body: 'Sorry we missed you.', key: `text-back:${i}`, windowHours: 24, retry: false }),
      ),
    );
    expect(results.map((r) => r.outcome).sort()).toEqual([...Array.from({ length: 23 }, () => 'refused'), 'sent']);
    expect(sent).toHaveLength(1);
    const { callerTexts } = tablesOf(a);
    const stored = await a.select({ key: callerTexts.key }).from(callerTexts).where(inArray(callerTexts.kind, ['text-back']));
    expect(stored).toHaveLength(1);
  });
});
