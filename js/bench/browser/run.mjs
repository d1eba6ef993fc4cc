// The bench in headless Chromium (test/browser/serve.mjs): `npm run bench:browser`.
import { open } from "../../test/browser/serve.mjs";

const { browser, page, errors, close } = await open("/pkg/bench/browser/index.html");
try {
  // A page whose module fails to load never sets window.bench: stop at its first error.
  const deadline = Date.now() + 600000;
  while (!(await page.evaluate(() => window.bench !== undefined))) {
    if (errors.length > 0) throw new Error(`the bench page failed: ${errors.join("\n")}`);
    if (Date.now() > deadline) throw new Error("the bench page did not finish in 10 minutes");
    await new Promise((resolve) => setTimeout(resolve, 1000));
  }
  console.log(await browser.version());
  for (const line of [...(await page.evaluate(() => window.bench)), ...errors]) console.log(line);
} finally {
  await close();
}
