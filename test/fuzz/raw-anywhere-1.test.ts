/** Raw mutations anywhere in the input or its bundle, nothing re-signed (first share). */
import { fuzzBlock, GENERIC, rawProperty } from "./blocks.js";

fuzzBlock("raw mutations anywhere (1)", 1, 0.25, GENERIC, rawProperty);
