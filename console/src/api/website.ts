// Learning the business from its website (issue 55): the site and its latest crawl, read again
// while a crawl is under way, and the owner's decisions on the drafts it made.
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { WEBSITE_ROUTES, type ApiDraftApprove, type ApiDraftDecision, type ApiWebsiteResponse, type ApiWebsiteUpdate } from '../../../contract/website';
import { crawlActive } from '../lib/website-words';
import { apiGet, apiRequest } from './client';
import { keys } from './keys';

/** How often a crawl under way is read: it reads a page every few seconds at most. */
const POLL_MS = 2000;

export const useWebsite = () =>
  useQuery({
    queryKey: keys.website,
    queryFn: ({ signal }) => apiGet<ApiWebsiteResponse>(WEBSITE_ROUTES.site, signal),
    refetchInterval: (q) => (crawlActive(q.state.data?.crawl) ? POLL_MS : false),
  });

/** Saves the address (and the weekly switch), then starts a crawl when asked: "Learn from my website" is one press. */
export function useSaveWebsite() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: async ({ site, crawl }: { site?: ApiWebsiteUpdate; crawl: boolean }) => {
      let res: ApiWebsiteResponse | undefined;
      if (site) res = await apiRequest<ApiWebsiteResponse>('PUT', WEBSITE_ROUTES.site, site);
      if (crawl) res = await apiRequest<ApiWebsiteResponse>('POST', WEBSITE_ROUTES.crawl);
      return res;
    },
    onSuccess: (res) => {
      if (res) qc.setQueryData(keys.website, res);
      else void qc.invalidateQueries({ queryKey: keys.website });
    },
  });
}

export type DraftDecision = { kind: 'approve'; id: number; body: ApiDraftApprove } | { kind: 'reject'; id: number } | { kind: 'approveAll' } | { kind: 'rejectAll' };

const decisionPath = (d: DraftDecision) => (d.kind === 'approve' ? WEBSITE_ROUTES.approve(d.id) : d.kind === 'reject' ? WEBSITE_ROUTES.reject(d.id) : WEBSITE_ROUTES[d.kind]);

/**
 * Approves or rejects one draft or all. The answer's pending drafts replace the list at once;
 * an approval's knowledge base is handed to `onKnowledgeBase` (the text area shows it), and the
 * signed-in user and Call Handling (an 'hours' draft may set the opening hours) are read again.
 */
export function useDecideDrafts(onKnowledgeBase: (text: string) => void) {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (d: DraftDecision) => apiRequest<Partial<ApiDraftDecision> | undefined>('POST', decisionPath(d), d.kind === 'approve' ? d.body : undefined),
    onSuccess: (res, d) => {
      const drafts = res?.drafts;
      if (drafts) qc.setQueryData<ApiWebsiteResponse>(keys.website, (was) => (was ? { ...was, drafts } : was));
      if (typeof res?.knowledgeBase === 'string' && (d.kind === 'approve' || d.kind === 'approveAll')) onKnowledgeBase(res.knowledgeBase);
      void qc.invalidateQueries({ queryKey: keys.website });
      if (d.kind === 'approve' || d.kind === 'approveAll') {
        void qc.invalidateQueries({ queryKey: keys.me });
        void qc.invalidateQueries({ queryKey: keys.callHandling });
      }
    },
  });
}
