// npm run deploy:headers: writes public/_headers and vercel.json from deploy/headers.ts.

import { writeFileSync } from 'node:fs';
import { netlifyHeaders, vercelConfig } from './headers.ts';

writeFileSync('public/_headers', netlifyHeaders());
writeFileSync('vercel.json', `${JSON.stringify(vercelConfig(), null, 2)}\n`);
console.log('wrote public/_headers and vercel.json');
