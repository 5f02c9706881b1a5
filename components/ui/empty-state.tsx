// What a page shows when there is nothing yet: how to send the first trace.
import type { ReactNode } from "react";
import { CopyButton } from "./copy-button.tsx";

export function EmptyState({ title, children }: { title: string; children?: ReactNode }) {
  return (
    <div className="empty-state card" role="status">
      <h2>{title}</h2>
      {children}
    </div>
  );
}

export function FirstTraceHelp({ origin = "http://localhost:3000" }: { origin?: string }) {
  const register = `curl -s ${origin}/api/events -H 'content-type: application/json' \\
  -d '{"type":"tool_call","group_id":"thread_1","id":"call_1","name":"search","arguments":"{\\"q\\":\\"hello\\"}"}'`;
  const result = `curl -s ${origin}/api/callback -H 'content-type: application/json' \\
  -d '{"type":"tool_result","group_id":"thread_1","id":"call_1","text":"3 results"}'`;
  return (
    <div>
      <p>Register a tool call, then post its result:</p>
      <pre className="raw">{`${register}\n\n${result}`}</pre>
      <CopyButton value={`${register}\n\n${result}`} label="Copy the two curl commands" />
      <p>
        Or load realistic demo threads: <code>npm run demo</code>
      </p>
    </div>
  );
}
