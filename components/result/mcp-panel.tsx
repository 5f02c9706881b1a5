// An MCP CallToolResult: its content blocks (text; images only for raster types via data: URLs we build;
// audio players; resource links that are links only for http(s); embedded resources) and isError.
import type { McpView } from "@/lib/calls/schemas.ts";
import { audioDataUrl, base64ByteLength, imageDataUrl } from "@/lib/calls/safe-links.ts";
import { presentUntrustedText } from "@/lib/calls/untrusted-text.ts";
import type { ContentBlock } from "@/lib/results/mcp.ts";
import { ExternalLink } from "@/components/ui/external-link.tsx";
import { formatBytes } from "@/components/ui/format.ts";

function UriText({ uri, revealSecrets }: { uri: string; revealSecrets: boolean }) {
  return <ExternalLink url={uri} revealSecrets={revealSecrets} className="mono" />;
}

function Block({ block, index, revealSecrets }: { block: ContentBlock; index: number; revealSecrets: boolean }) {
  const present = (text: string) => presentUntrustedText(text, { revealSecrets });
  switch (block.type) {
    case "text":
      return (
        <pre className="raw code-block" tabIndex={0}>
          {present(block.text)}
        </pre>
      );
    case "image": {
      const src = imageDataUrl(block.mimeType, block.data);
      return src ? (
        // eslint-disable-next-line @next/next/no-img-element -- a data: URL of untrusted bytes; next/image would proxy it
        <img className="mcp-image" src={src} alt={`Image content block ${index + 1} (${block.mimeType})`} />
      ) : (
        <p className="notice notice-warn small" role="note">
          Image of type <span className="mono">{present(block.mimeType)}</span> (
          {formatBytes(base64ByteLength(block.data))}) not displayed: only PNG, JPEG, GIF and WebP images with valid
          base64 are shown.
        </p>
      );
    }
    case "audio": {
      const src = audioDataUrl(block.mimeType, block.data);
      return src ? (
        <audio
          className="mcp-audio"
          controls
          src={src}
          aria-label={`Audio content block ${index + 1} (${block.mimeType})`}
        />
      ) : (
        <p className="notice notice-warn small" role="note">
          Audio of type <span className="mono">{present(block.mimeType)}</span> not playable here (not audio/* with
          valid base64).
        </p>
      );
    }
    case "resource_link":
      return (
        <dl className="kv">
          <dt>name</dt>
          <dd>{(block.title ?? block.name) ? present(block.title ?? block.name ?? "") : "—"}</dd>
          <dt>uri</dt>
          <dd>
            <UriText uri={block.uri} revealSecrets={revealSecrets} />
          </dd>
          {block.mimeType ? (
            <>
              <dt>type</dt>
              <dd className="mono">{present(block.mimeType)}</dd>
            </>
          ) : null}
          {block.description ? (
            <>
              <dt>description</dt>
              <dd>{present(block.description)}</dd>
            </>
          ) : null}
        </dl>
      );
    case "resource":
      return (
        <div>
          <dl className="kv">
            <dt>uri</dt>
            <dd>
              <UriText uri={block.resource.uri} revealSecrets={revealSecrets} />
            </dd>
            {block.resource.mimeType ? (
              <>
                <dt>type</dt>
                <dd className="mono">{present(block.resource.mimeType)}</dd>
              </>
            ) : null}
            {block.resource.blob !== undefined ? (
              <>
                <dt>blob</dt>
                <dd>{formatBytes(base64ByteLength(block.resource.blob))} of binary data (not rendered)</dd>
              </>
            ) : null}
          </dl>
          {block.resource.text !== undefined ? (
            <pre className="raw code-block" tabIndex={0}>
              {present(block.resource.text)}
            </pre>
          ) : null}
        </div>
      );
    default:
      return (
        <pre className="raw code-block" tabIndex={0}>
          {present(JSON.stringify(block.raw, null, 2) ?? String(block.raw))}
        </pre>
      );
  }
}

const BLOCK_NAMES: Record<ContentBlock["type"], string> = {
  text: "text",
  image: "image",
  audio: "audio",
  resource_link: "resource link",
  resource: "embedded resource",
  unknown: "unrecognised block",
};

export function McpPanel({ mcp, revealSecrets }: { mcp: McpView; revealSecrets: boolean }) {
  return (
    <section className="result-panel" aria-label="MCP result" data-testid="mcp-panel">
      <h3 className="result-panel-title">
        MCP result{" "}
        <span className={`badge ${mcp.isError ? "badge-bad" : "badge-ok"}`} data-testid="mcp-is-error">
          isError: {String(mcp.isError)}
        </span>
      </h3>
      {mcp.problems.length > 0 ? (
        <div className="notice notice-warn" role="note">
          <strong>Not a well-formed CallToolResult:</strong>
          <ul className="problems">
            {mcp.problems.map((problem) => (
              <li key={problem} className="mono">
                {presentUntrustedText(problem, { revealSecrets })}
              </li>
            ))}
          </ul>
        </div>
      ) : null}
      {mcp.warnings.map((warning) => (
        <p key={warning} className="notice notice-warn small" role="note" data-testid="mcp-warning">
          {warning}
        </p>
      ))}
      {mcp.content.length === 0 ? <p className="muted small">No content blocks.</p> : null}
      <ol className="mcp-blocks">
        {mcp.content.map((block, index) => (
          <li key={index} className="mcp-block" data-block-type={block.type}>
            <div className="small muted">
              #{index + 1} · {BLOCK_NAMES[block.type]}
            </div>
            <Block block={block} index={index} revealSecrets={revealSecrets} />
          </li>
        ))}
      </ol>
    </section>
  );
}
