// One contender for the leader election tests, in a process of its own (so a test can SIGKILL it):
// `bun leaderContender.ts <postgres url> <instance id> <checkMs>` prints "<role> <leader id or ->" each time either changes.
import { PgLeaderElection } from "../platform/cluster/election";
import { createLogger } from "../platform/log";

const [url, instanceId, checkMs] = process.argv.slice(2);
if (!url || !instanceId) throw new Error("usage: leaderContender.ts <postgres url> <instance id> [checkMs]");
// Warnings (a leadership lost, and why) go to stderr, which the tests show: stdout carries the role lines only.
const election = new PgLeaderElection(url, { instanceId, checkMs: Number(checkMs ?? 1000), log: createLogger({ level: "warn" }) });
let said = "";
const say = () => {
  const line = `${election.role} ${election.leaderId ?? "-"}`;
  if (line !== said) console.log((said = line));
};
election.onChange(say);
await election.start();
say();
setInterval(say, 20);
process.on("SIGTERM", () => void election.stop().then(() => process.exit(0)));
