// Times one cold require() of argv[2] in a fresh process.
'use strict';
const start = process.hrtime.bigint();
require(process.argv[2]);
const ms = Number(process.hrtime.bigint() - start) / 1e6;
process.stdout.write(JSON.stringify({ ms }));
