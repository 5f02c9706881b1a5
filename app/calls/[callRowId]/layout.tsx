// /calls/{id}: a malformed or missing call is a 404 (answered here, outside the segment's loading.tsx Suspense
// boundary, so the status is sent before anything streams).
import { notFound } from "next/navigation";
import type { ReactNode } from "react";
import { rowIdSchema } from "@/lib/calls/schemas.ts";
import { callExists } from "@/lib/traces/service.ts";

export default async function CallLayout({
  children,
  params,
}: {
  children: ReactNode;
  params: Promise<{ callRowId: string }>;
}) {
  const parsed = rowIdSchema.safeParse((await params).callRowId);
  if (!parsed.success || !(await callExists({ callRowId: parsed.data }))) notFound();
  return children;
}
