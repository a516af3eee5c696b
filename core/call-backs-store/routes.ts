import type { FastifyRequest } from 'fastify';
import type { ApiCallBackResponse, ApiCallBacksResponse, ApiTakeCallBackResponse } from '../../contract/api.js';
import type { CallBackState } from '../../contract/call-backs.js';
import { CallBackResponse, CallBacksResponse, TakeCallBackResponse } from '../../contract/schemas/call-backs.js';
import { ApiErrorSchema, IdParams } from '../../contract/schemas/shared.js';
import { conflict, notFound } from '../http/errors.js';
import type { App } from '../http/fastify-types.js';
import { currentUser } from '../http/session-hook.js';
import { ownRowsOnly } from '../team/staff-scope.js';
import { listCallBacks, ownerCallBackAction, type CallBackScope } from './store.js';

const NOT_FOUND = 'Call-back not found.';

/** Why a cancel or take cannot be done, by where the call-back is: words the tracker shows as they are. */
const REFUSED: Record<'cancel' | 'take', Partial<Record<CallBackState, string>>> = {
  cancel: {
    calling: 'The assistant is ringing them right now, so it cannot be cancelled.',
    answered: 'They have already been rung back: the assistant spoke to them.',
    'no-answer': "The assistant's tries are over: there is nothing left to cancel.",
    done: 'This call-back is already done.',
    cancelled: 'This call-back is already cancelled.',
  },
  take: {
    calling: 'The assistant is ringing them right now: wait until the call ends.',
    answered: 'They have already been rung back: the assistant spoke to them.',
    done: 'This call-back is already done.',
  },
};

/** The scope of a request: the business's call-backs, and for a staff member with view 'own' only theirs (as the calls routes). */
function scopeOf(req: FastifyRequest): CallBackScope {
  const staffId = ownRowsOnly(req.staff);
  return { userId: currentUser(req).id, ...(staffId === undefined ? {} : { staffId }) };
}

/**
 * The call-back tracker (issue 56): the list, cancel, and "take it myself". Another business's
 * call-back answers 404, as a missing one: ids do not leak.
 */
export async function callBackRoutes(app: App): Promise<void> {
  const { database, now } = app.services;
  const db = database.db;

  app.get('/api/call-backs', { schema: { response: { 200: CallBacksResponse } } }, async (req): Promise<ApiCallBacksResponse> => ({ callBacks: await listCallBacks(db, scopeOf(req)) }));

  app.post(
    '/api/call-backs/:id/cancel',
    { schema: { params: IdParams, response: { 200: CallBackResponse, 404: ApiErrorSchema, 409: ApiErrorSchema } } },
    async (req): Promise<ApiCallBackResponse> => {
      const done = await ownerCallBackAction(db, scopeOf(req), req.params.id, 'cancel', now());
      if (done.kind === 'missing') throw notFound(NOT_FOUND);
      if (done.kind === 'refused') throw conflict(REFUSED.cancel[done.state] ?? 'This call-back cannot be cancelled now.');
      return { callBack: done.callBack, message: 'Call-back cancelled: the assistant will not ring them.' };
    },
  );

  app.post(
    '/api/call-backs/:id/take',
    { schema: { params: IdParams, response: { 200: TakeCallBackResponse, 404: ApiErrorSchema, 409: ApiErrorSchema } } },
    async (req): Promise<ApiTakeCallBackResponse> => {
      const done = await ownerCallBackAction(db, scopeOf(req), req.params.id, 'take', now());
      if (done.kind === 'missing') throw notFound(NOT_FOUND);
      if (done.kind === 'refused') throw conflict(REFUSED.take[done.state] ?? 'This call-back cannot be taken now.');
      return { callBack: done.callBack, tel: `tel:${done.callBack.callerNumber}`, message: 'Yours now: the assistant will not ring them.' };
    },
  );
}
