// The audit log's filters as a plain GET form: the URL holds outcome and thread, so a filtered view can be
// shared and works without JavaScript. Server-renderable.
import Link from "next/link";
import { AUDIT_OUTCOMES, type DeliveryPage } from "@/lib/deliveries/schemas.ts";
import { formatCount } from "../ui/format.ts";

export function DeliveryFilters({
  filters,
  outcomeCounts,
  ignored,
}: {
  filters: DeliveryPage["filters"];
  outcomeCounts: DeliveryPage["outcomeCounts"];
  ignored: string[];
}) {
  const total = Object.values(outcomeCounts).reduce<number>((sum, n) => sum + (n ?? 0), 0);
  const filtered = filters.outcome !== undefined || filters.group !== undefined || filters.origin !== undefined;
  return (
    <form method="get" action="/deliveries" className="filters card" role="search" aria-label="Filter deliveries">
      <label className="field">
        <span className="field-label">Outcome</span>
        <select name="outcome" defaultValue={filters.outcome ?? ""} className="input">
          <option value="">All outcomes ({formatCount(total)})</option>
          {AUDIT_OUTCOMES.map((outcome) => (
            <option key={outcome} value={outcome}>
              {outcome.replaceAll("_", " ")} ({formatCount(outcomeCounts[outcome] ?? 0)})
            </option>
          ))}
        </select>
      </label>
      <label className="field field-grow">
        <span className="field-label">Thread (group_id)</span>
        <input
          name="group"
          type="search"
          defaultValue={filters.group ?? ""}
          className="input mono"
          placeholder="exact group id"
          maxLength={512}
          autoComplete="off"
          spellCheck={false}
        />
      </label>
      <label className="field">
        <span className="field-label">Source</span>
        <select name="origin" defaultValue={filters.origin ?? ""} className="input">
          <option value="">Received and imported</option>
          <option value="received">Received by this server</option>
          <option value="imported">Imported</option>
        </select>
      </label>
      <div className="field-actions">
        <button type="submit" className="button button-primary">
          Apply
        </button>
        {filtered ? (
          <Link href="/deliveries" className="button">
            Clear
          </Link>
        ) : null}
      </div>
      {ignored.length > 0 ? (
        <p className="small text-warn filters-note" role="status">
          Ignored an invalid {ignored.join(" and ")} in the address.
        </p>
      ) : null}
    </form>
  );
}
