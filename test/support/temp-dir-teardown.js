module.exports = require('./temp-dir-global').teardown;
