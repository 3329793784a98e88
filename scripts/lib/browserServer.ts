// One Chromium for one test worker (scripts/test.sh starts one per worker): launched by Playwright with the same
// options a test file would use, kept until this process is told to stop; prints its endpoint on the first line.
import { chromium } from "playwright-core";
import { chromiumLaunchOptions } from "../../e2e/browser";

const server = await chromium.launchServer(chromiumLaunchOptions());
console.log(server.wsEndpoint());
const stop = () => void server.close().finally(() => process.exit(0));
process.on("SIGTERM", stop);
process.on("SIGINT", stop);
