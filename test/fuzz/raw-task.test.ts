/** A2A-shaped raw mutations of the observed Task: artifacts, parts, history, status.message, metadata copies, ids. */
import { fuzzBlock, A2A, rawProperty } from "./blocks.js";

fuzzBlock("A2A-shaped changes to the observed Task", 3, 0.25, A2A, rawProperty);
