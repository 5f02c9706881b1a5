-- CreateIndex
CREATE INDEX "ToolCall_threadId_status_resultCount_idx" ON "ToolCall"("threadId", "status", "resultCount");

-- CreateIndex
CREATE INDEX "Event_threadId_kind_id_idx" ON "Event"("threadId", "kind", "id");
