"use client";
// Owns the replay page's step and encoding: mirrored into ?step=&vendor= (a link reopens the same view),
// ←/→/Home/End on the whole page, and the step's data read from the server per step (the previous step stays
// on screen, marked as updating, until the next one arrives). Copy / Download fetch the exact request JSON.
import { keepPreviousData, useQuery } from "@tanstack/react-query";
import { useEffect, useState } from "react";
import { KEY_PRIORITY, useKeyScope } from "@/components/layout/keyboard-layer.ts";
import { queryKeys } from "@/components/providers/query-keys.ts";
import { fetchJson, fetchText } from "@/components/ui/fetch-json.ts";
import type { ReplayStepView, ReplayVendorName } from "@/lib/traces/schemas.ts";

function viewUrl(groupId: string, step: number, vendor: ReplayVendorName): string {
  return `/api/threads/${encodeURIComponent(groupId)}/replay/view?step=${step}&vendor=${encodeURIComponent(vendor)}`;
}

/** The exact vendor request at a step, as the replay API writes it (lossless numbers). */
export async function fetchRequestJson(groupId: string, step: number, vendor: ReplayVendorName): Promise<string> {
  const path = `/api/threads/${encodeURIComponent(groupId)}/replay?step=${step}&vendor=${encodeURIComponent(vendor)}&part=request`;
  return (await fetchText(path)).text;
}

export function useReplayStep(initial: ReplayStepView) {
  const { groupId, total } = initial;
  const [step, setStepState] = useState(initial.step);
  const [vendor, setVendor] = useState<ReplayVendorName>(initial.encoding);
  const setStep = (value: number) => setStepState(Math.min(total, Math.max(0, Math.round(value))));

  const query = useQuery({
    queryKey: queryKeys.replayStep(groupId, step, vendor),
    queryFn: ({ signal }) => fetchJson<ReplayStepView>(viewUrl(groupId, step, vendor), signal),
    initialData: step === initial.step && vendor === initial.encoding ? initial : undefined,
    placeholderData: keepPreviousData,
    staleTime: 30_000,
  });
  const view = query.data ?? initial;

  // The URL follows the view without a navigation (no server render while stepping).
  useEffect(() => {
    const url = new URL(window.location.href);
    url.searchParams.set("step", String(step));
    url.searchParams.set("vendor", vendor);
    window.history.replaceState(window.history.state, "", url);
  }, [step, vendor]);

  // ←/→ and Home/End anywhere on the page, except where a control uses those keys itself (the slider, the select).
  useKeyScope("replay", KEY_PRIORITY.page, (event) => {
    if (event.shiftKey) return false;
    const next = { ArrowLeft: step - 1, ArrowRight: step + 1, Home: 0, End: total }[event.key];
    if (next === undefined) return false;
    setStepState(Math.min(total, Math.max(0, next)));
    return true;
  });

  const stale = view.step !== step || view.encoding !== vendor;
  return { step, setStep, vendor, setVendor, view, stale, error: query.isError ? query.error.message : null };
}
