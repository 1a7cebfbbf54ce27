#!/usr/bin/env node
/**
 * Run first by `npm run demo` and `npm test`: on a Node.js older than package.json's `engines.node`, say so at
 * once, before a build that would take half a minute and then fail farther from the cause. Plain JavaScript,
 * nothing to build; the oldest syntax any Node.js runs.
 */
'use strict';
var engines = require('../package.json').engines.node; // ">=22"
var needed = Number(/\d+/.exec(engines)[0]);
var running = Number(process.versions.node.split('.')[0]);
if (running < needed) {
  process.stderr.write(
    'cdktf-google-iam needs Node.js ' +
      needed +
      ' or newer (package.json engines: ' +
      engines +
      '); this is v' +
      process.versions.node +
      ' (' +
      process.execPath +
      '). Install Node.js 22 or 24 (nvm install 24, or your package manager).\n',
  );
  process.exit(1);
}
