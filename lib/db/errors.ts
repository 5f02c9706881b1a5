// Recognises database errors that callers handle as part of normal flow.

/** A unique constraint rejected the write (Prisma P2002): another writer got there first. */
export function isUniqueViolation(error: unknown): boolean {
  return typeof error === "object" && error !== null && "code" in error && error.code === "P2002";
}
