// PostgreSQL and Redis for one test run (scripts/test.sh starts this once, beside the browsers): started in a
// temporary folder on loopback ports, their addresses printed on the first line, stopped (folder removed)
// when this process is told to stop.
import { startClusterServices } from "../../src/server/testing/clusterServices";

const services = await startClusterServices();
console.log(`postgres=${services.postgresUrl} redis=${services.redisUrl}`);
const stop = () => void services.stop().finally(() => process.exit(0));
process.on("SIGTERM", stop);
process.on("SIGINT", stop);
