/** Stream inputs changed event by event: dropped, repeated, reordered, cut short, or one event's JSON changed. */
import { fuzzBlock } from "./blocks.js";
import { STREAM_PLAN, streamProperty } from "./stream.js";

fuzzBlock("stream events", 21, 0.05, STREAM_PLAN, streamProperty);
