/** Raw mutations anywhere in the input or its bundle, nothing re-signed (second share). */
import { fuzzBlock, GENERIC, rawProperty } from "./blocks.js";

fuzzBlock("raw mutations anywhere (2)", 2, 0.25, GENERIC, rawProperty);
