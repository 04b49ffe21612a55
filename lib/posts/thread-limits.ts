// The limits live beside the constraints that hold them (db/ is a leaf); lib and the composer import them here.
export { MAX_THREAD_PARTS, MIN_THREAD_PARTS } from '@/db/thread-limits';
