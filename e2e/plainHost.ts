// A static host that sends no headers of its own, like GitHub Pages: dist/ served from a project
// folder (/percpu-lab/), with content types and nothing else. The service-worker fallback's
// end-to-end test runs against it (playwright.config.ts starts it).
import { readFile } from 'node:fs/promises';
import { createServer } from 'node:http';
import { extname, join, normalize } from 'node:path';

export const PLAIN_PORT = Number(process.env.E2E_PORT ?? 4173) + 1;
export const PLAIN_FOLDER = '/percpu-lab/';

const root = join(import.meta.dirname, '..', 'dist');
const types: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript',
  '.css': 'text/css',
  '.svg': 'image/svg+xml',
};

// Run directly (not when a spec imports the constants above).
if (process.argv[1] === import.meta.filename) {
  createServer((req, res) => {
    const path = new URL(req.url ?? '/', 'http://host').pathname;
    if (!path.startsWith(PLAIN_FOLDER)) {
      res.writeHead(404).end('not found');
      return;
    }
    const rel = normalize(path.slice(PLAIN_FOLDER.length) || 'index.html');
    if (rel.startsWith('..')) {
      res.writeHead(403).end();
      return;
    }
    readFile(join(root, rel)).then(
      (body) => {
        res.writeHead(200, { 'Content-Type': types[extname(rel)] ?? 'application/octet-stream' });
        res.end(body);
      },
      () => res.writeHead(404).end('not found'),
    );
  }).listen(PLAIN_PORT);
}
