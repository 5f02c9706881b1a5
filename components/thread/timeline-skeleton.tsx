// The timeline's place while its first window streams in: the same frame, so nothing jumps when it arrives.
export function TimelineSkeleton() {
  return (
    <section className="timeline" aria-label="Timeline" aria-busy="true">
      <div className="timeline-toolbar">
        <span className="small muted" role="status">
          Loading the timeline…
        </span>
      </div>
      <div className="timeline-scroll skeleton-block" />
    </section>
  );
}
