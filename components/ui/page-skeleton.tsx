// What a page shows while its data streams in (inside <Suspense>): its title at once, grey bars where figures and
// rows will be, marked busy for assistive technology.
export function PageSkeleton({ title, figures = 0, rows = 6 }: { title: string; figures?: number; rows?: number }) {
  return (
    <div aria-busy="true" aria-live="polite">
      <div className="page-header">
        <div className="page-title">
          <h1>{title}</h1>
          <p className="page-description small muted">Loading…</p>
        </div>
      </div>
      {figures > 0 ? (
        <div className="grid grid-figures" aria-hidden="true">
          {Array.from({ length: figures }, (_, index) => (
            <div key={index} className="skeleton-figure" />
          ))}
        </div>
      ) : null}
      <div className="card page-skeleton section" aria-hidden="true">
        {Array.from({ length: rows }, (_, index) => (
          <div key={index} className="skeleton-line" style={{ width: `${92 - ((index * 17) % 40)}%` }} />
        ))}
      </div>
    </div>
  );
}
