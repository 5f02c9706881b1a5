-- DropIndex
DROP INDEX "ToolCall_toolName_idx";

-- DropIndex
DROP INDEX "ToolResult_toolCallId_contentSha256_idx";

-- DropIndex
DROP INDEX "ToolResult_nextAction_idx";

-- DropIndex
DROP INDEX "ToolResult_errorType_idx";

-- DropIndex
DROP INDEX "ToolResult_envelopeKind_idx";
