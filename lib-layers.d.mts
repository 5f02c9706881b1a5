// Types of lib-layers.mjs (plain JavaScript so eslint.config.mjs can import it without a loader).
export type LibLayer = { note: string; folders: Record<string, string> };
export declare const LIB_LAYERS: LibLayer[];
