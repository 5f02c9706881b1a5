// /settings/models – the model targets forks can run against (TOOLSCOPE_MODELS): names, APIs, URLs, key variables; never keys.
import type { Metadata } from "next";
import { ModelTargetsTable } from "@/components/forks/model-targets-table.tsx";
import { listModelTargets } from "@/lib/forks/service.ts";

export const dynamic = "force-dynamic";
export const metadata: Metadata = { title: "Model targets" };

export default function ModelTargetsPage() {
  const { targets, problem } = listModelTargets();
  return (
    <>
      <div className="page-header">
        <div className="page-title">
          <h1>Model targets</h1>
          <p className="page-description small muted">
            Where forks send their history. Configured on the server in <code>TOOLSCOPE_MODELS</code>; each key is read
            from the environment variable the target names, at the moment a request is sent. Keys never reach the
            browser, the logs or the database.
          </p>
        </div>
      </div>
      <ModelTargetsTable targets={targets} problem={problem} />
    </>
  );
}
