import { createBrowserRouter } from "react-router";

import { Layout, RouteError } from "./Layout";

/**
 * Every page has a stable URL under /portal/ and is loaded when first visited (its code and the
 * SDK's write paths stay out of the first load); an error boundary per route.
 */
export function createRouter() {
  return createBrowserRouter(
    [
      {
        path: "/",
        Component: Layout,
        ErrorBoundary: RouteError,
        children: [
          { index: true, lazy: () => import("./routes/home") },
          { path: "developers/keys", lazy: () => import("./routes/api-keys") },
          { path: "developers/webhooks", lazy: () => import("./routes/webhooks") },
          { path: "developers/webhooks/:subscriptionId", lazy: () => import("./routes/webhook") },
          { path: "holders", lazy: () => import("./routes/holder") },
          { path: "holders/providers", lazy: () => import("./routes/providers") },
          { path: "holders/providers/:providerId", lazy: () => import("./routes/provider") },
          { path: "holders/redemptions/:redemptionId", lazy: () => import("./routes/redemption") },
          { path: "markets", lazy: () => import("./routes/markets") },
          { path: "markets/futures", lazy: () => import("./routes/futures") },
          { path: "markets/options", lazy: () => import("./routes/options") },
          { path: "bridge", lazy: () => import("./routes/bridge") },
          { path: "providers", lazy: () => import("./routes/console") },
          { path: "providers/redemptions/:redemptionId", lazy: () => import("./routes/fulfil") },
          { path: "*", lazy: () => import("./routes/not-found") },
        ],
      },
    ],
    { basename: "/portal" },
  );
}
