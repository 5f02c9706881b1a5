// The two ways a relay target forwards (client-safe: the pages and the configuration schema read it).
export const RELAY_MODES = ["store-and-forward", "pass-through"] as const;
