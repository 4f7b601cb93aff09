/**
 * Entry point of the server bundle (dist/server.cjs) that the `idv-sandbox` bin runs (and so `npm start`
 * and the Docker image): the bin calls `main` and, once the start is done, keeps the bundle's compiled code
 * for the next start (src/bundle-loader.mjs). `src/main.ts` is the same command run from the sources.
 */
export { main } from './cli.ts';
