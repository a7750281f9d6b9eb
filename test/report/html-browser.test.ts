/**
 * The HTML report as a person sees it: opened from file:// in headless Chromium with JavaScript
 * turned off. Every property row must read right, nothing may be requested from anywhere, the
 * style block must survive the page's own Content-Security-Policy, the page must print, and a
 * screenshot must show something.
 */
import { existsSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { chromium, type BrowserContext, type Page } from "playwright-core";
import { PNG } from "pngjs";
import { renderHtml } from "../../src/report/html.js";
import { PROPERTY_NAMES, type Report, type State } from "../../src/report/model.js";
import { visible } from "../../src/report/untrusted.js";
import {
  BATCH_SOURCES,
  HOSTILE,
  PLAIN,
  VECTOR_NAMES,
  batchReport,
  expectedOf,
  hostileReport,
  label,
  onlyVerified,
  vectorReport,
} from "./reports.js";

// The callbacks given to evaluate() run in the page; these are the few DOM names they use (the
// project compiles without the DOM library).
interface PageElement {
  readonly attributes: Iterable<{ readonly name: string }>;
}
declare const document: {
  readonly scripts: { readonly length: number };
  readonly images: { readonly length: number };
  readonly title: string;
  querySelectorAll(selector: string): Iterable<PageElement> & { readonly length: number };
};
declare function getComputedStyle(e: unknown): {
  readonly backgroundColor: string;
  readonly color: string;
  readonly visibility: string;
  readonly position: string;
};

const CHROMIUM = "/usr/bin/chromium";
const HAS_CHROMIUM = existsSync(CHROMIUM);
if (!HAS_CHROMIUM) {
  process.stderr.write(
    `SKIPPED: html report in a real browser: ${CHROMIUM} is absent (Debian package chromium; .ci/run installs it with apt when it can)\n`,
  );
}

const ARGS = [
  "--headless",
  "--no-sandbox",
  "--disable-gpu",
  "--disable-quic",
  "--no-first-run",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
];

const SYMBOL: Record<State, string> = { PASS: "✔", FAIL: "✘", INCONCLUSIVE: "?", NOT_CHECKED: "–", NOT_PRESENT: "○" };

describe.skipIf(!HAS_CHROMIUM)("html: in headless Chromium", () => {
  const dirs: string[] = [];
  const contexts: BrowserContext[] = [];
  const requested: string[] = [];
  const consoleErrors: string[] = [];
  // Without its CSP, so that anything the page would fetch shows up as a request.
  let open: BrowserContext;
  // With its CSP, as a reader opens it.
  let strict: BrowserContext;

  function tempDir(): string {
    const d = mkdtempSync(join(tmpdir(), "a2a-evidence-html-"));
    dirs.push(d);
    return d;
  }

  async function launch(bypassCSP: boolean): Promise<BrowserContext> {
    const context = await chromium.launchPersistentContext(tempDir(), {
      executablePath: CHROMIUM,
      headless: true,
      args: ARGS,
      javaScriptEnabled: false,
      bypassCSP,
      viewport: { width: 1100, height: 900 },
    });
    contexts.push(context);
    context.on("request", (r) => requested.push(r.url()));
    return context;
  }

  async function show(context: BrowserContext, report: Report, name: string): Promise<{ page: Page; url: string }> {
    const file = join(tempDir(), `${name}.html`);
    writeFileSync(file, renderHtml(report, PLAIN));
    const url = pathToFileURL(file).href;
    const page = await context.newPage();
    page.on("console", (m) => {
      if (m.type() === "error" || m.type() === "warning") consoleErrors.push(`${name}: ${m.text()}`);
    });
    requested.length = 0;
    await page.goto(url, { waitUntil: "load" });
    return { page, url };
  }

  beforeAll(async () => {
    open = await launch(true);
    strict = await launch(false);
  });

  afterAll(async () => {
    for (const c of contexts) await c.close();
    for (const d of dirs) rmSync(d, { recursive: true, force: true });
  });

  it("every property row of every shipped vector shows its name, state and detail, and nothing is requested", async () => {
    for (const name of VECTOR_NAMES) {
      const expected = expectedOf(name);
      const report = vectorReport(name);
      const input = onlyVerified(report);
      const { page, url } = await show(open, report, name);
      const rows = page.locator("#input-1 tr[data-property]");
      expect(await rows.evaluateAll((els) => els.map((e) => e.getAttribute("data-property")))).toEqual([
        ...PROPERTY_NAMES,
      ]);
      const texts = await rows.allInnerTexts();
      PROPERTY_NAMES.forEach((p, i) => {
        const state = expected.properties[p];
        expect(texts[i]?.split("\t"), `${name} ${p}`).toEqual([
          label(p),
          `${SYMBOL[state]} ${state}`,
          input.properties[p].detail,
        ]);
      });
      // Laid out and on screen, not hidden by the style.
      expect(
        await rows.evaluateAll((els) =>
          els.every((e) => e.getBoundingClientRect().height > 0 && getComputedStyle(e).visibility === "visible"),
        ),
      ).toBe(true);
      const policy = await page.locator("#input-1 .banner").first().innerText();
      expect(policy).toMatch(new RegExp(`^Exit ${expected.exitCode}: `));
      expect(requested, name).toEqual([url]);
      await page.close();
    }
  });

  it("under its own CSP the style applies, with no violation reported; the screenshot is not blank; it prints", async () => {
    consoleErrors.length = 0;
    const { page, url } = await show(strict, vectorReport("neg-taskBinding-artifact-commitment"), "styled");
    const background = (sel: string): Promise<string> =>
      page
        .locator(sel)
        .first()
        .evaluate((e) => getComputedStyle(e).backgroundColor);
    expect(await background(".badge.PASS")).toBe("rgb(23, 105, 47)");
    expect(await background(".badge.FAIL")).toBe("rgb(179, 22, 27)");
    expect(await background("th")).toBe("rgb(244, 245, 247)");
    expect(await page.evaluate(() => document.scripts.length)).toBe(0);

    const png = PNG.sync.read(await page.screenshot({ fullPage: true }));
    expect(png.width).toBe(1100);
    expect(png.height).toBeGreaterThan(900);
    const { stddev, colours } = pixelStats(png);
    expect(stddev).toBeGreaterThan(20);
    expect(colours).toBeGreaterThan(50);

    await page.emulateMedia({ media: "print" });
    expect(
      await page
        .locator(".badge.FAIL")
        .first()
        .evaluate((e) => getComputedStyle(e).color),
    ).toBe("rgb(0, 0, 0)");
    const pdf = await page.pdf({ format: "A4" });
    expect(pdf.subarray(0, 5).toString("latin1")).toBe("%PDF-");
    expect(pdf.length).toBeGreaterThan(20000);

    expect(consoleErrors).toEqual([]);
    expect(requested).toEqual([url]);
    await page.close();
  });

  it("a page over five inputs: the FAIL row of its table of inputs is above the fold at 1280×900, and the summary line stays on screen", async () => {
    consoleErrors.length = 0;
    const { page, url } = await show(strict, batchReport(), "batch");
    await page.setViewportSize({ width: 1280, height: 900 });
    const failRow = page.locator("table.inputs tr.exit-1");
    expect(await failRow.count()).toBe(1);
    expect(await failRow.locator("a").innerText()).toBe(BATCH_SOURCES[4]);
    const box = await failRow.boundingBox();
    expect(box).not.toBeNull();
    const { x, y, width, height } = box as { x: number; y: number; width: number; height: number };
    expect(height).toBeGreaterThan(0);
    expect(x).toBeGreaterThanOrEqual(0);
    expect(x + width).toBeLessThanOrEqual(1280);
    expect(y).toBeGreaterThanOrEqual(0);
    expect(y + height).toBeLessThanOrEqual(900);
    // Far below it, the FAIL's own section: the table is what puts it in view.
    const section = (await page.locator("#input-5").boundingBox()) as { y: number };
    expect(section.y).toBeGreaterThan(900);
    // The page's own style applies under its CSP: the summary line is sticky.
    const sticky = page.locator("div.sticky");
    expect(await sticky.evaluate((e) => getComputedStyle(e).position)).toBe("sticky");
    expect(await sticky.innerText()).toMatch(
      /^Exit 1, the worst of 5 inputs · exit 1: 1 · exit 2: 1 · exit 3: 2 · exit 0: 1 · all inputs · first exit 1: /,
    );

    const png = PNG.sync.read(await page.screenshot());
    expect([png.width, png.height]).toEqual([1280, 900]);
    const { stddev, colours } = pixelStats(png);
    expect(stddev).toBeGreaterThan(20);
    expect(colours).toBeGreaterThan(50);

    // Following the row's link scrolls to the FAIL's section; the summary line is still at the top.
    await failRow.locator("a").click();
    expect(page.url()).toBe(`${url}#input-5`);
    const scrolled = (await sticky.boundingBox()) as { y: number; height: number };
    expect(scrolled.y).toBe(0);
    const heading = (await page.locator("#input-5 h2").boundingBox()) as { y: number; height: number };
    expect(heading.y).toBeGreaterThanOrEqual(scrolled.height);
    expect(heading.y + heading.height).toBeLessThanOrEqual(900);
    expect(consoleErrors).toEqual([]);
    expect(requested).toEqual([url]);
    await page.close();
  });

  it("a hostile report is only text: no script, image or handler, nothing fetched even without the CSP", async () => {
    const { page, url } = await show(open, hostileReport(["continuity"]), "hostile");
    const counts = await page.evaluate(() => ({
      scripts: document.scripts.length,
      images: document.images.length,
      styles: document.querySelectorAll("style").length,
      handlers: [...document.querySelectorAll("*")].filter((e) =>
        [...e.attributes].some((a) => a.name.startsWith("on")),
      ).length,
      title: document.title,
    }));
    expect(counts).toEqual({ scripts: 0, images: 0, styles: 1, handlers: 0, title: "a2a-evidence report" });
    const detail = await page.locator(`#input-1 tr[data-property="taskBinding"] td.detail`).innerText();
    expect(detail).toBe(visible(HOSTILE, "\t\n"));
    expect(detail).toContain(
      `<script>alert(1)</script></style></title><img src=x onerror=alert(1)>" onmouseover="alert(2)'`,
    );
    // A heading collapses white space, as HTML does.
    expect(await page.locator("#input-1 h2").innerText()).toBe(
      `task${visible(HOSTILE, "\t\n").replace(/\s+/g, " ")}.json`,
    );
    // So does the table of inputs, whose link is the same text.
    expect(await page.locator('table.inputs a[href="#input-1"]').innerText()).toBe(
      `task${visible(HOSTILE, "\t\n").replace(/\s+/g, " ")}.json`,
    );
    expect(requested).toEqual([url]);
    await page.close();
  });
});

/** Luminance spread and the number of distinct colours: a blank or single-colour page has neither. */
function pixelStats(png: PNG): { stddev: number; colours: number } {
  let sum = 0;
  let sumSq = 0;
  const colours = new Set<number>();
  const n = png.width * png.height;
  for (let i = 0; i < n; i++) {
    const r = png.data[i * 4] as number;
    const g = png.data[i * 4 + 1] as number;
    const b = png.data[i * 4 + 2] as number;
    const y = 0.2126 * r + 0.7152 * g + 0.0722 * b;
    sum += y;
    sumSq += y * y;
    if (colours.size <= 1000) colours.add((r << 16) | (g << 8) | b);
  }
  const mean = sum / n;
  return { stddev: Math.sqrt(sumSq / n - mean * mean), colours: colours.size };
}
