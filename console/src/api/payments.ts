// Money (issue 59): the owner's own Stripe account for deposits, their plan with the operator
// (BILLING=stripe) and the admin's subscriptions. Paths and shapes are contract/payments.ts's.
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import {
  PAYMENT_ROUTES,
  type ApiAdminBilling,
  type ApiBilling,
  type ApiBillingCheckout,
  type ApiStripeConnection,
  type ApiStripeConnectionUpdate,
  type ApiStripeTest,
} from '../../../contract/payments';
import { USAGE_REFRESH_MS } from '../lib/usage';
import { apiGet, apiRequest } from './client';
import { keys } from './keys';
import { useSession } from './session';

export const useStripeConnection = () => useQuery({ queryKey: keys.payments.stripe, queryFn: ({ signal }) => apiGet<ApiStripeConnection>(PAYMENT_ROUTES.stripe, signal) });

/** Save, Test connection and Disconnect: each answer is the connection as it now stands. */
export function useStripeActions() {
  const qc = useQueryClient();
  const settle = (c: ApiStripeConnection | undefined) => {
    if (c) qc.setQueryData(keys.payments.stripe, c);
    else void qc.invalidateQueries({ queryKey: keys.payments.stripe });
  };
  const save = useMutation({ mutationFn: (body: ApiStripeConnectionUpdate) => apiRequest<ApiStripeConnection>('PUT', PAYMENT_ROUTES.stripe, body), onSuccess: settle });
  const test = useMutation({ mutationFn: () => apiRequest<ApiStripeTest>('POST', PAYMENT_ROUTES.stripeTest), onSuccess: (r) => settle(r.connection) });
  // The answer may be the emptied connection or nothing (204): either way the card reads it again.
  const disconnect = async () => {
    await apiRequest<unknown>('DELETE', PAYMENT_ROUTES.stripe);
    await qc.invalidateQueries({ queryKey: keys.payments.stripe });
  };
  return { save, test, disconnect };
}

/**
 * The owner's plan (`enabled` false when the box runs without BILLING=stripe). Only an owner has
 * one: an admin's or a staff member's sign-in never asks, and reads `undefined`.
 */
export function useBilling() {
  const { user, staff } = useSession();
  return useQuery({
    queryKey: keys.payments.billing,
    queryFn: ({ signal }) => apiGet<ApiBilling>(PAYMENT_ROUTES.billing, signal),
    enabled: user?.role === 'customer' && !staff,
  });
}

/** Stripe Checkout in subscription mode: the answer is the hosted page the browser goes to. */
export const startBillingCheckout = () => apiRequest<ApiBillingCheckout>('POST', PAYMENT_ROUTES.billingCheckout);

/** Cancel (at the period's end) or resume: the answer is the plan as it now stands; the account is read again (its banner follows). */
export function useBillingChange() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (what: 'cancel' | 'resume') => apiRequest<ApiBilling>('POST', what === 'cancel' ? PAYMENT_ROUTES.billingCancel : PAYMENT_ROUTES.billingResume),
    onSuccess: (plan) => qc.setQueryData(keys.payments.billing, plan),
    onSettled: async (_plan, error) => {
      await Promise.all([error ? qc.invalidateQueries({ queryKey: keys.payments.billing }) : null, qc.invalidateQueries({ queryKey: keys.me })]);
    },
  });
}

/** Read again on Usage & Costs' own 5-minute beat, so the revenue stands beside costs of the same moment. */
export const useAdminBilling = () =>
  useQuery({ queryKey: keys.admin.billing, queryFn: ({ signal }) => apiGet<ApiAdminBilling>(PAYMENT_ROUTES.adminBilling, signal), refetchInterval: USAGE_REFRESH_MS });
