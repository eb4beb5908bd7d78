// `npm run provider -- serve | status`: the provider agent (provider/). Thin: the logic is in provider/.
import { providerMain } from "../provider/cli.js";

process.exitCode = await providerMain(process.argv.slice(2));
