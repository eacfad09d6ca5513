import { startRoundRobin, type RoundRobin } from "../test/support/round-robin.ts";

// bench/replicas.ts's load balancers, one keep-alive round robin per tier, in a process of their
// own so that their CPU time is counted apart from the services' and autocannon's.
// argv[2]: {"<tier>": [replica ports]}; prints {"<tier>": "http://127.0.0.1:<port>"} once
// listening, and on SIGTERM closes them and prints {"<tier>": 502s answered}.

const tiers = JSON.parse(process.argv[2]!) as Record<string, number[]>;
const balancers: Record<string, RoundRobin> = {};
for (const [tier, ports] of Object.entries(tiers)) balancers[tier] = await startRoundRobin(ports, { keepAlive: true });
process.stdout.write(`${JSON.stringify(Object.fromEntries(Object.entries(balancers).map(([tier, b]) => [tier, b.url])))}\n`);
process.once("SIGTERM", async () => {
  await Promise.all(Object.values(balancers).map((b) => b.close()));
  process.stdout.write(`${JSON.stringify(Object.fromEntries(Object.entries(balancers).map(([tier, b]) => [tier, b.badGateway])))}\n`);
  process.exit(0);
});
