// An imported result's non-text content from any vendor: images (raster types only, as data: URLs we build),
// audio players, documents (plain text shown; bytes offered as a download, never rendered), references to URLs
// (links for http(s) only) or provider file ids, MCP resource links and embedded resources, and blocks with no
// canonical meaning as their JSON. Everything is untrusted text.
import { Fragment, type ReactNode } from "react";
import type { ContentBlock } from "@/lib/formats/canonical.ts";
import { audioDataUrl, base64ByteLength, imageDataUrl } from "@/lib/calls/safe-links.ts";
import { presentUntrustedText } from "@/lib/calls/untrusted-text.ts";
import { ExternalLink } from "@/components/ui/external-link.tsx";
import { formatBytes } from "@/components/ui/format.ts";

const LABELS: Record<ContentBlock["type"], string> = {
  text: "text",
  image: "image",
  audio: "audio",
  document: "document",
  media_ref: "reference",
  resource_link: "resource link",
  resource: "embedded resource",
  unknown: "vendor block",
};

function Link({ url, revealSecrets }: { url: string; revealSecrets: boolean }) {
  return <ExternalLink url={url} revealSecrets={revealSecrets} className="mono" />;
}

function Facts({ rows }: { rows: [string, ReactNode][] }) {
  return (
    <dl className="kv">
      {rows.map(([label, value]) => (
        <Fragment key={label}>
          <dt>{label}</dt>
          <dd>{value}</dd>
        </Fragment>
      ))}
    </dl>
  );
}

// eslint-disable-next-line max-lines-per-function -- grew past the cap when Prettier wrapped it at 120 columns; split along its seams when next changed
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
        <img className="mcp-image" src={src} alt={`Image ${index + 1} of the result (${block.mimeType})`} />
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
          aria-label={`Audio ${index + 1} of the result (${block.mimeType})`}
        />
      ) : (
        <p className="notice notice-warn small" role="note">
          Audio of type <span className="mono">{present(block.mimeType)}</span> not playable here.
        </p>
      );
    }
    case "document":
      return (
        <div>
          <Facts
            rows={[
              [
                "type",
                <span key="t" className="mono">
                  {present(block.mimeType)}
                </span>,
              ],
              ...(block.title === undefined ? [] : [["title", present(block.title)] as [string, ReactNode]]),
              [
                "size",
                block.data !== undefined
                  ? formatBytes(base64ByteLength(block.data))
                  : `${(block.text ?? "").length.toLocaleString("en-US")} characters`,
              ],
            ]}
          />
          {block.text !== undefined ? (
            <pre className="raw code-block" tabIndex={0}>
              {present(block.text)}
            </pre>
          ) : (
            <p className="small muted">Binary document: not rendered here; its bytes are in the export.</p>
          )}
        </div>
      );
    case "media_ref":
      return (
        <Facts
          rows={[
            ["kind", block.media],
            ...(block.mimeType === undefined
              ? []
              : [
                  [
                    "type",
                    <span key="t" className="mono">
                      {present(block.mimeType)}
                    </span>,
                  ] as [string, ReactNode],
                ]),
            ...(block.title === undefined ? [] : [["title", present(block.title)] as [string, ReactNode]]),
            block.url !== undefined
              ? ["url", <Link key="u" url={block.url} revealSecrets={revealSecrets} />]
              : [
                  "file id",
                  <span key="f" className="mono">
                    {present(block.fileId ?? "")}
                  </span>,
                ],
          ]}
        />
      );
    case "resource_link":
      return (
        <Facts
          rows={[
            ["name", present(block.title ?? block.name ?? "—")],
            ["uri", <Link key="u" url={block.uri} revealSecrets={revealSecrets} />],
            ...(block.mimeType === undefined
              ? []
              : [
                  [
                    "type",
                    <span key="t" className="mono">
                      {present(block.mimeType)}
                    </span>,
                  ] as [string, ReactNode],
                ]),
            ...(block.description === undefined
              ? []
              : [["description", present(block.description)] as [string, ReactNode]]),
          ]}
        />
      );
    case "resource":
      return (
        <div>
          <Facts
            rows={[
              ["uri", <Link key="u" url={block.resource.uri} revealSecrets={revealSecrets} />],
              ...(block.resource.mimeType === undefined
                ? []
                : [
                    [
                      "type",
                      <span key="t" className="mono">
                        {present(block.resource.mimeType)}
                      </span>,
                    ] as [string, ReactNode],
                  ]),
              ...(block.resource.blob === undefined
                ? []
                : [
                    ["blob", `${formatBytes(base64ByteLength(block.resource.blob))} of binary data (not rendered)`] as [
                      string,
                      ReactNode,
                    ],
                  ]),
            ]}
          />
          {block.resource.text !== undefined ? (
            <pre className="raw code-block" tabIndex={0}>
              {present(block.resource.text)}
            </pre>
          ) : null}
        </div>
      );
    case "unknown":
      return (
        <pre className="raw code-block" tabIndex={0}>
          {present(JSON.stringify(block.raw, null, 2) ?? String(block.raw))}
        </pre>
      );
  }
}

export function VendorContent({
  blocks,
  format,
  revealSecrets,
}: {
  blocks: ContentBlock[];
  format: string | null;
  revealSecrets: boolean;
}) {
  return (
    <section className="result-panel" aria-label="Result content" data-testid="vendor-content">
      <h3 className="result-panel-title">Content{format === null ? "" : ` (${format} transcript)`}</h3>
      <ol className="mcp-blocks">
        {blocks.map((block, index) => (
          <li key={index} className="mcp-block" data-block-type={block.type}>
            <div className="small muted">
              #{index + 1} · {block.type === "media_ref" ? `${block.media} reference` : LABELS[block.type]}
              {block.type === "unknown" && block.format !== undefined ? ` (${block.format})` : ""}
            </div>
            <Block block={block} index={index} revealSecrets={revealSecrets} />
          </li>
        ))}
      </ol>
    </section>
  );
}
