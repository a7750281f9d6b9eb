// Preloaded (`node --require`) into a measured Node process when python3 (for bench/wait4.py) is missing:
// writes the process's own rusage as it exits. It misses only the teardown after the 'exit'
// handlers, the same few microseconds for every command, the baseline included.
"use strict";
const { writeFileSync } = process.getBuiltinModule("node:fs");
const out = process.env.A2A_EVIDENCE_BENCH_RUSAGE;
if (out) {
  process.on("exit", (code) => {
    const u = process.resourceUsage();
    writeFileSync(out, JSON.stringify({ code, userUs: u.userCPUTime, sysUs: u.systemCPUTime, maxRssKb: u.maxRSS }));
  });
}
