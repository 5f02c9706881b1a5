"use client";
// The waterfall's scale and zoom: what the full width means, a ruler to drag across to zoom to a time range (the
// bars' own column), the same range as two fields for the keyboard, and the way back to the whole window.
// The range is kept in the address by the thread timeline (?wf=from-to, ms since the window's first call).
import { useRef, useState, type FormEvent, type PointerEvent } from "react";
import { formatDuration } from "@/components/ui/format-time.ts";
import type { Scale, Zoom } from "./waterfall-scale.ts";

type Drag = { a: number; b: number };

const clamp = (value: number) => Math.min(1, Math.max(0, value));

export function WaterfallZoom({
  scale,
  calls,
  zoom,
  onZoom,
}: {
  scale: Scale;
  calls: number;
  zoom: Zoom | null;
  onZoom: (zoom: Zoom | null) => void;
}) {
  const ruler = useRef<HTMLDivElement>(null);
  const [drag, setDrag] = useState<Drag | null>(null);
  const span = scale.to - scale.from;
  const fraction = (event: PointerEvent) => {
    const box = ruler.current?.getBoundingClientRect();
    return box && box.width > 0 ? clamp((event.clientX - box.left) / box.width) : 0;
  };
  const finishDrag = () => {
    // A click (or a tiny drag) is not a selection.
    if (drag && Math.abs(drag.b - drag.a) > 0.01)
      onZoom({
        from: Math.round(scale.from + Math.min(drag.a, drag.b) * span),
        to: Math.round(scale.from + Math.max(drag.a, drag.b) * span),
      });
    setDrag(null);
  };
  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const data = new FormData(event.currentTarget);
    const from = Number(data.get("from"));
    const to = Number(data.get("to"));
    if (Number.isFinite(from) && Number.isFinite(to) && to > from && from >= 0) onZoom({ from, to });
  };
  const selection = drag ? { left: Math.min(drag.a, drag.b) * 100, width: Math.abs(drag.b - drag.a) * 100 } : null;
  return (
    <div className="wf-head">
      <p className="small muted wf-scale" data-testid="waterfall-scale">
        {calls.toLocaleString("en-US")} calls in view · 0 = first call of the loaded window · shown: +
        {formatDuration(scale.from)} to +{formatDuration(scale.to)}
        {scale.capped ? " · ▸ runs on past the right edge (open calls are not drawn to now)" : ""}
      </p>
      <div className="wf-ruler-line">
        <span className="small muted">Drag to zoom</span>
        <div
          ref={ruler}
          className="wf-ruler"
          data-testid="waterfall-ruler"
          aria-hidden="true"
          onPointerDown={(event) => {
            event.currentTarget.setPointerCapture(event.pointerId);
            const at = fraction(event);
            setDrag({ a: at, b: at });
          }}
          onPointerMove={(event) => {
            if (drag) setDrag({ a: drag.a, b: fraction(event) });
          }}
          onPointerUp={finishDrag}
          onPointerCancel={() => setDrag(null)}
        >
          {selection ? (
            <span className="wf-selection" style={{ left: `${selection.left}%`, width: `${selection.width}%` }} />
          ) : null}
        </div>
        <span />
      </div>
      <form
        className="wf-zoom-form small"
        onSubmit={submit}
        aria-label="Zoom the waterfall"
        key={`${scale.from}-${scale.to}`}
      >
        <label>
          From (ms) <input className="input" name="from" type="number" min={0} defaultValue={scale.from} />
        </label>
        <label>
          to (ms) <input className="input" name="to" type="number" min={1} defaultValue={scale.to} />
        </label>
        <button type="submit" className="button button-small">
          Zoom
        </button>
        {zoom ? (
          <button type="button" className="button button-small" onClick={() => onZoom(null)}>
            Reset zoom
          </button>
        ) : null}
      </form>
    </div>
  );
}
