-- CreateIndex
CREATE INDEX "OtelSpan_scopeSha256_idx" ON "OtelSpan"("scopeSha256");
