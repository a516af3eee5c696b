// `npm start`: build whatever is missing or out of date, then run the appliance.
import { execSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
process.chdir(root);

function newest(dirs) {
  let t = 0;
  const walk = (d) => {
    if (!fs.existsSync(d)) return;
    for (const e of fs.readdirSync(d, { withFileTypes: true })) {
      if (e.name === 'node_modules' || e.name === 'dist') continue;
      const p = path.join(d, e.name);
      if (e.isDirectory()) walk(p);
      else t = Math.max(t, fs.statSync(p).mtimeMs);
    }
  };
  dirs.forEach(walk);
  return t;
}
const mtime = (f) => (fs.existsSync(f) ? fs.statSync(f).mtimeMs : 0);

const serverEntry = 'dist/root/main.js';
if (mtime(serverEntry) < newest(['root', 'core', 'pbx', 'dialogue', 'models', 'contract'])) {
  console.log('Building the server…');
  execSync('npm run build:server', { stdio: 'inherit' });
  fs.utimesSync(serverEntry, new Date(), new Date());
}
if (fs.existsSync('console/index.html') && mtime('console/dist/index.html') < newest(['console', 'contract'])) {
  console.log('Building the console…');
  execSync('npm run build:console', { stdio: 'inherit' });
}
await import(pathToFileURL(path.join(root, serverEntry)).href);
