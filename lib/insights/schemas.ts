// Insights over stored results: confidence distribution, nextAction counts, error types by tool, slowest
// tools. The DTO of the service, GET /api/insights and the insights components. Client-safe.

export type ConfidenceBucket = {
  /** Inclusive lower bound; the upper bound is exclusive except for the last bucket (1.0 belongs to 0.9–1.0). */
  from: number;
  to: number;
  count: number;
  band: "high" | "medium" | "low";
};

export type ConfidenceDistribution = {
  buckets: ConfidenceBucket[];
  /** Confidences outside 0..1 (invalid envelopes keep the claimed value). */
  outOfRange: number;
  /** Results with a confidence (any envelope kind). */
  total: number;
  bands: { band: "high" | "medium" | "low"; count: number; suggestion: string }[];
};

export type NextActionCount = { action: string; count: number };

export type ToolErrors = { toolName: string; total: number; types: { type: string; count: number }[] };

export type ToolDuration = {
  toolName: string;
  samples: number;
  p50Ms: number;
  p95Ms: number;
  maxMs: number;
  fromMeta: number;
};

export type InsightsData = {
  generatedAt: string;
  results: { total: number; withEnvelope: number };
  confidence: ConfidenceDistribution;
  nextActions: NextActionCount[];
  errorsByTool: ToolErrors[];
  /** Every error type that appears, most frequent first: the legend order (and colour index) of the chart. */
  errorTypes: string[];
  slowestTools: ToolDuration[];
  /** Durations come from at most this many of the most recently registered finished calls. */
  durationSampleLimit: number;
  durationSampled: number;
};
