// Runs test/browser/checks.mjs in headless Chromium from a page served on loopback
// (test/browser/serve.mjs). Exits non-zero unless the page checked at least 100 things and
// found no disagreement and no error, with the SIMD128 batch and, in Chromium's newer V8, the
// wasm-scalar kernel (Node 20's tests run wasm-scalar-memory through the same functions).
//   node test/browser/run.mjs   (CHROMIUM: the browser, /usr/bin/chromium by default)
import { open } from "./serve.mjs";

const { browser, page, errors, close } = await open("/pkg/test/browser/index.html");
let failed = true;
try {
  await page.waitForFunction("window.checks !== undefined", { timeout: 120000 });
  const checks = await page.evaluate(() => window.checks);
  console.log(`${await browser.version()}: ${checks.checked} checks, SIMD128 batch ${checks.simd}, ${checks.scalarKernel}, ${checks.failures.length} failures`);
  for (const failure of [...checks.failures, ...errors]) console.log(`  ${failure}`);
  failed = checks.checked < 100 || checks.failures.length > 0 || errors.length > 0 || !checks.simd || checks.scalarKernel !== "wasm-scalar";
} finally {
  await close();
}
process.exit(failed ? 1 : 0);
