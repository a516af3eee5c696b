import type { CoreDeps } from '../deps.js';
import { createTwilioClient } from '../twilio/client.js';
import type { NumberProvider } from './provider.js';
import { NumberService } from './service.js';
import { staticNumberProvider } from './static-provider.js';
import { settingsFrom, twilioNumberProvider } from './twilio-provider.js';
import { operatorContact } from '../config/operator-contact.js';

/** The provider NUMBER_PROVIDER names, with the owner-facing "none available" wording for each. */
function createNumberProvider(services: CoreDeps): NumberProvider {
  const { config, database, now } = services;
  const contact = operatorContact(config.support);
  if (config.numbers.provider === 'twilio') {
    return twilioNumberProvider(
      createTwilioClient(config.twilio),
      settingsFrom(config, `No UK mobile numbers are available from our telephony provider right now. Please try again later, or contact ${contact}.`),
    );
  }
  const twilio = config.twilio.accountSid ? createTwilioClient(config.twilio) : undefined;
  return staticNumberProvider(database.db, {
    numbers: config.numbers.staticNumbers,
    monthlyCostPence: config.numbers.monthlyCostPence,
    noneAvailableMessage: `All of our UK numbers are in use at the moment, so we cannot give you one yet. Please contact ${contact} and we will add one for you.`,
    readBalance: twilio
      ? async () => {
          const b = await twilio.balance.fetch();
          return { amount: Number(b.balance) || 0, currency: b.currency };
        }
      : undefined,
    now,
  });
}

export function createNumberService(services: CoreDeps, provider = createNumberProvider(services)): NumberService {
  return new NumberService({
    db: services.database.db,
    provider,
    unitCostPence: services.config.numbers.monthlyCostPence,
    support: services.config.support,
    now: services.now,
    log: services.log,
    outboundDailyMinutes: services.config.outbound.dailyMinutes,
    callerTextCaps: services.config.callerTexts,
  });
}
