// The traces domain's operations, for routes, pages and the CLI: import, export, replay, compare.
// One operation per file; this module is the table of contents.
import "server-only";
export {
  importTranscript,
  type ImportProgress,
  type ImportReply,
  type ImportTranscriptOptions,
} from "./import-transcript.ts";
export { exportThreadText, openThreadExport, type ThreadExportStream } from "./export-thread.ts";
export { getReplayTrace, getReplayTraceView, renderThreadHistory, type ReplayTrace } from "./replay-thread.ts";
export { callExists, threadExists } from "./exists.ts";
export {
  compareThreads,
  listComparableThreads,
  MAX_COMPARED_CALLS,
  type CompareRow,
  type ComparedCall,
  type CompareSide,
  type TextDiff,
  type ThreadComparison,
} from "./compare-threads.ts";
export { defaultReplayVendor, getReplayStep } from "./replay-step.ts";
