// Shown while a thread page renders on the server: the page's frame, so nothing jumps when it arrives.
export default function ThreadLoading() {
  return (
    <div aria-busy="true" aria-label="Loading the thread">
      <div className="page-header">
        <h1 className="thread-title muted">Loading thread…</h1>
      </div>
      <div className="timeline-scroll skeleton-block" />
    </div>
  );
}
