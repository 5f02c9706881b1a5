// /import – import a vendor transcript or a Toolscope export through the upload control.
import type { Metadata } from "next";
import { UploadControl } from "@/components/import/upload-control.tsx";
import { FORMAT_LABELS, IMPORT_FORMATS } from "@/lib/traces/schemas.ts";

export const metadata: Metadata = { title: "Import" };

export default function ImportPage() {
  return (
    <>
      <div className="page-header">
        <div className="page-title">
          <h1>Import a transcript</h1>
          <p className="page-description small muted">
            One file becomes one thread: its messages, reasoning, calls and results, each with the original item kept
            verbatim. Anything that cannot be mapped is kept and listed as an import issue.
          </p>
        </div>
      </div>
      <UploadControl />
      <section className="card import-help" aria-label="Supported formats">
        <h2>Supported formats</h2>
        <ul className="small">
          {IMPORT_FORMATS.map((format) => (
            <li key={format}>
              <strong>{FORMAT_LABELS[format]}</strong> <code>{format}</code>
            </li>
          ))}
        </ul>
        <p className="small muted">
          The format is detected from the content; choose one to override. Larger files than the upload limit:{" "}
          <code>npm run toolscope -- import &lt;file&gt;</code>.
        </p>
      </section>
    </>
  );
}
