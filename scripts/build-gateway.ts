// `npm run build:gateway [-- --no-portal]`: the gateway as JavaScript in dist/ (tools/gateway-build.ts).
import { buildGateway } from "../tools/gateway-build.js";

const build = await buildGateway({ portal: !process.argv.includes("--no-portal") });
const kb = (bytes: number) => `${(bytes / 1024).toFixed(0)} kB`;
console.log(
  `Built ${build.entry} in ${(build.ms.total / 1000).toFixed(1)} s (SDK ${(build.ms.sdk / 1000).toFixed(1)} s, ` +
    `gateway ${(build.ms.gateway / 1000).toFixed(1)} s, portal ${(build.ms.portal / 1000).toFixed(1)} s); ` +
    `dist/gateway ${kb(build.bytes.gateway)}, dist ${kb(build.bytes.total)}.\n` +
    `Start: npm run gateway:start -- serve (or node dist/gateway/cli.js serve), settings from the environment (docs/gateway.md).`,
);
