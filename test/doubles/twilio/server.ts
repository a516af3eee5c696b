/**
 * A protocol-faithful double of the parts of Twilio's REST API (2010-04-01) the product uses,
 * so the real `twilio` SDK runs unchanged against it (core/twilio/client.ts, TWILIO_API_BASE).
 *
 * Wire facts followed (https://www.twilio.com/docs/usage/api, /docs/messaging/api/message-resource,
 * /docs/phone-numbers/api/incomingphonenumber-resource, /docs/usage/api/usage-record, /docs/api/errors):
 * - requests: HTTP Basic auth (AccountSid:AuthToken), bodies application/x-www-form-urlencoded
 *   with PascalCase names; responses JSON with snake_case names; dates RFC 2822 on resources,
 *   YYYY-MM-DD on usage records; money and counts as strings;
 * - errors: JSON `{ code, message, more_info, status }` with the HTTP status;
 * - 2010 list pages: the records under a resource key plus first_page_uri, next_page_uri,
 *   previous_page_uri, page, page_size, start, end, uri (the SDK follows next_page_uri);
 * - DELETE answers 204 with no body.
 */
import http from 'node:http';
import { randomBytes } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import twilio from 'twilio';

type TwilioResource = 'Messages' | 'AvailablePhoneNumbers' | 'IncomingPhoneNumbers' | 'Usage' | 'Balance';

interface RecordedRequest {
  method: string;
  /** Path without the query, e.g. /2010-04-01/Accounts/AC…/Messages.json */
  path: string;
  resource: TwilioResource | 'unknown';
  query: Record<string, string>;
  /** The decoded form body (repeated names keep their last value; see formAll). */
  form: Record<string, string>;
  formAll: Record<string, string[]>;
  contentType: string | undefined;
  /** Whether Basic auth carried this double's SID and token. */
  authorized: boolean;
  status: number;
}

interface ScriptedFailure {
  status: number;
  code?: number;
  message?: string;
  /** Close the socket without answering (a network failure, not an HTTP one). */
  drop?: boolean;
  /** Never answer (a stalled provider): the client's timeout must end the request. */
  hang?: boolean;
}

interface DoubleMessage {
  sid: string;
  to: string;
  from: string | null;
  body: string;
  messagingServiceSid: string | null;
  statusCallback: string | null;
  status: string;
  errorCode: number | null;
  dateCreated: Date;
}

interface DoubleNumber {
  sid: string;
  phoneNumber: string;
  friendlyName: string;
  trunkSid: string | null;
  voiceUrl: string | null;
  bundleSid: string | null;
  addressSid: string | null;
  dateCreated: Date;
}

interface UsageFigures {
  count: number;
  usage?: number;
  /** In the account currency, e.g. 1.25 for £1.25. */
  price: number;
}

const USAGE_CATEGORIES = {
  'calls-inbound': { description: 'Voice Minutes: Inbound', countUnit: 'calls', usageUnit: 'minutes' },
  'calls-outbound': { description: 'Voice Minutes: Outbound', countUnit: 'calls', usageUnit: 'minutes' },
  'sms-inbound': { description: 'SMS Inbound', countUnit: 'messages', usageUnit: 'messages' },
  'sms-outbound': { description: 'SMS Outbound', countUnit: 'messages', usageUnit: 'messages' },
  phonenumbers: { description: 'Phone Numbers', countUnit: 'phone-numbers', usageUnit: 'phone-numbers' },
  recordings: { description: 'Voice Recordings', countUnit: 'recordings', usageUnit: 'minutes' },
  totalprice: { description: 'Total Price', countUnit: '', usageUnit: 'gbp' },
} as const;
type UsageCategory = keyof typeof USAGE_CATEGORIES;

export interface TwilioDoubleOptions {
  accountSid?: string;
  authToken?: string;
  /** GB mobile numbers on offer from AvailablePhoneNumbers/GB/Mobile. */
  availableNumbers?: string[];
  /** `To` numbers refused with 21211 (invalid number). */
  invalidNumbers?: string[];
  /** `To` numbers refused with 21614 (not a mobile number). */
  nonMobileNumbers?: string[];
  /** UK numbers need a regulatory bundle and an address to be bought (default true). */
  requireRegulatory?: boolean;
  /** Monthly rental the double charges per number in `phonenumbers` usage (default 1.15). */
  numberMonthlyPrice?: number;
  currency?: string;
  balance?: string;
  /**
   * How long Messages.create takes to answer once the message exists, as real Twilio's
   * few hundred milliseconds do: a worker killed meanwhile leaves a text sent but unrecorded.
   */
  messageLatencyMs?: number;
}

export interface TwilioDouble {
  url: string;
  accountSid: string;
  authToken: string;
  requests: RecordedRequest[];
  messages: DoubleMessage[];
  /** Numbers the account owns (IncomingPhoneNumbers). */
  numbers: DoubleNumber[];
  /** Numbers on offer (AvailablePhoneNumbers/GB/Mobile). */
  available: string[];
  /** Requests to one resource, in order. */
  requestsTo(resource: TwilioResource): RecordedRequest[];
  /** The next request to `resource` fails as scripted (queue several calls for several failures). */
  failNext(resource: TwilioResource, failure: ScriptedFailure): void;
  setBalance(balance: string, currency?: string): void;
  /** From now on, Messages.create answers this long after the message exists (TwilioDoubleOptions.messageLatencyMs). */
  setMessageLatency(ms: number): void;
  /** Overrides one usage category for ThisMonth; `phonenumbers` and `totalprice` are otherwise derived. */
  setUsage(category: UsageCategory, figures: UsageFigures): void;
  setAvailableNumbers(numbers: string[]): void;
  /** Posts a delivery status callback, signed with X-Twilio-Signature, to the message's StatusCallback URL. */
  deliverStatus(messageSid: string, status: string, errorCode?: number): Promise<number>;
  /**
   * Posts an incoming message webhook as Twilio does: the form fields Twilio sends for an
   * inbound SMS (WhatsApp: `whatsapp:` numbers), signed with X-Twilio-Signature over
   * `signedUrl` (the URL configured at Twilio, i.e. PUBLIC_URL's) and delivered to `deliverTo`
   * (where a reverse proxy would forward it). `signature: null` sends none; a string sends that.
   */
  sendInbound(opts: InboundWebhook): Promise<{ status: number; body: string; messageSid: string }>;
  close(): Promise<void>;
}

interface InboundWebhook {
  deliverTo: string;
  signedUrl?: string;
  from: string;
  to: string;
  body: string;
  messageSid?: string;
  signature?: string | null;
}

const API = '/2010-04-01';
const E164 = /^\+[1-9]\d{6,14}$/;

class TwilioError extends Error {
  constructor(
    readonly status: number,
    readonly code: number,
    message: string,
  ) {
    super(message);
  }
}

function sid(prefix: string): string {
  return prefix + randomBytes(16).toString('hex');
}

/** Twilio's resource dates: RFC 2822, e.g. "Wed, 18 Aug 2010 20:01:40 +0000". */
function rfc2822(d: Date): string {
  return d.toUTCString().replace('GMT', '+0000');
}

function ymd(d: Date): string {
  return d.toISOString().slice(0, 10);
}

/** "+447700900123" → "07700 900123", the national format Twilio shows as friendly_name for GB mobiles. */
function ukFriendly(e164: string): string {
  if (!e164.startsWith('+44')) return e164;
  const national = '0' + e164.slice(3);
  return `${national.slice(0, 5)} ${national.slice(5)}`;
}

function classify(path: string): TwilioResource | 'unknown' {
  if (/\/Messages(\/|\.json)/.test(path)) return 'Messages';
  if (/\/AvailablePhoneNumbers\//.test(path)) return 'AvailablePhoneNumbers';
  if (/\/IncomingPhoneNumbers(\/|\.json)/.test(path)) return 'IncomingPhoneNumbers';
  if (/\/Usage\//.test(path)) return 'Usage';
  if (/\/Balance\.json$/.test(path)) return 'Balance';
  return 'unknown';
}

function defaultErrorMessage(status: number): [number, string] {
  if (status === 429) return [20429, 'Too Many Requests'];
  if (status === 503) return [20503, 'Service Unavailable'];
  if (status === 404) return [20404, 'The requested resource was not found'];
  if (status === 401) return [20003, 'Authenticate'];
  if (status >= 500) return [20500, 'An internal server error has occurred'];
  return [21000, 'Bad request'];
}

function readBody(req: http.IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    req.on('error', reject);
  });
}

function parseForm(text: string): { last: Record<string, string>; all: Record<string, string[]> } {
  const last: Record<string, string> = {};
  const all: Record<string, string[]> = {};
  for (const [k, v] of new URLSearchParams(text)) {
    last[k] = v;
    (all[k] ??= []).push(v);
  }
  return { last, all };
}

export async function startTwilioDouble(opts: TwilioDoubleOptions = {}): Promise<TwilioDouble> {
  const accountSid = opts.accountSid ?? sid('AC');
  const authToken = opts.authToken ?? randomBytes(16).toString('hex');
  const invalid = new Set(opts.invalidNumbers ?? []);
  const nonMobile = new Set(opts.nonMobileNumbers ?? []);
  let messageLatencyMs = opts.messageLatencyMs ?? 0;
  const requireRegulatory = opts.requireRegulatory ?? true;
  const numberMonthlyPrice = opts.numberMonthlyPrice ?? 1.15;
  const requests: RecordedRequest[] = [];
  const messages: DoubleMessage[] = [];
  const numbers: DoubleNumber[] = [];
  const available: string[] = [...(opts.availableNumbers ?? ['+447700900101', '+447700900102', '+447700900103'])];
  const failures = new Map<TwilioResource, ScriptedFailure[]>();
  const usageOverrides = new Map<UsageCategory, UsageFigures>();
  let balance = { balance: opts.balance ?? '20.00', currency: opts.currency ?? 'GBP' };
  let baseUrl = '';
  const accountPath = `${API}/Accounts/${accountSid}`;

  const messageJson = (m: DoubleMessage) => ({
    account_sid: accountSid,
    api_version: '2010-04-01',
    body: m.body,
    date_created: rfc2822(m.dateCreated),
    date_sent: null,
    date_updated: rfc2822(m.dateCreated),
    direction: 'outbound-api',
    error_code: m.errorCode,
    error_message: null,
    from: m.from,
    messaging_service_sid: m.messagingServiceSid,
    num_media: '0',
    num_segments: String(Math.max(1, Math.ceil(m.body.length / 160))),
    price: null,
    price_unit: balance.currency,
    sid: m.sid,
    status: m.status,
    subresource_uris: { media: `${accountPath}/Messages/${m.sid}/Media.json` },
    to: m.to,
    uri: `${accountPath}/Messages/${m.sid}.json`,
  });

  const numberJson = (n: DoubleNumber) => ({
    account_sid: accountSid,
    address_requirements: 'any',
    address_sid: n.addressSid,
    api_version: '2010-04-01',
    beta: false,
    bundle_sid: n.bundleSid,
    capabilities: { fax: false, mms: false, sms: true, voice: true },
    date_created: rfc2822(n.dateCreated),
    date_updated: rfc2822(n.dateCreated),
    emergency_address_sid: null,
    emergency_address_status: 'unregistered',
    emergency_status: 'Inactive',
    friendly_name: n.friendlyName,
    identity_sid: null,
    origin: 'twilio',
    phone_number: n.phoneNumber,
    sid: n.sid,
    sms_application_sid: '',
    sms_fallback_method: 'POST',
    sms_fallback_url: '',
    sms_method: 'POST',
    sms_url: '',
    status: 'in-use',
    status_callback: '',
    status_callback_method: 'POST',
    subresource_uris: { assigned_add_ons: `${accountPath}/IncomingPhoneNumbers/${n.sid}/AssignedAddOns.json` },
    trunk_sid: n.trunkSid,
    uri: `${accountPath}/IncomingPhoneNumbers/${n.sid}.json`,
    voice_application_sid: null,
    voice_caller_id_lookup: false,
    voice_fallback_method: 'POST',
    voice_fallback_url: null,
    voice_method: 'POST',
    voice_receive_mode: 'voice',
    voice_url: n.voiceUrl,
  });

  /**
   * Twilio's list filters for Messages: To, From, and DateSent / DateSent> / DateSent< (a day or
   * an instant). The double takes every message at once, so its sending time is its creation.
   */
  const messageFilter = (query: Record<string, string>) => (m: DoubleMessage) => {
    if (query.To && m.to !== query.To) return false;
    if (query.From && m.from !== query.From) return false;
    const at = m.dateCreated.getTime();
    if (query['DateSent>'] && at < Date.parse(query['DateSent>'])) return false;
    if (query['DateSent<'] && at > Date.parse(query['DateSent<'])) return false;
    if (query.DateSent && m.dateCreated.toISOString().slice(0, 10) !== query.DateSent.slice(0, 10)) return false;
    return true;
  };

  /** One 2010-style list page over `items`, honouring PageSize and Page like Twilio. */
  const page = (key: string, path: string, query: Record<string, string>, items: unknown[]) => {
    const pageSize = Math.min(1000, Math.max(1, Number(query.PageSize ?? 50) || 50));
    const pageNo = Math.max(0, Number(query.Page ?? 0) || 0);
    const start = pageNo * pageSize;
    const slice = items.slice(start, start + pageSize);
    const filters = Object.entries(query).filter(([k]) => !['PageSize', 'Page', 'PageToken'].includes(k));
    const uriFor = (p: number) => {
      const qs = new URLSearchParams([...filters, ['PageSize', String(pageSize)], ['Page', String(p)]]);
      return `${path}?${qs.toString()}`;
    };
    return {
      [key]: slice,
      end: start + Math.max(0, slice.length - 1),
      first_page_uri: uriFor(0),
      next_page_uri: start + pageSize < items.length ? uriFor(pageNo + 1) : null,
      page: pageNo,
      page_size: pageSize,
      previous_page_uri: pageNo > 0 ? uriFor(pageNo - 1) : null,
      start,
      uri: uriFor(pageNo),
    };
  };

  const usageFigures = (category: UsageCategory): UsageFigures => {
    const set = usageOverrides.get(category);
    if (set) return set;
    if (category === 'phonenumbers') {
      return { count: numbers.length, usage: numbers.length, price: round2(numbers.length * numberMonthlyPrice) };
    }
    if (category === 'totalprice') {
      let sum = 0;
      for (const c of Object.keys(USAGE_CATEGORIES) as UsageCategory[]) if (c !== 'totalprice') sum += usageFigures(c).price;
      return { count: 0, usage: round2(sum), price: round2(sum) };
    }
    return { count: 0, usage: 0, price: 0 };
  };

  const usageRecord = (category: UsageCategory, now: Date) => {
    const meta = USAGE_CATEGORIES[category];
    const f = usageFigures(category);
    const first = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), 1));
    return {
      account_sid: accountSid,
      api_version: '2010-04-01',
      as_of: now.toISOString().replace(/\.\d{3}Z$/, '+00:00'),
      category,
      count: String(f.count),
      count_unit: meta.countUnit,
      description: meta.description,
      end_date: ymd(now),
      price: f.price.toFixed(2),
      price_unit: balance.currency.toLowerCase(),
      start_date: ymd(first),
      subresource_uris: {},
      uri: `${accountPath}/Usage/Records/ThisMonth.json?Category=${category}`,
      usage: String(f.usage ?? f.count),
      usage_unit: meta.usageUnit,
    };
  };

  function createMessage(form: Record<string, string>): DoubleMessage {
    const to = form.To;
    const from = form.From ?? null;
    const service = form.MessagingServiceSid ?? null;
    if (!to) throw new TwilioError(400, 21604, "A 'To' phone number is required.");
    if (!from && !service) throw new TwilioError(400, 21603, "A 'From' phone number is required.");
    if (!form.Body && !form.MediaUrl && !form.ContentSid) throw new TwilioError(400, 21602, 'Message body is required.');
    const toWhatsApp = to.startsWith('whatsapp:');
    if (from && toWhatsApp !== from.startsWith('whatsapp:')) {
      throw new TwilioError(400, 21910, 'Invalid From and To pair. From and To should be of the same channel');
    }
    const bare = to.replace(/^whatsapp:/, '');
    if (!E164.test(bare) || invalid.has(bare)) {
      throw new TwilioError(400, 21211, `The 'To' number ${bare} is not a valid phone number.`);
    }
    if (nonMobile.has(bare)) throw new TwilioError(400, 21614, `'To' number ${bare} is not a valid mobile number`);
    const m: DoubleMessage = {
      sid: sid('SM'),
      to,
      from,
      body: form.Body ?? '',
      messagingServiceSid: service,
      statusCallback: form.StatusCallback ?? null,
      status: service && !from ? 'accepted' : 'queued',
      errorCode: null,
      dateCreated: new Date(),
    };
    messages.push(m);
    return m;
  }

  function buyNumber(form: Record<string, string>): DoubleNumber {
    const phoneNumber = form.PhoneNumber;
    if (!phoneNumber || !E164.test(phoneNumber)) throw new TwilioError(400, 21421, 'PhoneNumber is invalid');
    const idx = available.indexOf(phoneNumber);
    if (idx < 0) throw new TwilioError(400, 21422, 'PhoneNumber Requested is not available');
    if (requireRegulatory && phoneNumber.startsWith('+44')) {
      if (!form.AddressSid) throw new TwilioError(400, 21631, 'Phone Number Requires an Address');
      if (!form.BundleSid) throw new TwilioError(400, 21649, 'Phone Number Requires a Bundle');
    }
    available.splice(idx, 1);
    const n: DoubleNumber = {
      sid: sid('PN'),
      phoneNumber,
      friendlyName: form.FriendlyName ?? ukFriendly(phoneNumber),
      trunkSid: form.TrunkSid ?? null,
      voiceUrl: form.VoiceUrl ?? null,
      bundleSid: form.BundleSid ?? null,
      addressSid: form.AddressSid ?? null,
      dateCreated: new Date(),
    };
    numbers.push(n);
    return n;
  }

  function route(method: string, path: string, query: Record<string, string>, form: Record<string, string>): [number, unknown] {
    if (!path.startsWith(`${API}/Accounts/`)) throw new TwilioError(404, 20404, `The requested resource ${path} was not found`);
    if (!path.startsWith(`${accountPath}/`)) throw new TwilioError(404, 20404, `The requested resource ${path} was not found`);
    const rest = path.slice(accountPath.length);
    let m: RegExpMatchArray | null;

    if (rest === '/Messages.json') {
      if (method === 'POST') return [201, messageJson(createMessage(form))];
      if (method === 'GET') return [200, page('messages', path, query, [...messages].reverse().filter(messageFilter(query)).map(messageJson))];
    }
    if ((m = rest.match(/^\/Messages\/(SM[0-9a-f]{32})\.json$/)) && method === 'GET') {
      const msg = messages.find((x) => x.sid === m![1]);
      if (msg) return [200, messageJson(msg)];
    }
    if ((m = rest.match(/^\/AvailablePhoneNumbers\/([A-Z]{2})\/(Mobile|Local|TollFree)\.json$/)) && method === 'GET') {
      const offered = m[1] === 'GB' && m[2] === 'Mobile' ? available : [];
      const size = Math.min(Number(query.PageSize ?? 50) || 50, 1000);
      return [
        200,
        {
          available_phone_numbers: offered.slice(0, size).map((n) => ({
            address_requirements: 'any',
            beta: false,
            capabilities: { MMS: false, SMS: true, voice: true },
            friendly_name: ukFriendly(n),
            iso_country: m![1],
            lata: null,
            latitude: null,
            locality: null,
            longitude: null,
            phone_number: n,
            postal_code: null,
            rate_center: null,
            region: null,
          })),
          uri: `${path}?PageSize=${size}`,
        },
      ];
    }
    if (rest === '/IncomingPhoneNumbers.json') {
      if (method === 'POST') return [201, numberJson(buyNumber(form))];
      if (method === 'GET') {
        const list = numbers.filter((n) => !query.PhoneNumber || n.phoneNumber === query.PhoneNumber);
        return [200, page('incoming_phone_numbers', path, query, list.map(numberJson))];
      }
    }
    if ((m = rest.match(/^\/IncomingPhoneNumbers\/(PN[0-9a-f]{32})\.json$/))) {
      const idx = numbers.findIndex((x) => x.sid === m![1]);
      if (idx >= 0) {
        const n = numbers[idx]!;
        if (method === 'GET') return [200, numberJson(n)];
        if (method === 'POST') {
          if (form.VoiceUrl !== undefined) n.voiceUrl = form.VoiceUrl;
          if (form.TrunkSid !== undefined) n.trunkSid = form.TrunkSid;
          if (form.FriendlyName !== undefined) n.friendlyName = form.FriendlyName;
          return [200, numberJson(n)];
        }
        if (method === 'DELETE') {
          // Released numbers go back to Twilio's pool, not to this account's offer list.
          numbers.splice(idx, 1);
          return [204, null];
        }
      }
    }
    if ((m = rest.match(/^\/Usage\/Records\/ThisMonth\.json$/)) && method === 'GET') {
      const now = new Date();
      const cats = (Object.keys(USAGE_CATEGORIES) as UsageCategory[]).filter((c) => !query.Category || c === query.Category);
      return [200, page('usage_records', path, query, cats.map((c) => usageRecord(c, now)))];
    }
    if (rest === '/Balance.json' && method === 'GET') {
      return [200, { account_sid: accountSid, balance: balance.balance, currency: balance.currency }];
    }
    throw new TwilioError(404, 20404, `The requested resource ${path} was not found`);
  }

  const server = http.createServer(async (req, res) => {
    const u = new URL(req.url ?? '/', 'http://double');
    const text = await readBody(req);
    const { last: form, all: formAll } = parseForm(req.method === 'GET' ? '' : text);
    const query = Object.fromEntries(u.searchParams);
    const expected = 'Basic ' + Buffer.from(`${accountSid}:${authToken}`).toString('base64');
    const resource = classify(u.pathname);
    const record: RecordedRequest = {
      method: req.method ?? 'GET',
      path: u.pathname,
      resource,
      query,
      form,
      formAll,
      contentType: req.headers['content-type'],
      authorized: req.headers.authorization === expected,
      status: 0,
    };
    requests.push(record);
    const send = (status: number, body: unknown) => {
      record.status = status;
      if (status === 204) {
        res.writeHead(204).end();
        return;
      }
      res.writeHead(status, { 'content-type': 'application/json; charset=utf-8' }).end(JSON.stringify(body));
    };
    const sendError = (e: TwilioError) =>
      send(e.status, { code: e.code, message: e.message, more_info: `https://www.twilio.com/docs/errors/${e.code}`, status: e.status });

    if (!record.authorized) {
      sendError(new TwilioError(401, 20003, 'Authenticate'));
      return;
    }
    const scripted = resource !== 'unknown' ? failures.get(resource)?.shift() : undefined;
    if (scripted) {
      if (scripted.hang) {
        record.status = -2;
        return;
      }
      if (scripted.drop) {
        record.status = -1;
        req.socket.destroy();
        return;
      }
      const [code, message] = defaultErrorMessage(scripted.status);
      sendError(new TwilioError(scripted.status, scripted.code ?? code, scripted.message ?? message));
      return;
    }
    try {
      const [status, body] = route(record.method, u.pathname, query, form);
      if (messageLatencyMs && record.method === 'POST' && u.pathname.endsWith('/Messages.json')) {
        await new Promise((resolve) => setTimeout(resolve, messageLatencyMs));
      }
      send(status, body);
    } catch (e) {
      if (e instanceof TwilioError) sendError(e);
      else sendError(new TwilioError(500, 20500, String(e)));
    }
  });

  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  return {
    url: baseUrl,
    accountSid,
    authToken,
    requests,
    messages,
    numbers,
    available,
    requestsTo: (resource) => requests.filter((r) => r.resource === resource),
    failNext(resource, failure) {
      const q = failures.get(resource) ?? [];
      q.push(failure);
      failures.set(resource, q);
    },
    setMessageLatency(ms) {
      messageLatencyMs = ms;
    },
    setBalance(amount, currency) {
      balance = { balance: amount, currency: currency ?? balance.currency };
    },
    setUsage(category, figures) {
      usageOverrides.set(category, figures);
    },
    setAvailableNumbers(list) {
      available.splice(0, available.length, ...list);
    },
    async deliverStatus(messageSid, status, errorCode) {
      const msg = messages.find((x) => x.sid === messageSid);
      if (!msg) throw new Error(`no message ${messageSid} in the Twilio double`);
      if (!msg.statusCallback) throw new Error(`message ${messageSid} was sent without a StatusCallback`);
      msg.status = status;
      msg.errorCode = errorCode ?? null;
      const params: Record<string, string> = {
        AccountSid: accountSid,
        ApiVersion: '2010-04-01',
        From: msg.from ?? '',
        MessageSid: msg.sid,
        MessageStatus: status,
        SmsSid: msg.sid,
        SmsStatus: status,
        To: msg.to,
      };
      if (errorCode !== undefined) params.ErrorCode = String(errorCode);
      const signature = twilio.getExpectedTwilioSignature(authToken, msg.statusCallback, params);
      const res = await fetch(msg.statusCallback, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded', 'x-twilio-signature': signature },
        body: new URLSearchParams(params).toString(),
      });
      return res.status;
    },
    async sendInbound(o) {
      const messageSid = o.messageSid ?? `SM${randomBytes(16).toString('hex')}`;
      // The fields of Twilio's inbound message request (docs: messaging/guides/webhook-request).
      const params: Record<string, string> = {
        ToCountry: 'GB',
        SmsMessageSid: messageSid,
        NumMedia: '0',
        SmsSid: messageSid,
        SmsStatus: 'received',
        Body: o.body,
        To: o.to,
        NumSegments: '1',
        MessageSid: messageSid,
        AccountSid: accountSid,
        From: o.from,
        ApiVersion: '2010-04-01',
      };
      const signature = o.signature === undefined ? twilio.getExpectedTwilioSignature(authToken, o.signedUrl ?? o.deliverTo, params) : o.signature;
      const res = await fetch(o.deliverTo, {
        method: 'POST',
        headers: {
          'content-type': 'application/x-www-form-urlencoded',
          'user-agent': 'TwilioProxy/1.1',
          ...(signature === null ? {} : { 'x-twilio-signature': signature }),
        },
        body: new URLSearchParams(params).toString(),
      });
      return { status: res.status, body: await res.text(), messageSid };
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

function round2(n: number): number {
  return Math.round(n * 100) / 100;
}
