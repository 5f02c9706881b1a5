"use client";
// One hook for every write a form or button makes: react-query's useMutation with the busy flag, the error as the
// sentence the server sent (the one ApiError), the query keys a success makes stale, and a FormError to show it.
// Forms keep their fields; this keeps the request state, so no form hand-rolls busy/error/try/finally again.
import { useMutation, useQueryClient, type QueryKey } from "@tanstack/react-query";
import { ApiError } from "./fetch-json.ts";

type Options<TVariables, TResult> = {
  mutationFn: (variables: TVariables) => Promise<TResult>;
  /** Query keys (or prefixes) a success makes stale; refetched before onSuccess runs. */
  invalidates?: readonly QueryKey[];
  onSuccess?: (result: TResult, variables: TVariables) => void | Promise<void>;
  /**
   * Stay busy after a success: the page is leaving (a full navigation), and the button must not come back to life
   * for a second click in between.
   */
  busyAfterSuccess?: boolean;
  /** Prefix of the error message ("Retry failed: …"); the server's message alone when left out. */
  failurePrefix?: string;
  /** Add the HTTP status to the server's message ("… (HTTP 502)"), where the status tells the person something. */
  withStatus?: boolean;
};

/** The sentence to show for a failed write: the server's message (optionally with its status), else the error's own. */
export function failureMessage(error: unknown, options: { prefix?: string; withStatus?: boolean } = {}): string {
  const text =
    error instanceof ApiError
      ? options.withStatus
        ? `${error.message} (HTTP ${error.status})`
        : error.message
      : error instanceof Error
        ? error.message
        : String(error);
  return options.prefix ? `${options.prefix}: ${text}` : text;
}

export function useApiMutation<TVariables = void, TResult = unknown>(options: Options<TVariables, TResult>) {
  const queryClient = useQueryClient();
  const mutation = useMutation({
    mutationFn: options.mutationFn,
    onSuccess: async (result, variables) => {
      await Promise.all((options.invalidates ?? []).map((queryKey) => queryClient.invalidateQueries({ queryKey })));
      await options.onSuccess?.(result, variables);
    },
  });
  return {
    /** Starts the write; a failure lands in `error`, never as an unhandled rejection. */
    run: (variables: TVariables) => mutation.mutate(variables),
    /** Starts the write and resolves with its answer (or rejects) for callers that chain on it. */
    runAsync: (variables: TVariables) => mutation.mutateAsync(variables),
    busy: mutation.isPending || (options.busyAfterSuccess === true && mutation.isSuccess),
    error: mutation.isError
      ? failureMessage(mutation.error, { prefix: options.failurePrefix, withStatus: options.withStatus })
      : null,
    data: mutation.data,
    reset: mutation.reset,
  };
}

/** The failure of a write, where the person looks (beside the button), announced to screen readers. */
export function FormError({ error, testId }: { error: string | null; testId?: string }) {
  if (error === null) return null;
  return (
    <p className="notice notice-bad" role="alert" data-testid={testId}>
      {error}
    </p>
  );
}
