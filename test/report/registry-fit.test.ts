/**
 * The three formats drop into the renderer registry as they are: each has the registry's
 * `Renderer` signature (checked by the compiler here) and, called through it, writes its format.
 */
import { describe, expect, it } from "vitest";
import type { Renderer } from "../../src/report/index.js";
import { renderGithub } from "../../src/report/github.js";
import { renderHtml } from "../../src/report/html.js";
import { renderJunit } from "../../src/report/junit.js";
import { PLAIN, mixedReport } from "./reports.js";

const FORMATS: Record<"junit" | "github" | "html", Renderer> = {
  junit: renderJunit,
  github: renderGithub,
  html: renderHtml,
};

describe("the formats fit the renderer registry", () => {
  it("each renders through the registry's signature", () => {
    const report = mixedReport();
    expect(FORMATS.junit(report, PLAIN)).toMatch(/^<\?xml version="1\.0" encoding="UTF-8"\?>\n<testsuites /);
    expect(FORMATS.github(report, PLAIN)).toMatch(/^::(error|warning|notice) /);
    expect(FORMATS.html(report, PLAIN)).toMatch(/^<!DOCTYPE html>\n<html lang="en">/);
  });
});
