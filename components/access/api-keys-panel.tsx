"use client";
// API keys: create one (shown once, here), see when each was last used, revoke it.
import { useRouter } from "next/navigation";
import type { FormEvent } from "react";
import { Panel } from "@/components/ui/panel.tsx";
import { TimeAgo } from "@/components/ui/time-ago.tsx";
import { FormError, useApiMutation } from "@/components/ui/use-api-mutation.tsx";
import { KEY_SCOPES, type ApiKeyView, type CreatedApiKey } from "@/lib/access/schemas.ts";
import { sendJson } from "@/components/ui/fetch-json.ts";
import { CopyButton } from "@/components/ui/copy-button.tsx";

const SCOPE_HELP: Record<(typeof KEY_SCOPES)[number], string> = {
  ingest: "post events, callbacks, OTLP traces",
  read: "GET APIs and exports",
  admin: "everything: import, forks, keys, users",
};

// eslint-disable-next-line max-lines-per-function -- the key list and its create form share the one-time key state; most lines are table markup
export function ApiKeysPanel({ keys }: { keys: ApiKeyView[] }) {
  const router = useRouter();
  const create = useApiMutation({
    mutationFn: ({ data }: { data: FormData; form: HTMLFormElement }) =>
      sendJson<CreatedApiKey>("POST", "/api/keys", {
        name: String(data.get("name") ?? ""),
        scope: String(data.get("scope") ?? ""),
      }),
    onSuccess: (_created, { form }) => {
      form.reset();
      router.refresh();
    },
  });
  const revoke = useApiMutation({
    mutationFn: (key: ApiKeyView) => sendJson("DELETE", `/api/keys/${key.id}`),
    onSuccess: () => router.refresh(),
  });
  const created = create.data ?? null;

  function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    revoke.reset();
    create.run({ data: new FormData(event.currentTarget), form: event.currentTarget });
  }

  function confirmRevoke(key: ApiKeyView) {
    if (!window.confirm(`Revoke the key "${key.name}"? Programs using it get 401 from now on.`)) return;
    create.reset();
    revoke.run(key);
  }

  return (
    <Panel
      title="API keys"
      id="keys-heading"
      description={
        <>
          Programs send <code>Authorization: Bearer &lt;key&gt;</code>. A key is shown once; only its SHA-256 is stored.
        </>
      }
    >
      <FormError error={create.error ?? revoke.error} />
      {created ? (
        <div className="notice notice-warn" role="status" data-testid="new-key">
          New {created.scope} key “{created.name}” — copy it now, it is not shown again:
          <pre className="mono new-key">{created.key}</pre>
          <CopyButton value={created.key} label="Copy the new key" />
        </div>
      ) : null}
      <form className="key-form" onSubmit={submit} aria-label="Create an API key">
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
        <button className="button button-primary" type="submit" disabled={create.busy}>
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
                        onClick={() => confirmRevoke(key)}
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
    </Panel>
  );
}
