import { describe, expect, it } from 'vitest';
import { all, ConfSyntaxError, findSections, last, parseAsteriskConf } from './asterisk-conf.js';

describe('parseAsteriskConf', () => {
  const text = `
; a comment
[base](!)         ; a template
type=endpoint
allow=alaw

[twilio](base)
allow=ulaw
password=a\\;b ; escaped semicolon
;-- a block
comment --;
[twilio]
type=aor
contact=sip:example.pstn.twilio.com
#include pjsip_trunks.conf
[inbound]
exten => _X.,1,Stasis(app,\${EXTEN})
 same => n,Hangup()
`;
  const conf = parseAsteriskConf(text);

  it('reads sections, templates and same-named sections separately', () => {
    expect(conf.sections.map((s) => [s.name, s.template, s.inherits])).toEqual([
      ['base', true, []],
      ['twilio', false, ['base']],
      ['twilio', false, []],
      ['inbound', false, []],
    ]);
  });

  it('merges template entries and picks sections by type', () => {
    const [endpoint] = findSections(conf, 'twilio', 'endpoint');
    expect(all(endpoint!, 'allow')).toEqual(['alaw', 'ulaw']);
    expect(last(endpoint!, 'password')).toBe('a;b');
    expect(last(findSections(conf, 'twilio', 'aor')[0]!, 'contact')).toBe('sip:example.pstn.twilio.com');
  });

  it('keeps object lines and directives', () => {
    const [inbound] = findSections(conf, 'inbound');
    expect(inbound!.entries.map((e) => [e.key, e.arrow])).toEqual([['exten', true], ['same', true]]);
    expect(last(inbound!, 'exten')).toBe('_X.,1,Stasis(app,${EXTEN})');
    expect(conf.directives).toEqual([{ kind: 'include', arg: 'pjsip_trunks.conf', line: 15 }]);
  });

  it('rejects what Asterisk would not read', () => {
    expect(() => parseAsteriskConf('key=value')).toThrow(ConfSyntaxError);
    expect(() => parseAsteriskConf('[a]\nnot a setting')).toThrow(/line 2/);
    expect(() => parseAsteriskConf('[a]\n;-- open')).toThrow(/never closed/);
    expect(() => findSections(parseAsteriskConf('[a](missing)\nx=1'), 'a')).toThrow(/unknown template/);
  });
});
