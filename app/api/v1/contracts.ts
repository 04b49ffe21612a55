import type { RouteContract } from '@/lib/api/contract/define';
import { accountContract } from './accounts/[id]/contract';
import { analyticsSummaryContract } from './analytics/summary/contract';
import { accountScheduleContract } from './accounts/[id]/schedule/contract';
import { accountsContract } from './accounts/contract';
import { importsContract } from './imports/contract';
import { inboxReplyContract } from './inbox/[id]/reply/contract';
import { inboxContract } from './inbox/contract';
import { mediaContentContract } from './media/[id]/content/contract';
import { mediaContract } from './media/contract';
import { openApiContract } from './openapi.json/contract';
import { uploadContract } from './uploads/[id]/contract';
import { uploadsContract } from './uploads/contract';
import { approvePostContract } from './posts/[id]/approve/contract';
import { rejectPostContract } from './posts/[id]/reject/contract';
import { cancelPostContract } from './posts/[id]/cancel/contract';
import { postContract } from './posts/[id]/contract';
import { postMetricsContract } from './posts/[id]/metrics/contract';
import { postsContract } from './posts/contract';
import { publicationReportContract } from './reports/publication/contract';
import { webhookEndpointContract } from './webhook-endpoints/[id]/contract';
import { webhookEndpointsContract } from './webhook-endpoints/contract';
import { workspaceContract } from './workspace/contract';
import { snippetContract } from './snippets/[id]/contract';
import { snippetsContract } from './snippets/contract';
import { templateContract } from './templates/[id]/contract';
import { templatesContract } from './templates/contract';

/** Every route.ts under app/api/v1 has its contract here (contracts.test.ts fails when one is missing). */
export const apiV1Contracts: readonly RouteContract[] = [
  postsContract,
  postContract,
  cancelPostContract,
  approvePostContract,
  rejectPostContract,
  postMetricsContract,
  accountsContract,
  accountContract,
  accountScheduleContract,
  mediaContract,
  mediaContentContract,
  uploadsContract,
  uploadContract,
  publicationReportContract,
  analyticsSummaryContract,
  importsContract,
  webhookEndpointsContract,
  webhookEndpointContract,
  workspaceContract,
  inboxContract,
  inboxReplyContract,
  snippetsContract,
  snippetContract,
  templatesContract,
  templateContract,
  openApiContract,
];
