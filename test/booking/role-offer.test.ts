// "Book me in with an engineer" (issue 58) at the real desk: offers with a role's people are the
// soonest across only them (their own hours), each named; the desk tells the agent each person's
// role word and the team's role words, members who do no service included. SQLite and PostgreSQL.
import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { createDeskFactory } from '../../core/booking/agent-booking-adapter.js';
import type { DatabaseHandle } from '../../core/db/client.js';
import { tablesOf } from '../../core/db/schema.js';
import { ownerMember } from '../../core/team/store.js';
import { usePostgres } from '../helpers/use-postgres.js';
import { twoCoreEngines } from './two-cores.js';
import { addMember, ownerWithService, quiet, TEST_KEYS } from './fixtures.js';

const postgres = usePostgres();
// Tuesday 1 December 2026, 08:00 London.
const NOW = new Date('2026-12-01T08:00:00Z');
const engines = twoCoreEngines(postgres, 'role-offer-');
const afternoons = () => {
  const pm = [{ open: '13:00', close: '17:30' }];
  return { mon: pm, tue: pm, wed: pm, thu: pm, fri: pm, sat: [], sun: [] };
};

describe.each(engines)('offers with a role on $name', (engine) => {
  it('"an engineer": the soonest across the engineers who do it, each named; never the office manager free sooner', async () => {
    const [core] = (await engine.open()) as [DatabaseHandle];
    try {
      const { db } = core;
      const { staff } = tablesOf(db);
      const { user, service } = await ownerWithService(db);
      await ownerMember(db, user.id);
      const jo = await addMember(db, user.id, 'Jo', [{ serviceId: service.id }]);
      const tom = await addMember(db, user.id, 'Tom', [{ serviceId: service.id }], afternoons());
      const cy = await addMember(db, user.id, 'Cy', []);
      for (const [id, roleWord] of [[jo, 'office manager'], [tom, 'engineer'], [cy, 'apprentice']] as const) await db.update(staff).set({ roleWord }).where(eq(staff.id, id));
      const desk = createDeskFactory({ db, now: () => NOW, keys: TEST_KEYS, log: quiet })(user.id);

      expect((await desk.people()).map((p) => [p.name, p.roleWord])).toEqual([['Jo', 'office manager'], ['Tom', 'engineer']]);
      expect((await desk.roleWords()).sort()).toEqual(['apprentice', 'engineer', 'office manager']);

      const anyone = await desk.offer({ wish: 'tomorrow' });
      if (anyone.kind !== 'offered') throw new Error(`expected offers, got ${anyone.kind}`);
      expect(anyone.slots.map((s) => s.staffName)).toEqual(['Jo', 'Jo', 'Jo']);
      const engineers = await desk.offer({ wish: 'tomorrow', staffIds: [tom] });
      if (engineers.kind !== 'offered') throw new Error(`expected offers, got ${engineers.kind}`);
      expect(engineers.slots.map((s) => [s.start.toISOString(), s.staffName])).toEqual([
        ['2026-12-02T13:00:00.000Z', 'Tom'], ['2026-12-02T13:30:00.000Z', 'Tom'], ['2026-12-02T14:00:00.000Z', 'Tom'],
      ]);
      // Both of them: the soonest across the two, Jo's morning first.
      const both = await desk.offer({ wish: 'tomorrow', staffIds: [tom, jo] });
      if (both.kind !== 'offered') throw new Error(`expected offers, got ${both.kind}`);
      expect(both.slots[0]).toMatchObject({ staffName: 'Jo', start: new Date('2026-12-02T09:00:00.000Z') });
    } finally {
      await core.close();
    }
  });
});
