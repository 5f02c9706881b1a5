// Picks the two threads to compare: a plain GET form (the choice lives in the URL), with recent threads suggested.
import type { ThreadListItem } from "@/lib/traces/compare-threads.ts";

export function ComparePicker({ a, b, threads }: { a: string; b: string; threads: ThreadListItem[] }) {
  return (
    <form className="card filters compare-picker" method="get" action="/compare" aria-label="Threads to compare">
      <div className="field field-grow">
        <label className="field-label" htmlFor="compare-a">
          Thread A (e.g. the run)
        </label>
        <input
          id="compare-a"
          className="input mono"
          name="a"
          defaultValue={a}
          list="compare-threads"
          required
          autoComplete="off"
        />
      </div>
      <div className="field field-grow">
        <label className="field-label" htmlFor="compare-b">
          Thread B (e.g. the re-run)
        </label>
        <input
          id="compare-b"
          className="input mono"
          name="b"
          defaultValue={b}
          list="compare-threads"
          required
          autoComplete="off"
        />
      </div>
      <div className="field-actions">
        <button type="submit" className="button button-primary">
          Compare
        </button>
      </div>
      <datalist id="compare-threads">
        {threads.map((thread) => (
          <option key={thread.groupId} value={thread.groupId}>
            {thread.title ?? thread.vendor ?? ""}
          </option>
        ))}
      </datalist>
    </form>
  );
}
