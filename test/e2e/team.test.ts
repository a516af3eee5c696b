// The Team page (issue 58, item 7) in Chromium at 375 and 1280 px with axe-core and the 320 px
// fit check in each state: the owner builds a team of three (hours, services, a routing rule)
// and the page reads it back from the server; a removal the server refuses shows its sentence;
// a staff member invited by e-mail signs in and sees only their own navigation.
// Runs against the real server: the team routes (issue 58 parts A and B) must be merged.
import { describe, expect, it } from 'vitest';
import { seriousViolations } from './support/axe.js';
import { attachScreenshot, customerPage, expectToast, logInThroughDialog, outboxMails, until, useE2E } from './support/browser.js';
import { outsideViewport } from './support/viewport-fit.js';
import type { Page } from 'playwright-core';

const e2e = useE2E({}, 150_000);

const clean = async (page: Page) => {
  expect(await seriousViolations(page)).toEqual([]);
  expect(await outsideViewport(page)).toEqual([]);
};

async function addPerson(page: Page, name: string, otherNames: string, role: string) {
  await page.getByRole('button', { name: 'Add a person' }).click();
  const dialog = page.getByRole('dialog', { name: 'Add a person' });
  await dialog.getByLabel('Name', { exact: true }).fill(name);
  await dialog.getByLabel('Other names callers use').fill(otherNames);
  await dialog.getByLabel('Role', { exact: true }).fill(role);
  await dialog.getByRole('button', { name: 'Add', exact: true }).click();
  await expectToast(page, `${name} added`);
  await page.getByRole('listitem', { name }).waitFor();
}

describe.each([375, 1280])('Team at %i px', (width) => {
  it('builds a team of three with hours, services and a rule, and shows the refusal to remove someone a rule names', async ({ annotate }) => {
    const { page, customer } = await customerPage(e2e, { businessName: 'Hale Plumbing', businessPhone: `07700 9008${width === 375 ? '61' : '62'}` }, { width, height: 900 });
    const service = await customer.client.post('/api/user/booking/services', { name: 'Boiler service', durationMinutes: 60 });
    expect(service.status).toBe(201);

    await page.goto('/dashboard/team');
    await page.getByRole('heading', { name: 'Team', level: 1 }).waitFor();
    const members = page.getByRole('list', { name: 'Team members' });
    await members.getByRole('listitem').first().getByText('Owner', { exact: true }).first().waitFor();
    await clean(page);

    await addPerson(page, 'Sarah', 'Sam, Samantha', 'engineer');
    await addPerson(page, 'Tom', 'Tommy', 'office');
    expect(await members.getByRole('listitem').count()).toBe(3);

    // Sarah's own hours: the week starts Monday to Friday, 09:00–17:30; Friday taken off.
    await page.getByRole('button', { name: 'Hours: Sarah' }).click();
    const hours = page.getByRole('dialog', { name: "Sarah's hours" });
    await hours.getByRole('switch', { name: /Own working hours/ }).click();
    await hours.getByRole('button', { name: 'Remove Friday 09:00 to 17:30' }).click();
    await clean(page);
    await hours.getByRole('button', { name: 'Save hours' }).click();
    await expectToast(page, "Sarah's hours saved");

    // Sarah does the boiler service, in 45 minutes.
    await page.getByRole('button', { name: 'Services: Sarah' }).click();
    const services = page.getByRole('dialog', { name: 'What Sarah does' });
    await services.getByRole('checkbox', { name: 'Boiler service' }).check();
    await services.getByRole('spinbutton', { name: "Sarah's length for Boiler service, in minutes" }).fill('45');
    await services.getByRole('button', { name: 'Save services' }).click();
    await expectToast(page, "Sarah's services saved");

    // Emergencies ring any engineer; new enquiries ring Tom.
    const rules = page.getByRole('region', { name: 'Routing rules' });
    await rules.getByLabel('When the caller').selectOption('emergency');
    await rules.getByLabel('Ring', { exact: true }).selectOption({ label: 'anyone who is an engineer' });
    await rules.getByRole('button', { name: 'Add rule' }).click();
    await rules.getByLabel('When the caller').selectOption('new-enquiry');
    await rules.getByLabel('Ring', { exact: true }).selectOption({ label: 'Tom' });
    await rules.getByRole('button', { name: 'Add rule' }).click();
    await rules.getByRole('button', { name: 'Save rules' }).click();
    await expectToast(page, 'Routing rules saved');
    await clean(page);
    await attachScreenshot(page, annotate, `team-${width}`);

    // What the server stored is what the page built.
    const team = await customer.client.get('/api/user/team');
    expect(team.status).toBe(200);
    const byName = (n: string) => team.body.members.find((m: { name: string }) => m.name === n);
    expect(team.body.members.map((m: { name: string }) => m.name)).toEqual(['Owner', 'Sarah', 'Tom']);
    expect(byName('Sarah')).toMatchObject({ otherNames: ['Sam', 'Samantha'], roleWord: 'engineer', services: [{ serviceId: service.body.id, durationMinutes: 45 }] });
    expect(byName('Sarah').hours.fri ?? []).toEqual([]);
    expect(byName('Sarah').hours.mon).toEqual([{ open: '09:00', close: '17:30' }]);
    expect(team.body.settings.rules).toEqual([
      { when: 'emergency', then: { kind: 'role', roleWord: 'engineer' } },
      { when: 'new-enquiry', then: { kind: 'person', staffId: byName('Tom').id } },
    ]);

    // Read back after a reload, in words.
    await page.reload();
    await page.getByRole('list', { name: 'Routing rules' }).getByText('When the caller says it is an emergency → ring anyone who is an engineer').waitFor();
    await page.getByRole('list', { name: 'Routing rules' }).getByText('When the caller is a new enquiry → ring Tom').waitFor();
    const sarah = page.getByRole('listitem', { name: 'Sarah' });
    await sarah.getByText('Their own').first().waitFor();
    await sarah.getByText('1 service').waitFor();

    // Tom is named by rule 2: the server refuses his removal and the dialog shows its sentence.
    await page.getByRole('button', { name: 'Remove: Tom' }).click();
    const remove = page.getByRole('dialog', { name: 'Remove Tom?' });
    await remove.getByRole('button', { name: 'Remove' }).click();
    await until(async () => expect(await remove.getByRole('alert').innerText()).toMatch(/Rule 2/));
    await clean(page);
    expect((await customer.client.get('/api/user/team')).body.members).toHaveLength(3);
  });

  it("shows a staff member invited by e-mail only their own pages, with whose sign-in it is", async ({ annotate }) => {
    const { page: owner, customer } = await customerPage(e2e, { businessName: 'Hale Salon', businessPhone: `07700 9008${width === 375 ? '71' : '72'}` }, { width, height: 900 });
    await owner.goto('/dashboard/team');
    await addPerson(owner, 'Sarah', '', 'stylist');
    await owner.getByRole('button', { name: 'Invite: Sarah' }).click();
    const invite = owner.getByRole('dialog', { name: "Sarah's sign-in" });
    const email = `sarah-${width}@example.co.uk`;
    await invite.getByLabel('E-mail').fill(email);
    await invite.getByRole('button', { name: 'Send invitation' }).click();
    await owner.getByRole('listitem', { name: 'Sarah' }).getByText('Invited').waitFor();

    // The invitation's link, on this box, sets Sarah's password.
    const link = await until(() => {
      const mail = outboxMails(e2e.server).find((m) => m.includes(email));
      const path = mail && /https?:\/\/[^\s/]+(\/[^\s"<>]+)/.exec(mail)?.[1];
      if (!path) throw new Error('no invitation mail yet');
      return path;
    });
    const staff = await e2e.page({ width, height: 900 });
    await staff.goto(link);
    await staff.getByLabel('New Password').fill('sarah-pass-1');
    await staff.getByLabel('Confirm Password').fill('sarah-pass-1');
    await staff.getByRole('button', { name: /password/i }).click();
    await logInThroughDialog(staff, email, 'sarah-pass-1');

    await staff.getByTestId('staff-banner').getByText('Signed in as Sarah at Hale Salon').waitFor();
    if (width === 375) await staff.getByRole('button', { name: 'Toggle sidebar' }).click();
    const nav = staff.getByRole('navigation', { name: 'Dashboard' });
    await nav.getByRole('link', { name: 'Call Logs' }).waitFor();
    expect(await nav.getByRole('link').allInnerTexts()).toEqual(['Call Logs', 'Live', 'AI Questions', 'Caller Texts', 'Bookings', 'Account Settings']);
    await clean(staff);
    await attachScreenshot(staff, annotate, `team-staff-${width}`);

    // A page the navigation does not offer sends them back to Call Logs.
    await staff.goto('/dashboard/team');
    await staff.waitForURL('**/dashboard');
    expect((await customer.client.get('/api/user/team')).status).toBe(200);
  });
});
