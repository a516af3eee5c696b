// The "try the agent" call, through the console's one API client module.
import type { AgentPreviewRequest, AgentPreviewResult } from '../../../../contract/api';
import { apiRequest } from '../../api/client';

export const previewAgent = (body: AgentPreviewRequest) => apiRequest<AgentPreviewResult>('POST', '/api/agent/preview', body);
