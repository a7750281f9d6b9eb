#!/usr/bin/env node
// The GitHub Action's step (action.yml): verifies once, writing the JSON report, then writes from
// that report the annotations and the job summary (merge --format github), the JUnit file (merge
// --format junit) and the step's outputs (exit code and counts, to $GITHUB_OUTPUT), and exits
// with the run's exit code, so the step fails unless the policy holds. It runs the CLI of the
// action's own checkout (bin/ beside this file): the action's version is the verifier's.
//
// Its inputs are the INPUT_* variables action.yml sets: INPUT_PATHS (one per line), INPUT_TRUST,
// INPUT_REQUIRE, INPUT_MIN_EVIDENCE, INPUT_SHARD, INPUT_JUNIT, INPUT_JSON, and INPUT_MERGE: the
// JSON reports of a run's shards (files or folders of *.json, one per line) to merge instead of
// verifying; the same views and outputs are then those of the whole run.
import { spawnSync } from "node:child_process";
import { appendFileSync, existsSync, readFileSync, readdirSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const CLI = join(dirname(fileURLToPath(import.meta.url)), "..", "bin", "a2a-evidence.cjs");
const env = process.env;
const input = (name) => (env[`INPUT_${name}`] ?? "").trim();

/** One line of the log the runner shows as an error annotation. */
function fail(message) {
  process.stdout.write(`::error title=a2a-evidence::${message.replace(/%/g, "%25").replace(/\r?\n/g, "%0A")}\n`);
}

/** The verify command's arguments from the action's inputs. */
function verifyArgs(json) {
  const args = ["verify", "--format", "json", "-o", json];
  for (const [flag, name] of [
    ["--trust", "TRUST"],
    ["--require", "REQUIRE"],
    ["--min-evidence", "MIN_EVIDENCE"],
    ["--shard", "SHARD"],
  ]) {
    if (input(name) !== "") args.push(flag, input(name));
  }
  const paths = lines("PATHS");
  return paths.length === 0 ? undefined : [...args, "--", ...paths];
}

/** An input's lines, blank ones and those starting with '#' left out. */
function lines(name) {
  return input(name)
    .split(/\r?\n/)
    .map((p) => p.trim())
    .filter((p) => p !== "" && !p.startsWith("#"));
}

/** The merge command's arguments: each folder named stands for its *.json files, in name order. */
function mergeArgs(json) {
  const reports = lines("MERGE").flatMap((p) =>
    existsSync(p) && statSync(p).isDirectory()
      ? readdirSync(p)
          .filter((f) => f.endsWith(".json"))
          .sort()
          .map((f) => join(p, f))
      : [p],
  );
  return reports.length === 0 ? undefined : ["merge", "--format", "json", "-o", json, "--", ...reports];
}

function cli(args) {
  const r = spawnSync(process.execPath, [CLI, ...args], { stdio: ["ignore", "inherit", "inherit"] });
  return r.status ?? 2;
}

/** The counts of the report's inputs by exit code; zeros when there is no report. */
function counts(json) {
  const byExit = { 0: 0, 1: 0, 2: 0, 3: 0 };
  let inputs = 0;
  if (existsSync(json)) {
    for (const i of JSON.parse(readFileSync(json, "utf8")).inputs) {
      byExit[i.exitCode]++;
      inputs++;
    }
  }
  return { inputs, passed: byExit[0], failed: byExit[1], "not-verified": byExit[2], "policy-not-met": byExit[3] };
}

function output(values) {
  const lines = Object.entries(values).map(([k, v]) => `${k}=${String(v).replace(/[\r\n]/g, " ")}\n`);
  if (env.GITHUB_OUTPUT) appendFileSync(env.GITHUB_OUTPUT, lines.join(""));
}

function main() {
  const json = input("JSON") || join(env.RUNNER_TEMP || tmpdir(), `a2a-evidence-report-${process.pid}.json`);
  const junit = input("JUNIT");
  const merging = input("MERGE") !== "";
  const args = merging ? mergeArgs(json) : verifyArgs(json);
  if (!args) {
    fail(merging ? "the merge input names no report" : "the paths input names no input");
    output({ "exit-code": 2, ...counts(""), report: "", junit: "" });
    return 2;
  }
  const code = cli(args);
  const written = existsSync(json);
  if (written) {
    // The report just written, read back: one verification, every view of it.
    cli(["merge", "--format", "github", json]);
    if (junit !== "") cli(["merge", "--format", "junit", "-o", junit, json]);
  } else {
    fail(`nothing verified (exit ${code}): see the messages above`);
    if (env.GITHUB_STEP_SUMMARY)
      appendFileSync(
        env.GITHUB_STEP_SUMMARY,
        `### a2a-evidence\n\nNothing verified (exit ${code}): see the step's log.\n`,
      );
  }
  output({
    "exit-code": code,
    ...counts(written ? json : ""),
    report: written ? json : "",
    junit: written && junit !== "" && existsSync(junit) ? junit : "",
  });
  return code;
}

process.exitCode = main();
