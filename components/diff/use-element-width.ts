"use client";
// The content width of one element, followed with a ResizeObserver; `null` until measured (server render).
import { useLayoutEffect, useRef, useState, type RefObject } from "react";

/** `beforeChange(previous, next)` runs before the new width is set, so a caller can batch its own state with it. */
export function useElementWidth(
  ref: RefObject<HTMLElement | null>,
  beforeChange?: (previous: number | null, next: number) => void,
): number | null {
  const [width, setWidth] = useState<number | null>(null);
  const callback = useRef(beforeChange);
  useLayoutEffect(() => {
    callback.current = beforeChange;
  });
  useLayoutEffect(() => {
    const element = ref.current;
    if (!element) return;
    let last: number | null = null;
    const measure = () => {
      const next = element.clientWidth;
      if (next === last) return;
      callback.current?.(last, next);
      last = next;
      setWidth(next);
    };
    measure();
    const observer = new ResizeObserver(measure);
    observer.observe(element);
    return () => observer.disconnect();
  }, [ref]);
  return width;
}
