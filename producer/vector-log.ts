/**
 * Each vector writes to a log of its own, named from the vector's name: the shipped vectors are
 * one consistent world (contract §9.36), so two of them verified together never show one log at
 * one size with two roots. A fork is shown inside the one vector that is about it.
 */
import { sha256Hex, utf8 } from "../src/util/bytes.js";

export function vectorLogId(name: string): string {
  return sha256Hex(utf8(`a2a-evidence producer log/${name}`));
}

/**
 * The Transparency Service a vector registers with: the default service's URL under the vector's
 * name. The vector docs/auditing.md walks through (valid-capture) keeps the plain URL: it is the
 * only one that does, so no other vector shares its service.
 */
export function vectorTransparencyUrl(name: string): string {
  return name === "valid-capture" ? "https://ts.a2a-evidence.example" : `https://ts.a2a-evidence.example/${name}`;
}
