/** Runs the CLI from source in a real process, with the real standard streams: for output-fault tests. */
import { main } from "../../src/cli/main.js";

process.exitCode = await main(process.argv.slice(2));
