// /api/auth/* – sign-in, sign-out and the session (Better Auth), exposed mode only
import { handleAuthRequest } from "@/lib/users/auth-route.ts";

export const dynamic = "force-dynamic";

export const GET = handleAuthRequest;
export const POST = handleAuthRequest;
