// The typed client for this API, as the repository's own code and the docs' samples import it. It is the client
// package's source (client/, published as @platform-admin/client): see client/README.md.
export * from '../client/src/index.js';
