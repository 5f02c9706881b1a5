// "Export JSONL": downloads the thread as lossless Toolscope JSONL. A plain link: no client code needed.
import { exportHref } from "@/components/replay/trace-hrefs.ts";

export function ExportButton({ groupId }: { groupId: string }) {
  return (
    <a
      className="button"
      href={exportHref(groupId)}
      download
      data-testid="export-button"
      title="Every event, call, result and delivery, with raw bodies and hashes"
    >
      Export JSONL
    </a>
  );
}
