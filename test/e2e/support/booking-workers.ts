import { afterAll, beforeAll } from 'vitest';
import type { E2E } from './browser.js';

/** The booking texts go on their durable jobs: the test server leaves the workers to the test, so a booking e2e file starts them. */
export function runBookingWorkers(e2e: E2E): void {
  beforeAll(() => {
    e2e.server.services.callerTexts.start();
    e2e.server.services.booking.start();
  });
  afterAll(async () => {
    await e2e.server.services.booking.stop();
    await e2e.server.services.callerTexts.stop();
  });
}
