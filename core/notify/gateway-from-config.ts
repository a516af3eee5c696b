import path from 'node:path';
import type { CoreDeps } from '../deps.js';
import { createTwilioClient } from '../twilio/client.js';
import type { MessageGateway } from './gateway.js';
import { createOutboxGateway } from './outbox-gateway.js';
import { createTwilioGateway } from './twilio-gateway.js';

/** The gateway the configuration asks for: Twilio when its credentials are set, else the outbox folder. */
export function gatewayFromConfig(services: Pick<CoreDeps, 'config'>): MessageGateway {
  const { config } = services;
  if (config.twilio.accountSid && config.twilio.authToken) {
    return createTwilioGateway(createTwilioClient(config.twilio), { messagingFrom: config.twilio.messagingFrom });
  }
  return createOutboxGateway(path.join(config.dataDir, 'outbox', 'sms'));
}
