/** Prisma's unique-constraint violation (P2002), the signal of a lost race on an insert. */
export function isUniqueViolation(error: unknown): boolean {
  return typeof error === "object" && error !== null && (error as { code?: unknown }).code === "P2002";
}
