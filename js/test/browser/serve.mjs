// What the browser test and the browser bench share: a server on loopback (/pkg/ the package
// with its node_modules and src/kernels.js, /kat/ the known answers) and Debian's Chromium,
// headless, driven by puppeteer-core, with a page of the package open. `open(path)` returns
// the page and a `close` that stops both.
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

export async function open(path) {
  const server = createServer(async (request, response) => {
    const url = decodeURIComponent(new URL(request.url, "http://localhost").pathname);
    if (url === "/favicon.ico") {
      response.writeHead(204).end(); // the browser asks for one; the page has none
      return;
    }
    const prefix = Object.keys(roots).find((p) => url.startsWith(p));
    const file = prefix && normalize(join(roots[prefix], url.slice(prefix.length)));
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
  const browser = await puppeteer.launch({
    executablePath: process.env.CHROMIUM ?? "/usr/bin/chromium",
    headless: true,
    // Root runs the tests here: Chromium's sandbox refuses root.
    args: ["--no-sandbox", "--headless=new"],
    // The bench's page runs its cases in one task, minutes on a busy host; puppeteer's
    // default of 180 s for a protocol call would end the run while the page still works.
    protocolTimeout: 600000,
  });
  const page = await browser.newPage();
  const errors = [];
  page.on("pageerror", (error) => errors.push(String(error)));
  page.on("console", (message) => message.type() === "error" && errors.push(message.text()));
  await page.goto(`http://127.0.0.1:${server.address().port}${path}`);
  const close = async () => {
    await browser.close();
    server.close();
  };
  return { browser, page, errors, close };
}
