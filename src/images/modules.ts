/** The image operation modules, for src/modules.ts (one import line for the three areas). */
export { documentModule } from '../document/index.ts';
export { faceModule } from '../face/index.ts';
export { identityModule } from '../identity/index.ts';
