// Runs test/browser/checks.mjs in headless Chromium (Debian's, driven by puppeteer-core at
// the lockfile's version) from a page served on loopback: /pkg/ is the package (with its
// node_modules and src/kernels.js), /kat/ the known answers. Exits non-zero unless the page
// checked something and found no disagreement.
//   node test/browser/run.mjs   (CHROMIUM: the browser, /usr/bin/chromium by default)
import { createServer } from "node:http";
import { readFile } from "node:fs/promises";
import { dirname, extname, join, normalize } from "node:path";
import { fileURLToPath } from "node:url";
import puppeteer from "puppeteer-core";

const here = dirname(fileURLToPath(import.meta.url));
const pkg = join(here, "..", "..");
const kat = process.env.SPONGE_KAT_DIR ?? join(pkg, "..", "tests", "kat");
const types = { ".html": "text/html", ".js": "text/javascript", ".mjs": "text/javascript", ".txt": "text/plain", ".json": "application/json" };
const roots = { "/pkg/": pkg, "/kat/": kat };

const server = createServer(async (request, response) => {
  const path = decodeURIComponent(new URL(request.url, "http://localhost").pathname);
  if (path === "/favicon.ico") {
    response.writeHead(204).end(); // the browser asks for one; the page has none
    return;
  }
  const prefix = Object.keys(roots).find((p) => path.startsWith(p));
  const file = prefix && normalize(join(roots[prefix], path.slice(prefix.length)));
  if (!file || !file.startsWith(roots[prefix])) {
    response.writeHead(404).end();
    return;
  }
  try {
    const body = await readFile(file);
    response.writeHead(200, { "content-type": types[extname(file)] ?? "application/octet-stream" }).end(body);
  } catch {
    response.writeHead(404).end();
  }
});
await new Promise((resolve) => server.listen(0, "127.0.0.1", resolve));
const url = `http://127.0.0.1:${server.address().port}/pkg/test/browser/index.html`;
const browser = await puppeteer.launch({
  executablePath: process.env.CHROMIUM ?? "/usr/bin/chromium",
  headless: true,
  // Root runs the tests here: Chromium's sandbox refuses root.
  args: ["--no-sandbox", "--headless=new"],
});
let failed = true;
try {
  const page = await browser.newPage();
  const errors = [];
  page.on("pageerror", (error) => errors.push(String(error)));
  page.on("console", (message) => message.type() === "error" && errors.push(message.text()));
  await page.goto(url);
  await page.waitForFunction("window.checks !== undefined", { timeout: 120000 });
  const checks = await page.evaluate(() => window.checks);
  const version = await browser.version();
  console.log(`${version}: ${checks.checked} checks, SIMD128 batch ${checks.simd}, ${checks.failures.length} failures`);
  for (const failure of [...checks.failures, ...errors]) console.log(`  ${failure}`);
  failed = checks.checked < 100 || checks.failures.length > 0 || errors.length > 0 || !checks.simd;
} finally {
  await browser.close();
  server.close();
}
process.exit(failed ? 1 : 0);
