import "@testing-library/jest-dom/vitest";
import { cleanup, configure } from "@testing-library/react";
import { afterAll, afterEach, beforeAll, vi } from "vitest";

import { server } from "./server";

// the pages wait on several answers (the gateway, the chain through the wallet): on a busy machine
// that takes more than Testing Library's default second
configure({ asyncUtilTimeout: 5_000 });

// the test files share a jsdom per worker (isolate: false in vitest.config.ts): each starts with the
// storage empty, as a file of its own would
beforeAll(() => {
  localStorage.clear();
  sessionStorage.clear();
});

// a request no handler answers is an error: a page calling a route the test did not expect fails
beforeAll(() => server.listen({ onUnhandledFrame: "error" }));
afterEach(() => {
  cleanup();
  server.resetHandlers();
});
afterAll(() => server.close());

// the pages log the failures they show at debug level (details for developers): not test output
beforeAll(() => {
  vi.spyOn(console, "debug").mockImplementation(() => {});
});
