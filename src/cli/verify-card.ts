/**
 * `a2a-evidence verify-card <card.json>`: an Agent Card's JWS signatures checked against the keys
 * the trust file's `agents` section pins for that card, naming the canonicalization each match
 * was made over, and flagging an evidence-extension declaration whose params contradict the
 * profile. Offline: `jku` is reported, never fetched. Exit codes follow `verify`: 0 a pinned key
 * verified a signature and none fails; 1 a signature fails (or, with --strict, the extension
 * params are inconsistent); 2 could not run; 3 nothing fails but no pinned key verified.
 */
import { writeFileSync } from "node:fs";
import { type Command, Option } from "commander";
import { resolveTrust } from "../trust/config.js";
import { CANONICALIZATIONS, type Canonicalization } from "../card/canonicalize.js";
import { verifyCard, type CardReport, type SignatureResult } from "../card/verify.js";
import { TOOL_VERSION } from "../version.js";
import { printable, printableJson } from "../util/printable.js";
import { onlyOnce, overwriteMessage, readFileAt, UsageError, wrapHelp, type CliIo, type CommandContext } from "./io.js";
import { readInput } from "./read.js";
import { failureLine, nameOf, trustFileName, unreadableLine } from "./error-summary.js";
import { cannotWriteLine } from "./sink.js";

interface VerifyCardFlags {
  trust?: string;
  cardUrl?: string;
  canon?: Canonicalization;
  format: "text" | "json";
  output?: string;
  quiet?: boolean;
  strict?: boolean;
}

const MAX_LISTED = 20;
const SYMBOL: Record<SignatureResult["state"], string> = { PASS: "✔", FAIL: "✘", INCONCLUSIVE: "?" };

function capped(items: readonly string[]): string {
  const shown = items.slice(0, MAX_LISTED).join(", ");
  return items.length > MAX_LISTED ? `${shown} and ${items.length - MAX_LISTED} more` : shown;
}

function exitLine(code: number, report: CardReport): string {
  if (code === 1 && report.exitCode !== 1) return "exit 1: the evidence extension's params are inconsistent (--strict)";
  if (code === 1) return "exit 1: a signature fails";
  if (code === 0) return "exit 0: a pinned key verified the card";
  return `exit 3: nothing fails, but no pinned key verified ${report.signatures.length === 0 ? "anything (the card is unsigned)" : "a signature"}`;
}

function renderText(source: string, report: CardReport, code: number): string {
  const lines: string[] = [];
  const n = report.signatures.length;
  lines.push(
    `Agent Card ${report.name !== null ? JSON.stringify(report.name) : "(no name)"} (${source}): ${n} signature${n === 1 ? "" : "s"}; trust entries: ${report.agents.length > 0 ? report.agents.join(", ") : "none for this card"}`,
  );
  for (const s of report.signatures) {
    const what = [s.alg, s.kid !== undefined ? `kid ${s.kid}` : undefined].filter((x) => x !== undefined).join(" ");
    const also = s.alsoMatches && s.alsoMatches.length > 0 ? ` (also matches: ${s.alsoMatches.join(", ")})` : "";
    lines.push(
      `  ${SYMBOL[s.state]} signatures[${s.index}] ${s.state}${what ? ` ${what}` : ""} [${s.check}]: ${s.detail}${also}`,
    );
    if (s.notCovered) lines.push(`      not covered by this signature: ${capped(s.notCovered)}`);
    if (s.jku !== undefined) lines.push(`      jku ${s.jku} (reported, not fetched)`);
    for (const w of s.warnings) lines.push(`      warning: ${w}`);
  }
  if (report.unknownFields.length > 0)
    lines.push(`  unknown to the v1.0 model (covered only under served-scope): ${capped(report.unknownFields)}`);
  const ext = report.extension;
  if (ext.declaredAt.length > 0) {
    lines.push(
      `  evidence extension declared at ${ext.declaredAt.join(", ")}: ${ext.findings.length === 0 ? "params consistent with the profile" : `${ext.findings.length} inconsistent`}`,
    );
    for (const f of ext.findings.slice(0, MAX_LISTED)) lines.push(`    ⚠ ${f.path}: ${f.detail}`);
    if (ext.findings.length > MAX_LISTED) lines.push(`    … and ${ext.findings.length - MAX_LISTED} more`);
  }
  lines.push(exitLine(code, report));
  // The card's text (name, kid, jku, member names, paths) is the agent's: each line reaches the
  // terminal with its control characters, line breaks and bidi overrides written as \uXXXX.
  return `${lines.map(printable).join("\n")}\n`;
}

async function runVerifyCard(path: string, flags: VerifyCardFlags, io: CliIo): Promise<number> {
  /** A file's own error on stderr, as verify says it. */
  const say = (line: string) => {
    io.stderr(line);
    return 2;
  };
  const trustPath = flags.trust ?? (io.env.A2A_EVIDENCE_TRUST || undefined);
  // One standard input holds one file: the card and the trust file cannot both be read from it.
  if (path === "-" && trustPath === "-") throw new UsageError("standard input ('-') can be given only once");
  const clobbered = flags.output === undefined ? undefined : readFileAt(flags.output, [path, trustPath]);
  if (clobbered !== undefined && flags.output !== undefined)
    throw new UsageError(overwriteMessage("-o", flags.output, clobbered));
  let trust;
  if (trustPath !== undefined) {
    const bytes = await readInput(trustPath);
    if (!bytes.ok) return say(unreadableLine(trustFileName(trustPath), bytes.reason));
    const t = resolveTrust(bytes.bytes);
    if (!t.ok) return say(failureLine(trustFileName(trustPath), t));
    trust = t.value;
  }
  const source = nameOf(path);
  const card = await readInput(path);
  if (!card.ok) return say(unreadableLine(source, card.reason));
  const r = await verifyCard(card.bytes, trust, {
    ...(flags.cardUrl !== undefined ? { cardUrl: flags.cardUrl } : {}),
    ...(flags.canon !== undefined ? { canonicalization: flags.canon } : {}),
  });
  if (!r.ok) return say(failureLine(source, r));
  const report = r.value;
  const code = flags.strict && report.extension.findings.length > 0 && report.exitCode !== 1 ? 1 : report.exitCode;
  if (!flags.quiet) {
    const text =
      flags.format === "json"
        ? `${printableJson(JSON.stringify({ reportVersion: 1, tool: { name: "a2a-evidence", version: TOOL_VERSION }, source, ...report, exitCode: code }, null, 2))}\n`
        : renderText(source, report, code);
    if (flags.output !== undefined) {
      try {
        writeFileSync(flags.output, text);
      } catch (e) {
        return say(cannotWriteLine(flags.output, e));
      }
    } else io.stdout(text);
  }
  return code;
}

/** Adds `verify-card` to the program; its exit code goes to `ctx.setExit`. */
export function registerVerifyCardCommand(program: Command, ctx: CommandContext): Command {
  const command = program
    .command("verify-card")
    .summary("verify a signed Agent Card against pinned keys")
    .description(
      "verify an Agent Card's signatures against the keys the trust file pins for it (offline; names the canonicalization that matched)",
    )
    .argument("<card>", "the Agent Card JSON file ('-' for standard input)")
    .option("--trust <file>", "trust configuration with an agents section (env A2A_EVIDENCE_TRUST)")
    .option("--card-url <url>", "the URL the card was fetched from, to match a trust entry named by URL")
    .addOption(
      new Option("--canon <canonicalization>", "try only this canonicalization").choices([...CANONICALIZATIONS]),
    )
    .addOption(new Option("--format <format>", "report format").choices(["text", "json"]).default("text"))
    .option("-o, --output <file>", "write the report to a file instead of stdout")
    .option("-q, --quiet", "no report, exit code only")
    .option("--strict", "inconsistent evidence-extension params exit 1")
    .addHelpText(
      "after",
      wrapHelp(
        "\nExit codes: 0 a pinned key verified a signature, none fails · 1 a signature fails · 2 could not run (unreadable or malformed card, invalid trust file) · 3 nothing fails but no pinned key verified (unsigned card, unknown key)",
      ),
    )
    .action(async (card: string, flags: VerifyCardFlags) => {
      ctx.setExit(await runVerifyCard(card, flags, ctx.io));
    });
  // A second --trust or --card-url would silently replace the first, and with it the keys pinned.
  onlyOnce(command, ["--trust", "--card-url", "--canon", "--format", "--output"]);
  return command;
}
