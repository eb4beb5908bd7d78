import { defineConfig } from "drizzle-kit";

// `npm run gateway:migrations` regenerates gateway/drizzle/ from the schema (no database needed);
// the gateway applies the folder at start on PGlite and PostgreSQL alike.
export default defineConfig({
  dialect: "postgresql",
  schema: "./gateway/store/schema.ts",
  out: "./gateway/drizzle",
});
