// The bench in headless Chromium (test/browser/serve.mjs): `npm run bench:browser`.
import { open } from "../../test/browser/serve.mjs";

const { browser, page, errors, close } = await open("/pkg/bench/browser/index.html");
try {
  await page.waitForFunction("window.bench !== undefined", { timeout: 600000 });
  console.log(`${await browser.version()}; medians of 11 interleaved repetitions`);
  for (const line of [...(await page.evaluate(() => window.bench)), ...errors]) console.log(line);
} finally {
  await close();
}
