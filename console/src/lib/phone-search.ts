// Reads a search as a phone number with the phone module's parser (contract/phone.ts). The
// parser carries libphonenumber-js's metadata (~33 KB gzipped), so it is fetched the first
// time a search looks like a number, not with the Call Logs or numbers screen.
import { useEffect, useMemo, useState } from 'react';
import { looksLikePhoneQuery, type PhoneQuery } from '../../../contract/phone-display';

type PhoneModule = typeof import('../../../contract/phone');
let phone: PhoneModule | null = null;

/** The search as a phone query once the parser is here; null for other text (free text only). */
export function usePhoneQuery(text: string): PhoneQuery | null {
  const wanted = looksLikePhoneQuery(text);
  const [ready, setReady] = useState(phone !== null);
  useEffect(() => {
    if (!wanted || phone) return;
    let live = true;
    import('../../../contract/phone')
      .then((m) => {
        phone = m;
        if (live) setReady(true);
      })
      // Without the parser the free-text rule still answers; a later search tries again.
      .catch(() => undefined);
    return () => {
      live = false;
    };
  }, [wanted]);
  return useMemo(() => (wanted && ready && phone ? phone.phoneQuery(text) : null), [text, wanted, ready]);
}
