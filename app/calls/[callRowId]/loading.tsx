// Shown while a call's detail renders on the server.
export default function CallLoading() {
  return (
    <div aria-busy="true" aria-label="Loading the call">
      <div className="card call-card">
        <h1 className="muted">Loading call…</h1>
        <div className="skeleton-block" />
      </div>
    </div>
  );
}
