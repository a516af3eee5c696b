import { describe, expect, it } from 'vitest';
import { validateMemberServices } from './validate-services.js';

const bookable = new Set([10, 11]);

describe('validateMemberServices', () => {
  it('keeps each bookable service with its own length or the service’s', () => {
    expect(validateMemberServices([{ serviceId: 10, durationMinutes: 45 }, { serviceId: 11, durationMinutes: null }], bookable)).toEqual([
      { serviceId: 10, durationMinutes: 45 },
      { serviceId: 11, durationMinutes: null },
    ]);
    expect(validateMemberServices([], bookable)).toEqual([]);
  });
  it('refuses an unknown or archived service, one listed twice, and a length outside 5–480 min', () => {
    expect(validateMemberServices([{ serviceId: 12, durationMinutes: null }], bookable)).toEqual({ field: 'services.0', message: 'Pick one of your services: that one does not exist or was removed.' });
    expect(validateMemberServices([{ serviceId: 10, durationMinutes: null }, { serviceId: 10, durationMinutes: 30 }], bookable)).toEqual({ field: 'services.1', message: 'List each service once for a person.' });
    expect(validateMemberServices([{ serviceId: 10, durationMinutes: 4 }], bookable)).toMatchObject({ field: 'services.0', message: expect.stringMatching(/from 5 to 480/) });
    expect(validateMemberServices([{ serviceId: 10, durationMinutes: 481 }], bookable)).toMatchObject({ field: 'services.0' });
  });
});
