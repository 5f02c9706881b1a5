// The settings page's list of model targets: what each one is, and whether its key variable is set (never its value).
import { MODEL_API_LABELS, type ModelTargetView } from "@/lib/models/schemas.ts";
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
        <div className="card">
          <table className="model-targets" aria-label="Model targets">
            <thead>
              <tr>
                <th scope="col">Name</th>
                <th scope="col">API</th>
                <th scope="col">Base URL</th>
                <th scope="col">Model</th>
                <th scope="col">Key variable</th>
                <th scope="col">Key</th>
                <th scope="col">Timeout</th>
                <th scope="col">Max tokens</th>
              </tr>
            </thead>
            <tbody>
              {targets.map((target) => (
                <tr key={target.name}>
                  <td className="mono">{target.name}</td>
                  <td>{MODEL_API_LABELS[target.api]}</td>
                  <td className="mono">{target.baseUrl}</td>
                  <td className="mono">{target.model}</td>
                  <td className="mono">{target.apiKeyEnv ?? "—"}</td>
                  <td>
                    <span className={`badge ${KEY_STATE[target.keyState].className}`}>
                      {KEY_STATE[target.keyState].label}
                    </span>
                  </td>
                  <td>{(target.timeoutMs / 1000).toLocaleString("en-US")} s</td>
                  <td>{target.maxTokens?.toLocaleString("en-US") ?? "default"}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </>
  );
}
