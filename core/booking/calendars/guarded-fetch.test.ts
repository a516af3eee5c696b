// The address guard's decisions for a calendar address, by every spelling of an inside address
// (decided before any connection: literal addresses need no DNS, names go to a stubbed resolver).
import { describe, expect, it } from 'vitest';
import { UnresolvableHostError, type ResolvedAddress } from '../../webhooks/address-guard.js';
import { CalendarAddressRefused, checkedCalendarAddress, NOT_ALLOWED_SENTENCE, type CalendarGuard } from './guarded-fetch.js';

const DNS: Record<string, string[]> = {
  localhost: ['127.0.0.1', '::1'],
  'calendar.example.com': ['93.184.216.34'],
  'rebind.example.com': ['93.184.216.34', '10.0.0.7'],
  'nas.lan': ['192.168.1.20'],
  'metadata.lan': ['169.254.169.254'],
};
const resolver = async (host: string): Promise<ResolvedAddress[]> => {
  // As DNS does: a name is the same with its root's dot.
  const list = DNS[host.replace(/\.$/, '')];
  if (!list) throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${host}`), { code: 'ENOTFOUND' });
  return list.map((address) => ({ address, family: address.includes(':') ? 6 : 4 }));
};
const decide = (address: string, guard: CalendarGuard = {}) => checkedCalendarAddress(new URL(address), { resolver, ...guard });

describe('a calendar address inside the network is refused, however it is spelt', () => {
  it.each([
    'http://localhost:5232/',
    'http://LOCALHOST./',
    'http://127.0.0.1/',
    'http://127.1:8088/ari/',
    'http://2130706433/',
    'http://0x7f000001/',
    'http://017700000001/',
    'http://127.000.000.001/',
    'http://[::1]:5232/',
    'http://[::ffff:127.0.0.1]/',
    'http://[::ffff:7f00:1]/',
    'http://[0:0:0:0:0:ffff:127.0.0.1]/',
    'http://[::127.0.0.1]/',
    'http://0.0.0.0:3000/',
    'http://0/',
    'http://[::]/',
    'http://169.254.169.254/latest/meta-data/',
    'http://[::ffff:169.254.169.254]/',
    'http://[fe80::1]/',
    'http://10.0.0.1/',
    'http://172.16.0.1/',
    'http://192.168.1.20/',
    'http://[fd00::1]/',
    'http://100.64.0.1/',
    'https://rebind.example.com/',
    'https://metadata.lan/',
    'https://nas.lan/dav/',
  ])('%s', async (address) => {
    const refused = await decide(address).then(() => null, (err: unknown) => err);
    expect(refused).toBeInstanceOf(CalendarAddressRefused);
    // One sentence for all: nothing in it tells what (if anything) listens at the address.
    expect((refused as Error).message).toBe(NOT_ALLOWED_SENTENCE);
  });
});

describe('what is let through', () => {
  it('a public address, and the address to connect to is the one checked', async () => {
    expect(await decide('https://calendar.example.com/dav/')).toEqual({ address: '93.184.216.34', family: 4 });
    expect(await decide('https://93.184.216.34/')).toEqual({ address: '93.184.216.34', family: 4 });
  });

  it('a host the operator named (CALENDAR_ALLOWED_PRIVATE_HOSTS) on their own network, and no other', async () => {
    const guard = { allowedPrivateHosts: ['nas.lan', '127.0.0.1'] };
    expect(await decide('https://nas.lan/dav/', guard)).toEqual({ address: '192.168.1.20', family: 4 });
    // A named address is named however the URL spells it.
    expect(await decide('http://127.1:5232/', guard)).toEqual({ address: '127.0.0.1', family: 4 });
    await expect(decide('http://localhost:5232/', guard)).rejects.toBeInstanceOf(CalendarAddressRefused);
    await expect(decide('http://10.0.0.1/', guard)).rejects.toBeInstanceOf(CalendarAddressRefused);
  });

  it('a named host never reaches the cloud\'s metadata address', async () => {
    await expect(decide('https://metadata.lan/', { allowedPrivateHosts: ['metadata.lan'] })).rejects.toBeInstanceOf(CalendarAddressRefused);
    await expect(decide('http://169.254.169.254/', { allowedPrivateHosts: ['169.254.169.254'] })).rejects.toBeInstanceOf(CalendarAddressRefused);
    await expect(decide('http://0.0.0.0/', { allowedPrivateHosts: ['0.0.0.0'] })).rejects.toBeInstanceOf(CalendarAddressRefused);
  });

  it('a name that does not resolve is not a refusal (DNS may recover), and no web address is not a calendar', async () => {
    await expect(decide('https://nowhere.example.com/')).rejects.toBeInstanceOf(UnresolvableHostError);
    await expect(decide('ftp://calendar.example.com/')).rejects.toThrow('the calendar address must start with https://');
  });
});
