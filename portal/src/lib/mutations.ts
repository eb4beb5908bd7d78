import { useCallback, useRef } from "react";
import type { MutateOptions, UseMutationResult } from "@tanstack/react-query";

/** The header the gateway deduplicates POSTs by (every POST route honours it). */
export const IDEMPOTENCY_HEADER = "idempotency-key";

function newKey(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  return `portal-${Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("")}`;
}

/**
 * An `Idempotency-Key` per intent: the same request (same body) gets the same key until it
 * succeeds, so a repeat, a double submit or a retry after a lost answer is answered by the
 * gateway with the first request's result instead of making a second key or subscription. After a
 * success the next request gets a new key (the person asked for another).
 */
export function useIdempotencyKey(): { keyFor(request: unknown): string; done(): void } {
  const current = useRef<{ request: string; key: string } | undefined>(undefined);
  return {
    keyFor(request: unknown) {
      const text = JSON.stringify(request ?? null);
      if (current.current?.request !== text) current.current = { request: text, key: newKey() };
      return current.current.key;
    },
    done() {
      current.current = undefined;
    },
  };
}

/**
 * One action per click: `mutate` that drops a call while the previous one runs. A double-click
 * lands both clicks before the button's disabled state renders; the second is ignored here, so a
 * form never sends twice or asks the wallet twice.
 */
export function useSingleFlight<TData, TError, TVariables, TContext>(
  mutation: UseMutationResult<TData, TError, TVariables, TContext>,
): (variables: TVariables, options?: MutateOptions<TData, TError, TVariables, TContext>) => void {
  const running = useRef(false);
  const { mutate } = mutation;
  return useCallback(
    (variables, options) => {
      if (running.current) return;
      running.current = true;
      mutate(variables, {
        ...options,
        onSettled: (...args) => {
          running.current = false;
          options?.onSettled?.(...args);
        },
      });
    },
    [mutate],
  );
}
