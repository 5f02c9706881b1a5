// Every /threads/{groupId}/… page: a missing thread is a 404 (answered here, outside the segment's loading.tsx
// Suspense boundary, so the status is sent before anything streams).
import { notFound } from "next/navigation";
import type { ReactNode } from "react";
import { threadExists } from "@/lib/traces/service.ts";

// Page params arrive as the raw path segment: "team%20a%2Frun" → "team a/run" (as the pages decode them).
function decodeSegment(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
}

export default async function ThreadLayout({
  children,
  params,
}: {
  children: ReactNode;
  params: Promise<{ groupId: string }>;
}) {
  if (!(await threadExists({ groupId: decodeSegment((await params).groupId) }))) notFound();
  return children;
}
