/**
 * What the project's code generators share: comparing what a generator makes with the files on disk, and the
 * command line every generator has (`--check` writes nothing and exits 1 naming each stale file; otherwise
 * the files that changed are written and those no input generates any more are removed).
 */
'use strict';
const fs = require('fs');
const path = require('path');

const ROOT = path.join(__dirname, '..');

/** `[file, reason]` for each generated file that is missing or differs, and each orphan (`orphanReason`). */
function staleFiles(files, orphans, orphanReason) {
  const stale = [];
  for (const [file, text] of files) {
    const current = fs.existsSync(file) ? fs.readFileSync(file, 'utf8') : undefined;
    if (current !== text) stale.push([file, current === undefined ? 'missing' : 'differs']);
  }
  for (const file of orphans) stale.push([file, orphanReason]);
  return stale;
}

/**
 * Runs a generator from its command line. `generate()` gives the files (a Map of path to text), `orphans(files)`
 * the generated files on disk that none of them is; `command` is what the user runs to regenerate.
 */
async function runGenerator({ generate, orphans, orphanReason, command }) {
  const files = await generate();
  if (process.argv.includes('--check')) {
    const stale = staleFiles(files, orphans(files), orphanReason);
    for (const [file, reason] of stale) console.error(`${path.relative(ROOT, file)}: ${reason}`);
    if (stale.length > 0) {
      console.error(`Stale generated files: run \`${command}\`.`);
      process.exitCode = 1;
    }
    return;
  }
  for (const [file, text] of files) {
    if (!fs.existsSync(file) || fs.readFileSync(file, 'utf8') !== text) {
      fs.mkdirSync(path.dirname(file), { recursive: true });
      fs.writeFileSync(file, text);
      console.log(`wrote ${path.relative(ROOT, file)}`);
    }
  }
  for (const file of orphans(files)) {
    fs.rmSync(file);
    console.log(`removed ${path.relative(ROOT, file)}`);
  }
}

module.exports = { staleFiles, runGenerator };
