import FlapLinux

// `flapbench`: how fast and how large flapd's parts are on this machine. Kept apart from
// flapctl, which is what an operator needs, so the benchmarks' peers (python3-dbusmock, vesta,
// simulated hardware) never ship with it.
ProcessHeap.keepSlack()
await Flapbench.runMain()
