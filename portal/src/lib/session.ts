import { queryOptions, useQuery } from "@tanstack/react-query";

import { api, unwrap } from "./api-client";
import type { PortalSession } from "@compute-capacity/sdk";

export type Session = PortalSession;

/** The signed-in session, or null when there is none (a 401 is an answer here, not a failure). */
export const sessionQueryOptions = () =>
  queryOptions({
    queryKey: ["session"],
    queryFn: async (): Promise<Session | null> => {
      const result = await api.GET("/api/v1/session");
      if (result.response.status === 401) return null;
      return unwrap(result);
    },
    staleTime: 60_000,
  });

/** The session (shared by every feature: the signed-in address). */
export function useSession() {
  return useQuery(sessionQueryOptions());
}
