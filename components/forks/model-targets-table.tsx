// The settings page's list of model targets: what each one is, and whether its key variable is set (never its value).
import { MODEL_API_LABELS, type ModelTargetView } from "@/lib/models/schemas.ts";
import { DataTable, type Column } from "@/components/ui/data-table.tsx";
import "./forks.css";

const KEY_STATE: Record<ModelTargetView["keyState"], { label: string; className: string }> = {
  set: { label: "set", className: "badge-ok" },
  missing: { label: "not set", className: "badge-bad" },
  not_needed: { label: "none needed", className: "badge-neutral" },
};

const EXAMPLE = `TOOLSCOPE_MODELS='[
  {"name": "gpt-4.1", "api": "openai-chat", "baseUrl": "https://api.openai.com/v1", "model": "gpt-4.1", "apiKeyEnv": "OPENAI_API_KEY"},
  {"name": "claude", "api": "anthropic", "baseUrl": "https://api.anthropic.com/v1", "model": "claude-sonnet-4-5", "apiKeyEnv": "ANTHROPIC_API_KEY"},
  {"name": "local-qwen", "api": "openai-chat", "baseUrl": "http://127.0.0.1:11434/v1", "model": "qwen3:8b"}
]'`;

const COLUMNS: Column<ModelTargetView>[] = [
  { key: "name", header: "Name", cell: (target) => target.name, className: "mono" },
  { key: "api", header: "API", cell: (target) => MODEL_API_LABELS[target.api] },
  { key: "base-url", header: "Base URL", cell: (target) => target.baseUrl, className: "mono" },
  { key: "model", header: "Model", cell: (target) => target.model, className: "mono" },
  { key: "key-env", header: "Key variable", cell: (target) => target.apiKeyEnv ?? "—", className: "mono" },
  {
    key: "key",
    header: "Key",
    cell: (target) => (
      <span className={`badge ${KEY_STATE[target.keyState].className}`}>{KEY_STATE[target.keyState].label}</span>
    ),
  },
  { key: "timeout", header: "Timeout", cell: (target) => `${(target.timeoutMs / 1000).toLocaleString("en-US")} s` },
  {
    key: "max-tokens",
    header: "Max tokens",
    cell: (target) => target.maxTokens?.toLocaleString("en-US") ?? "default",
  },
];

export function ModelTargetsTable({ targets, problem }: { targets: ModelTargetView[]; problem: string | null }) {
  return (
    <>
      {problem !== null ? (
        <p className="card replay-notice replay-notice-bad" role="alert">
          {problem}
        </p>
      ) : null}
      {targets.length === 0 ? (
        <div className="card">
          <p>No model targets are configured. Set TOOLSCOPE_MODELS on the server and restart it, for example:</p>
          <pre className="raw">{EXAMPLE}</pre>
        </div>
      ) : (
        <DataTable
          rows={targets}
          columns={COLUMNS}
          rowKey={(target) => target.name}
          label="Model targets"
          tableClassName="model-targets"
          wrapperClassName="card"
        />
      )}
    </>
  );
}
