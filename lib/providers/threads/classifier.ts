import { graphClassifier, metaGraphRules } from '../meta-graph/classifier';
import { THREADS_NETWORK } from '../meta-graph/network';

export const THREADS_RULES = metaGraphRules(THREADS_NETWORK);
export const classifyThreads = graphClassifier(THREADS_RULES);
