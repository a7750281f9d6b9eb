/** Semantic mutations through the re-signing mutator: payload, manifest, capsule, references, keys. */
import { fuzzBlock, SEMANTIC, semanticProperty } from "./blocks.js";

fuzzBlock("semantic mutations, re-signed (2)", 12, 0.1, SEMANTIC, semanticProperty);
