// The Event kinds and source an import adds around the canonical timeline; replay skips them, the timeline labels them.

/** First event of an imported transcript: its format, name, input sha256, counts and tool declarations. */
export const IMPORT_EVENT = "import";
/** What an adapter could not map (an unknown block type, a result for no call): `dataJson` {path, message}, `rawJson` the item. */
export const IMPORT_ISSUE_EVENT = "import_issue";
/** Event.source of every row an import of a vendor transcript writes. */
export const IMPORT_SOURCE = "import";

/** First event of a fork's thread (lib/forks): like IMPORT_EVENT, `dataJson` carries {format, declarations} plus the fork's origin. */
export const FORK_EVENT = "fork";
/** Event.source of the history a fork copied from its original. */
export const FORK_SOURCE = "fork";
/** Event.source of a model target's answer in a fork. */
export const MODEL_SOURCE = "model";
/** Event.source of a fork's call answered with the original's recorded result (no tool ran). */
export const RECORDING_SOURCE = "recording";
/** Event.source of a fork's call answered by hand. */
export const MANUAL_SOURCE = "manual";

/** Sources whose rows keep the canonical fields (path, callId, itemId, input, …) in `dataJson`, as imports do. */
export const CANONICAL_DATA_SOURCES: ReadonlySet<string> = new Set([
  IMPORT_SOURCE,
  FORK_SOURCE,
  MODEL_SOURCE,
  RECORDING_SOURCE,
  MANUAL_SOURCE,
]);
