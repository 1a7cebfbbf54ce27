#!/usr/bin/env node
// Makes the `bin` files of the package in the given folder (default: the repository) executable. The compiler writes
// them 0644; `npm install` would fix the mode, but jsii's runtimes (Python, Java, Go, .NET) run them straight from
// the unpacked tarball, where a 0644 file exits 126 ("Permission denied"). npm pack keeps the mode it finds.
const fs = require('fs');
const path = require('path');

const dir = path.resolve(process.argv[2] ?? path.join(__dirname, '..'));
const { bin = {} } = JSON.parse(fs.readFileSync(path.join(dir, 'package.json'), 'utf8'));
for (const file of Object.values(typeof bin === 'string' ? { main: bin } : bin)) fs.chmodSync(path.join(dir, file), 0o755);
