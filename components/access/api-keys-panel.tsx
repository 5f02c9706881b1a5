"use client";
// API keys: create one (shown once, here), see when each was last used, revoke it.
import { useRouter } from "next/navigation";
import { useState, type FormEvent } from "react";
import { TimeAgo } from "@/components/ui/time-ago.tsx";
import { KEY_SCOPES, type ApiKeyView, type CreatedApiKey } from "@/lib/access/schemas.ts";
import { sendJson } from "@/components/ui/fetch-json.ts";

const SCOPE_HELP: Record<(typeof KEY_SCOPES)[number], string> = {
  ingest: "post events, callbacks, OTLP traces",
  read: "GET APIs and exports",
  admin: "everything: import, forks, keys, users",
};

// eslint-disable-next-line max-lines-per-function -- the key list and its create form share the one-time key state; most lines are table markup
export function ApiKeysPanel({ keys }: { keys: ApiKeyView[] }) {
  const router = useRouter();
  const [created, setCreated] = useState<CreatedApiKey | null>(null);
  const [error, setError] = useState<string | null>(null);

  async function create(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = event.currentTarget;
    const data = new FormData(form);
    setError(null);
    try {
      setCreated(
        await sendJson<CreatedApiKey>("POST", "/api/keys", {
          name: String(data.get("name") ?? ""),
          scope: String(data.get("scope") ?? ""),
        }),
      );
      form.reset();
      router.refresh();
    } catch (failure) {
      setError(failure instanceof Error ? failure.message : "Could not create the key");
    }
  }

  async function revoke(key: ApiKeyView) {
    if (!window.confirm(`Revoke the key "${key.name}"? Programs using it get 401 from now on.`)) return;
    setError(null);
    try {
      await sendJson("DELETE", `/api/keys/${key.id}`);
      router.refresh();
    } catch (failure) {
      setError(failure instanceof Error ? failure.message : "Could not revoke the key");
    }
  }

  return (
    <section className="card panel" aria-labelledby="keys-heading">
      <div className="panel-header">
        <h2 id="keys-heading">API keys</h2>
      </div>
      <p className="panel-description small muted">
        Programs send <code>Authorization: Bearer &lt;key&gt;</code>. A key is shown once; only its SHA-256 is stored.
      </p>
      {error ? (
        <p className="notice notice-bad" role="alert">
          {error}
        </p>
      ) : null}
      {created ? (
        <div className="notice notice-warn" role="status" data-testid="new-key">
          New {created.scope} key “{created.name}” — copy it now, it is not shown again:
          <pre className="mono new-key">{created.key}</pre>
        </div>
      ) : null}
      <form className="key-form" onSubmit={create} aria-label="Create an API key">
        <label className="field field-grow">
          <span>Name</span>
          <input className="input" name="name" required maxLength={100} placeholder="ci-runner" />
        </label>
        <label className="field">
          <span>Scope</span>
          <select className="input" name="scope" defaultValue="ingest">
            {KEY_SCOPES.map((scope) => (
              <option key={scope} value={scope}>
                {scope} — {SCOPE_HELP[scope]}
              </option>
            ))}
          </select>
        </label>
        <button className="button button-primary" type="submit">
          Create key
        </button>
      </form>
      {keys.length === 0 ? (
        <p className="panel-empty muted">No API keys yet.</p>
      ) : (
        <div className="table-wrap">
          <table className="table">
            <thead>
              <tr>
                <th>Name</th>
                <th>Scope</th>
                <th>Key</th>
                <th>Created</th>
                <th>Last used</th>
                <th>State</th>
              </tr>
            </thead>
            <tbody>
              {keys.map((key) => (
                <tr key={key.id}>
                  <td>{key.name}</td>
                  <td>{key.scope}</td>
                  <td className="mono">{key.prefix}…</td>
                  <td>
                    <TimeAgo iso={key.createdAt} /> <span className="muted small">by {key.createdBy}</span>
                  </td>
                  <td>{key.lastUsedAt ? <TimeAgo iso={key.lastUsedAt} /> : <span className="muted">never</span>}</td>
                  <td>
                    {key.revokedAt ? (
                      <span className="muted">
                        revoked <TimeAgo iso={key.revokedAt} />
                      </span>
                    ) : (
                      <button
                        className="button"
                        type="button"
                        onClick={() => void revoke(key)}
                        aria-label={`Revoke ${key.name}`}
                      >
                        Revoke
                      </button>
                    )}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </section>
  );
}
