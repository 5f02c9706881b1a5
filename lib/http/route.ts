// Wraps a Next route handler so every failure answers with the one JSON error shape.
import { AppError, toAppError } from "./app-error.ts";

export function errorResponse(error: unknown): Response {
  const appError = toAppError(error);
  if (!(error instanceof AppError)) console.error("[toolscope] unhandled route error", error);
  return Response.json(appError.toBody(), { status: appError.status, headers: { "cache-control": "no-store" } });
}

export function route<Args extends unknown[]>(handler: (request: Request, ...args: Args) => Promise<Response>) {
  return async (request: Request, ...args: Args): Promise<Response> => {
    try {
      return await handler(request, ...args);
    } catch (error) {
      return errorResponse(error);
    }
  };
}

export function json(body: unknown, init: ResponseInit = {}): Response {
  const headers = new Headers(init.headers);
  if (!headers.has("cache-control")) headers.set("cache-control", "no-store");
  return Response.json(body, { ...init, headers });
}
