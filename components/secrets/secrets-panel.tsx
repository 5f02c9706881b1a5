"use client";
// The values a page shows masked, each with its own Reveal: the page never holds a secret, so revealing asks
// the server for that one value (POST /api/secrets/reveal), which records who revealed what and when.
import Link from "next/link";
import { useId, useState } from "react";
import type { AccessRecordView, MaskedSecret, RevealAnswer, RevealScope } from "@/lib/audit/schemas.ts";
import { postJson } from "@/components/ui/fetch-json.ts";

type Revealed =
  | { state: "idle" }
  | { state: "loading" }
  | { state: "shown"; answer: RevealAnswer; copied: boolean }
  | { state: "failed"; message: string };

function Recorded({ record }: { record: AccessRecordView }) {
  return (
    <span className="small muted" data-testid="reveal-record">
      recorded: {record.principal} at <span className="mono">{record.at}</span> (access log #{record.id})
    </span>
  );
}

function SecretRow({ secret, scopes }: { secret: MaskedSecret; scopes: RevealScope[] }) {
  const [revealed, setRevealed] = useState<Revealed>({ state: "idle" });
  const reveal = async () => {
    setRevealed({ state: "loading" });
    try {
      const answer = await postJson<RevealAnswer>("/api/secrets/reveal", { fingerprint: secret.fingerprint, scopes });
      setRevealed({ state: "shown", answer, copied: false });
    } catch (error) {
      setRevealed({ state: "failed", message: error instanceof Error ? error.message : "the request failed" });
    }
  };
  const copy = async (answer: RevealAnswer) => {
    await navigator.clipboard.writeText(answer.value);
    setRevealed({ state: "shown", answer, copied: true });
  };
  return (
    <li className="secret-row" data-testid="masked-secret" data-fingerprint={secret.fingerprint}>
      <code className="mono">{secret.preview}…</code>{" "}
      <span className="badge badge-warn">{secret.kind.replaceAll("_", " ")}</span>{" "}
      <code className="mono small muted">#{secret.fingerprint}</code>{" "}
      {revealed.state === "shown" ? (
        <>
          <code className="mono secret-value" data-testid="revealed-value">
            {revealed.answer.value}
          </code>{" "}
          <button type="button" className="button button-small" onClick={() => void copy(revealed.answer)}>
            {revealed.copied ? "Copied" : "Copy"}
          </button>{" "}
          <button type="button" className="button button-small" onClick={() => setRevealed({ state: "idle" })}>
            Hide
          </button>{" "}
          <Recorded record={revealed.answer.record} />
        </>
      ) : (
        <button
          type="button"
          className="button button-small"
          disabled={revealed.state === "loading"}
          onClick={() => void reveal()}
        >
          {revealed.state === "loading" ? "Revealing…" : "Reveal"}
          <span className="sr-only">
            {" "}
            {secret.kind.replaceAll("_", " ")} #{secret.fingerprint}
          </span>
        </button>
      )}
      {revealed.state === "failed" ? (
        <span className="small text-bad" role="alert">
          {" "}
          Could not reveal: {revealed.message}
        </span>
      ) : null}
    </li>
  );
}

/** `anchorId`: the page's main panel is "masked-values", which the result cards link to. */
export function SecretsPanel({
  secrets,
  scopes,
  anchorId,
}: {
  secrets: MaskedSecret[];
  scopes: RevealScope[];
  anchorId?: string;
}) {
  const titleId = useId();
  if (secrets.length === 0) return null;
  return (
    <section className="card secrets-panel" aria-labelledby={titleId} data-testid="secrets-panel" id={anchorId}>
      <h2 id={titleId} className="section-title">
        Masked values <span className="muted">({secrets.length.toLocaleString("en-US")})</span>
      </h2>
      <p className="small muted">
        Credential-looking strings leave the server masked (<code className="mono">sk-a…[masked anthropic_key #…]</code>
        ). Revealing one asks the server for that value alone and is recorded in the{" "}
        <Link href="/settings/access-log">access log</Link>. Exports and “exact bytes” downloads stay byte-exact.
      </p>
      <ul className="secret-list">
        {secrets.map((secret) => (
          <SecretRow key={secret.fingerprint} secret={secret} scopes={scopes} />
        ))}
      </ul>
    </section>
  );
}
