/** Entry point of `npm start` and the `idv-sandbox` bin. */
import { main } from './cli.ts';

void main();
