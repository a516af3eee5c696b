// A busy appliance's data, made through the app's own SQLite schema: owners with sessions,
// numbers, calls with recordings' paths, questions, notifications, jobs, settings, webhooks
// and the rest, so the move to PostgreSQL (test/db/move-to-postgres.test.ts, bench) has every
// table and every kind of column (dates, booleans, JSON, enums, nulls) to carry.
import type { Db } from '../../core/db/client.js';
import { tablesOf } from '../../core/db/schema.js';
import { rng } from '../analytics/counter-model.js';

const STATUSES = ['missed', 'answered', 'voicemail'] as const;
const STEPS = ['none', 'pending', 'done', 'failed'] as const;
const URGENCIES = [null, 'urgent', 'normal', 'low'] as const;

/** Inserts in chunks SQLite's statement limits allow. */
async function insertAll<T>(rows: T[], insert: (chunk: T[]) => Promise<unknown>): Promise<void> {
  for (let i = 0; i < rows.length; i += 500) await insert(rows.slice(i, i + 500));
}

export async function fillAppliance(db: Db, opts: { owners: number; calls: number; seed?: number }): Promise<void> {
  const { appSettings, auditLog, bookingCalendars, bookingRules, bookingServices, bookings, boxSpamNumbers, callHandling, callerOptOuts, callerTexts, calls, destinationCodes, forwardingChecks, inboundMessages, jobs, notifications, outboundCalls, ownerWebhooks, passwordResetTokens, phoneNumbers, screeningSettings, sessions, spamMarks, staff, staffServices, teamSettings, textBackSettings, unansweredQuestions, users, webhookDeliveries, websiteCrawls, websitePages, websiteSites, kbDrafts, weeklyDigests, stripeConnections, billingSubscriptions, billingInvoices, stripeEvents, pushSubscriptions, pushAlerts, pushSettings, callLiveEvents, callBacks } = tablesOf(db);
  const r = rng(opts.seed ?? 1);
  const t0 = Date.parse('2025-01-01T00:00:00Z');
  const at = () => new Date(t0 + r.int(700 * 86_400_000));
  const owners = await db
    .insert(users)
    .values(
      Array.from({ length: opts.owners }, (_, i) => ({
        email: `owner${i}@example.co.uk`,
        passwordHash: `$argon2id$v=19$m=65536,t=3,p=4$${i}`,
        role: i === 0 ? ('admin' as const) : ('customer' as const),
        accountStatus: r.pick(['active', 'pending_approval', 'expired'] as const),
        trialExpiresAt: r.next() < 0.5 ? at() : null,
        businessName: `Plumber ${i} & Sons — “Leeds”`,
        callGreeting: r.next() < 0.5 ? 'Thanks for calling, leave a message.' : null,
        smsEnabled: r.next() < 0.7,
        whatsappEnabled: r.next() < 0.3,
        callbackReminderHours: r.next() < 0.5 ? 4 : null,
        phoneNumber: `+44113496${String(1000 + i)}`,
      })),
    )
    .returning({ id: users.id });
  const ids = owners.map((o) => o.id);
  await db.insert(sessions).values(ids.map((userId, i) => ({ idHash: `session-${i}`, userId, expiresAt: at() })));
  await db.insert(passwordResetTokens).values(ids.slice(0, 3).map((userId, i) => ({ tokenHash: `reset-${i}`, userId, expiresAt: at(), usedAt: i ? at() : null })));
  await db.insert(auditLog).values(ids.map((id, i) => ({ actorUserId: ids[0], actorEmail: 'owner0@example.co.uk', action: 'user.approved', targetUserId: id, details: { step: i, nested: { why: 'trial' } } })));
  await db.insert(phoneNumbers).values(
    ids.map((userId, i) => ({ phoneNumber: `+44113496${String(1000 + i)}`, provider: 'static', providerSid: `static-${i}`, userId: i % 5 ? userId : null, assignedAt: at() })),
  );
  await db.insert(callHandling).values(
    ids.slice(0, 5).map((userId) => ({
      userId,
      transferNumber: '+447700900123',
      hoursEnabled: true,
      hours: { mon: [{ open: '08:00', close: '17:30' }] } as never,
      holidayNations: ['england-wales'] as never,
      blockList: ['+447700900999'],
      vipList: [],
      updatedAt: at(),
    })),
  );
  await db.insert(appSettings).values([
    { key: 'retention', value: { recordingDays: 90, transcriptDays: null }, updatedAt: at() },
    { key: 'motd', value: 'hello', updatedAt: at() },
  ]);
  await db.insert(ownerWebhooks).values(ids.slice(0, 4).map((userId, i) => ({ userId, url: i ? `https://hooks.example.com/${i}` : null, secret: `whsec_${i}`, updatedAt: at() })));

  const callRows = Array.from({ length: opts.calls }, (_, i) => {
    const status = r.pick(STATUSES);
    return {
      userId: r.pick(ids),
      channelId: `1700000000.${i}`,
      fromNumber: `+4477009${String(r.int(100000)).padStart(5, '0')}`,
      toNumber: '+441134961000',
      status,
      duration: status === 'missed' ? 0 : r.int(300),
      createdAt: at(),
      endedAt: r.next() < 0.9 ? at() : null,
      recordingFile: status === 'voicemail' ? `2025/call-${i}.wav` : null,
      transcription: status === 'voicemail' ? `Hi, it's about the boiler (${i}).` : null,
      transcriptionStatus: status === 'voicemail' ? r.pick(STEPS) : ('none' as const),
      aiSummary: status === 'voicemail' ? 'Boiler leaking; call back today.' : null,
      notificationSent: r.next() < 0.6,
      notificationError: r.next() < 0.1 ? 'Twilio 21610' : null,
      urgency: r.pick(URGENCIES),
      agentBusy: r.next() < 0.05,
      agentStalled: r.next() < 0.05,
      testCall: r.next() < 0.05,
    };
  });
  await insertAll(callRows, (chunk) => db.insert(calls).values(chunk));
  const callIds = (await db.select({ id: calls.id, userId: calls.userId }).from(calls)).slice(0, Math.ceil(opts.calls / 3));

  await insertAll(
    callIds.slice(0, Math.ceil(callIds.length / 3)).map((c, i) => ({ userId: c.userId, callId: c.id, question: `Do you cover LS${i % 30}?`, callerNumber: '+447700900001', resolved: i % 2 === 0 })),
    (chunk) => db.insert(unansweredQuestions).values(chunk),
  );
  await insertAll(
    callIds.map((c) => ({ callId: c.id, userId: c.userId, channel: 'sms' as const, to: '+447700900123', body: 'New voicemail from 07700 900001', status: 'sent' as const, providerId: `SM${c.id}` })),
    (chunk) => db.insert(notifications).values(chunk),
  );
  await insertAll(
    callIds.map((c, i) => ({
      kind: 'post-call',
      key: `post-call:${c.id}`,
      payload: { callId: c.id },
      status: r.pick(['pending', 'running', 'done', 'failed'] as const),
      attempts: i % 3,
      runAt: at(),
      lockedAt: i % 4 === 0 ? at() : null,
      updatedAt: at(),
    })),
    (chunk) => db.insert(jobs).values(chunk),
  );
  await insertAll(
    callIds.slice(0, 200).map((c) => ({ userId: c.userId, callId: c.id, event: 'call.finished' as const, status: 'delivered' as const, attempts: 1, httpStatus: 200, deliveredAt: at() })),
    (chunk) => db.insert(webhookDeliveries).values(chunk),
  );
  await db.insert(inboundMessages).values(ids.map((userId, i) => ({ messageSid: `SM-in-${i}`, userId, channel: 'sms' as const, command: 'DONE', outcome: 'marked' })));
  await db.insert(outboundCalls).values(ids.map((userId) => ({ userId, startedAt: at(), seconds: r.int(120) })));
  await db.insert(weeklyDigests).values(ids.map((userId) => ({ userId, weekOf: '2026-11-16', status: 'sent' as const, calls: r.int(9), sentAt: at() })));
  await db.insert(destinationCodes).values(ids.slice(0, 3).map((userId, i) => ({ userId, kind: i % 2 ? ('email' as const) : ('sms' as const), destination: i % 2 ? `new${i}@example.co.uk` : `+4477009001${i}`, codeHash: `hash-${i}`, expiresAt: at(), createdAt: at() })));
  await db.insert(textBackSettings).values(ids.slice(0, 3).map((userId, i) => ({ userId, enabled: i > 0, wording: i === 2 ? 'Sorry we missed you — reply here' : null, windowHours: 24 + i, hours: (['always', 'open', 'closed'] as const)[i]!, updatedAt: at() })));
  await db.insert(callerTexts).values(ids.slice(0, 3).flatMap((userId, i) => [
    { userId, callerNumber: `+4477009002${i}0`, kind: 'text-back' as const, status: 'delivered' as const, body: 'Sorry we missed your call', segments: 1, key: `text-back:seed-${i}`, providerId: `SM${i}`, createdAt: at(), updatedAt: at() },
    { userId, callerNumber: `+4477009002${i}0`, kind: 'caller' as const, status: 'received' as const, body: 'Tuesday please', segments: 1, key: `in:seed-${i}`, createdAt: at(), updatedAt: at() },
  ]));
  await db.insert(callerOptOuts).values(ids.slice(0, 2).map((userId, i) => ({ userId, callerNumber: `+4477009003${i}0`, word: 'STOP', optedOutAt: at() })));
  // Booking (issue 41): services, rules, calendars (sealed secrets are opaque text here) and bookings, live and cancelled.
  const services = await db.insert(bookingServices).values(ids.slice(0, 3).map((userId, i) => ({ userId, name: `Service ${i}`, durationMinutes: 30 + i * 30, bufferMinutes: i * 5, agentSentence: i ? null : 'About half an hour.', pricePence: i ? 8500 : null, depositKind: (['none', 'fixed', 'full'] as const)[i]!, depositPence: i === 1 ? 2000 : null, depositHoldMinutes: 30 + i, archivedAt: i === 2 ? at() : null }))).returning();
  await db.insert(bookingRules).values(ids.slice(0, 2).map((userId, i) => ({ userId, hours: i ? null : { mon: [{ open: '08:00', close: '12:00' }], tue: [], wed: [], thu: [], fri: [], sat: [], sun: [] }, noticeMinutes: 60 * (i + 1), horizonDays: 14, dailyCap: i ? 4 : null, updatedAt: at() })));
  await db.insert(bookingCalendars).values(ids.slice(0, 2).map((userId, i) => ({ userId, icalUrlSealed: i ? 'v1.a.b.c' : null, caldavUrl: i ? null : 'https://dav.example.com/cal/', caldavUser: i ? null : 'owner0', caldavPasswordSealed: i ? null : 'v1.d.e.f', feedToken: `feed-${i}`, updatedAt: at() })));
  // The team (issue 58): an owner member and two staff (one removed), who does what, the team's settings.
  const members = await db.insert(staff).values(ids.slice(0, 3).flatMap((userId, i) => [
    { userId, name: 'Owner', otherNames: [], isOwner: true, position: 0 },
    { userId, name: `Sam ${i}`, otherNames: ['Samantha'], roleWord: 'stylist', phone: `+4477009006${i}0`, phoneConfirmedAt: at(), hours: { mon: [{ open: '09:00', close: '17:00' }], tue: [], wed: [], thu: [], fri: [], sat: [], sun: [] }, view: 'own' as const, position: 1, removedAt: i === 2 ? at() : null },
  ])).returning();
  const staffOf = (userId: number) => members.find((m) => m.userId === userId && !m.isOwner)!.id;
  await db.insert(staffServices).values(services.map((s, i) => ({ staffId: staffOf(s.userId), serviceId: s.id, durationMinutes: i ? null : 45 })));
  await db.insert(teamSettings).values(ids.slice(0, 2).map((userId, i) => ({ userId, ringFirst: i ? ('in-order' as const) : ('all' as const), ringSeconds: 15 + i * 5, copyOwner: i === 1, rules: [{ when: 'emergency' as const, then: { kind: 'on-call' as const } }], rota: { mon: staffOf(userId) }, updatedAt: at() })));
  await db.insert(bookings).values(services.flatMap((s, i) => [0, 1].map((k) => {
    const start = new Date(Date.UTC(2026, 11, 1 + i, 9 + k * 2));
    return { userId: s.userId, serviceId: s.id, startAt: start, endAt: new Date(start.getTime() + s.durationMinutes * 60_000), blockEndAt: new Date(start.getTime() + (s.durationMinutes + s.bufferMinutes) * 60_000), callerName: `Caller ${k}`, callerNumber: `+4477009004${i}${k}`, callId: null, slotKey: `${s.id}:${start.getTime()}`, staffId: staffOf(s.userId), status: k ? ('cancelled' as const) : ('booked' as const), cancelledBy: k ? ('owner' as const) : null, cancelledAt: k ? at() : null, ...(i === 1 ? { depositState: k ? ('refunded' as const) : ('awaiting' as const), depositPence: 2000, depositDueAt: at(), depositSessionId: `cs_test_${i}${k}`, depositUrl: `https://checkout.stripe.com/c/pay/cs_test_${i}${k}`, depositPaymentIntent: k ? `pi_${i}${k}` : null } : {}) };
  })));
  // Learning from the website (issue 55): a site, a finished crawl with a problem, its pages and drafts of each kind.
  await db.insert(websiteSites).values(ids.slice(0, 2).map((userId, i) => ({ userId, url: `https://www.owner${i}.example.co.uk/`, weekly: i === 0, nextCrawlAt: i === 0 ? at() : null, updatedAt: at() })));
  const crawls = await db
    .insert(websiteCrawls)
    .values(ids.slice(0, 2).map((userId, i) => ({ userId, url: `https://www.owner${i}.example.co.uk/`, state: 'done' as const, trigger: i ? ('weekly' as const) : ('owner' as const), pagesRead: 12 + i, pagesUnchanged: i, draftsMade: 4, draftsDropped: i, problems: [{ url: `https://www.owner${i}.example.co.uk/menu.pdf`, problem: 'A PDF: skipped.' }], startedAt: at(), finishedAt: at() })))
    .returning({ id: websiteCrawls.id, userId: websiteCrawls.userId });
  await db.insert(websitePages).values(crawls.map((c, i) => ({ userId: c.userId, url: `https://www.owner${i}.example.co.uk/prices`, title: 'Prices', contentHash: `hash-${i}`, lastCrawlId: c.id, updatedAt: at() })));
  await db.insert(kbDrafts).values(crawls.flatMap((c, i) => [
    { userId: c.userId, crawlId: c.id, kind: 'new' as const, question: 'How much is a boiler service?', answer: 'A boiler service is £85.', sourceUrl: `https://www.owner${i}.example.co.uk/prices`, quote: 'Boiler service: £85.' },
    { userId: c.userId, crawlId: c.id, kind: 'change' as const, state: 'approved' as const, question: 'Do you cover Leeds?', answer: 'Yes, all of Leeds.', sourceUrl: `https://www.owner${i}.example.co.uk/areas`, quote: 'We cover all of Leeds.', currentQuestion: 'Do you cover Leeds?', currentAnswer: 'North Leeds only.', decidedAt: at() },
    { userId: c.userId, crawlId: c.id, kind: 'hours' as const, question: 'When are you open?', answer: 'Monday to Friday, 9am to 5pm.', sourceUrl: `https://www.owner${i}.example.co.uk/`, quote: 'Open Mon–Fri 9–5.', hours: { mon: [{ open: '09:00', close: '17:00' }], tue: [], wed: [], thu: [], fri: [], sat: [], sun: [] } },
  ]));
  // Money (issue 59): an owner's Stripe connection, a subscription past due, an invoice each, events applied.
  await db.insert(stripeConnections).values(ids.slice(0, 2).map((userId, i) => ({ userId, secretKeySealed: `sealed-${i}`, accountLabel: `Owner ${i} Ltd`, livemode: i === 1, webhookEndpointId: `we_${i}`, webhookSecretSealed: `sealed-whsec-${i}`, depositPolicy: i ? null : 'Deposits are refunded up to 24 hours before.', refundOnCallerCancel: i === 0, testedAt: at(), updatedAt: at() })));
  await db.insert(billingSubscriptions).values(ids.slice(0, 2).map((userId, i) => ({ userId, customerId: `cus_${i}`, subscriptionId: `sub_${i}`, status: i ? ('past_due' as const) : ('active' as const), pricePence: 3900, currency: 'gbp', currentPeriodEnd: at(), trialEnd: i ? null : at(), cancelAtPeriodEnd: i === 0, pastDueSince: i ? at() : null, eventAt: at(), updatedAt: at() })));
  await db.insert(billingInvoices).values(ids.slice(0, 2).map((userId, i) => ({ id: `in_${i}`, userId, amountPence: 3900, currency: 'gbp', status: i ? 'open' : 'paid', hostedUrl: `https://invoice.stripe.com/i/${i}`, periodStart: at(), paidAt: i ? null : at(), createdAt: at() })));
  await db.insert(stripeEvents).values(ids.slice(0, 2).map((userId, i) => ({ id: `evt_${i}`, scope: i ? ('billing' as const) : ('deposits' as const), userId, type: i ? 'invoice.paid' : 'checkout.session.completed', receivedAt: at() })));
  // Screening (issue 43): an owner's marks both ways, the box-wide counts, an owner's choice.
  // Issue 54: a device each for two owners (one a staff member's own), an alert sent and one opened, the
  // delayed text, and a call's live history (a listen, then a take-over by phone).
  const devices = await db
    .insert(pushSubscriptions)
    .values(ids.slice(0, 2).map((userId, i) => ({ userId, loginUserId: userId, staffId: i ? staffOf(userId) : null, endpoint: `https://push.example.net/send/${i}`, p256dh: `BPk${i}`, auth: `au${i}`, name: i ? 'Sam’s Android' : 'iPhone', calls: i ? ('urgent' as const) : ('all' as const), bookings: i === 0, callerTexts: true, quietStart: i ? '22:00' : null, quietEnd: i ? '07:00' : null, updatedAt: at(), lastSentAt: i ? null : at() })))
    .returning();
  await db.insert(pushAlerts).values(devices.map((d, i) => ({ alertId: `alert-${i}`, userId: d.userId, subscriptionId: d.id, callId: callIds[i]!.id, event: `call-${callIds[i]!.id}-summary`, kind: 'call' as const, payload: { v: 1 as const, alertId: `alert-${i}`, kind: 'call' as const, title: 'A caller', body: '', urgent: i === 1, tag: `call-${i}`, url: '/dashboard', sentAt: at().toISOString() }, status: 'sent' as const, sentAt: at(), openedAt: i ? at() : null })));
  await db.insert(pushSettings).values([{ userId: ids[0]!, textDelayMinutes: 5, updatedAt: at() }]);
  await db.insert(callLiveEvents).values([0, 1].map((i) => ({ userId: callIds[0]!.userId, callId: callIds[0]!.id, event: i ? ('take-over' as const) : ('listen' as const), byName: 'owner0@example.co.uk', via: i ? ('phone' as const) : null, at: at() })));
  // Issue 56: call-backs the agent makes: one waiting from a call, one answered with its own call, one from a CALL reply to a text (no first call), one cancelled.
  const callBackTexts = await db.select({ id: callerTexts.id, userId: callerTexts.userId, callerNumber: callerTexts.callerNumber }).from(callerTexts).limit(1);
  await db.insert(callBacks).values([
    { userId: callIds[0]!.userId, firstCallId: callIds[0]!.id, callerNumber: '+447700900301', askedAt: at(), dueAt: at(), source: 'agent' as const, updatedAt: at() },
    { userId: callIds[1]!.userId, firstCallId: callIds[1]!.id, callerNumber: '+447700900302', askedAt: at(), dueAt: at(), source: 'voicemail' as const, state: 'answered' as const, tries: 1, lastTryAt: at(), lastOutcome: 'answered' as const, callBackCallId: callIds[2]!.id, doneBy: 'agent' as const, updatedAt: at() },
    ...callBackTexts.map((t) => ({ userId: t.userId, textId: t.id, callerNumber: t.callerNumber, askedAt: at(), dueAt: at(), source: 'text-reply' as const, state: 'no-answer' as const, tries: 2, lastTryAt: at(), lastOutcome: 'busy' as const, doneBy: 'agent' as const, updatedAt: at() })),
    { userId: callIds[3]!.userId, firstCallId: callIds[3]!.id, callerNumber: '+447700900304', askedAt: at(), dueAt: at(), source: 'owner-window' as const, state: 'cancelled' as const, doneBy: 'owner-cancelled' as const, staffId: null, updatedAt: at() },
  ]);
  await db.insert(spamMarks).values(ids.slice(0, 3).map((userId, i) => ({ userId, number: `+4477009005${i}0`, verdict: i === 2 ? ('allow' as const) : ('spam' as const), markedAt: at() })));
  await db.insert(boxSpamNumbers).values([0, 1].map((i) => ({ number: `+4477009005${i}0`, clearedAt: i === 1 ? at() : null, updatedAt: at() })));
  await db.insert(screeningSettings).values(ids.slice(0, 2).map((userId, i) => ({ userId, action: i ? ('message' as const) : ('reject' as const) })));
  await db.insert(forwardingChecks).values(ids.slice(0, 3).map((userId, i) => ({ userId, did: '+441134961000', line: '+441134960000', state: (['calling', 'works', 'not-reaching'] as const)[i]!, condition: i === 1 ? ('unanswered' as const) : null, divertedFrom: i === 1 ? '+441134960000' : null, startedAt: at(), endsAt: at(), finishedAt: i ? at() : null })));
}
