// Getting the owner a number; the status tells a new number (201) from one already held (200).
import type { ApiPhoneNumber } from '../../../contract/api';
import { apiSend } from './client';

export const purchaseNumber = () => apiSend<{ number?: ApiPhoneNumber }>('POST', '/api/phone-numbers/purchase');
