// Browser tests use Debian's Chromium when installed; otherwise Playwright's own (downloaded once).
import { execSync } from 'node:child_process';
import { existsSync } from 'node:fs';

if (!existsSync('/usr/bin/chromium')) {
  console.log('No /usr/bin/chromium: installing Playwright Chromium (one-time download)…');
  execSync('npx playwright install chromium', { stdio: 'inherit' });
}
