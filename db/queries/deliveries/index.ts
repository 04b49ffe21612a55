// The delivery lifecycle: every statement that changes a delivery's status (the transition table is
// lib/deliveries/transitions.ts; the database trigger enforces it).
export { addDeliveries, addDeliveriesForPosts } from './add';
export { schedulingStatus, type SchedulingStatus } from './approval-rule';
export { saveProviderState, startAttempts, type StartedAttempt } from './attempts';
export { cancelScheduledDeliveries } from './cancel';
export { claimDueDeliveries, type ClaimedDelivery } from './claim';
export { disconnectAccount } from './disconnect';
export { scheduleDraftDeliveries } from './draft';
export { applyEditToDeliveries, lockDeliveriesForEdit, removeDroppedParts, replaceDeliveryOptions } from './edit';
export {
  GAVE_UP_COPY_REASON,
  GAVE_UP_STATUSES,
  LATE_COPY_REASON,
  recordLateCopy,
  type GaveUpStatus,
  type LateCopyDetection,
} from './late-copy';
export { latenessDeadline } from './lateness';
export { markMissedDeliveries } from './missed';
export { recordOutcomes, type DeliveryOutcome } from './outcomes';
export {
  claimAmbiguousDeliveries,
  recordReconcileDecision,
  type AmbiguousDelivery,
  type ReconcileDecision,
} from './reconcile';
export { resolveReviewItem, type ReviewResolution } from './review';
export { sweepExpiredClaims } from './sweep';
export { partReady, settleStrandedParts } from './thread';
export { approveAwaitingDeliveries, requestApprovalForDeliveries } from './approval';
