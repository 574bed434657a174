// node-polyglot (react-admin's translator) requires the `object.entries` polyfill, which brings a chain of
// ECMAScript-spec helpers (get-intrinsic, define-properties, …: about 16 kB) into the first download. Every browser
// the console supports has Object.entries.
module.exports = Object.entries;
