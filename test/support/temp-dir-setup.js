module.exports = require('./temp-dir-global').setup;
