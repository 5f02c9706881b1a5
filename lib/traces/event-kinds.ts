// The Event kinds and source an import adds around the canonical timeline; replay skips them, the timeline labels them.

/** First event of an imported transcript: its format, name, input sha256, counts and tool declarations. */
export const IMPORT_EVENT = "import";
/** What an adapter could not map (an unknown block type, a result for no call): `dataJson` {path, message}, `rawJson` the item. */
export const IMPORT_ISSUE_EVENT = "import_issue";
/** Event.source of every row an import of a vendor transcript writes. */
export const IMPORT_SOURCE = "import";
