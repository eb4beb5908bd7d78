import { setupServer } from "msw/node";

/** The tests' one MSW server: every test adds the gateway and chain handlers it needs (`server.use`). */
export const server = setupServer();
