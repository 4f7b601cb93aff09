// `npm run build` (and `prepare`, so `npm install` builds): compiles src/ into dist/ with type
// declarations, then copies the hand-written JavaScript modules of src/ (and their declarations) as they are.
import { execFileSync } from 'node:child_process';
import { cpSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';

const tsc = createRequire(import.meta.url).resolve('typescript/bin/tsc');
rmSync('dist', { recursive: true, force: true });
execFileSync(process.execPath, [tsc, '-p', 'tsconfig.build.json'], { stdio: 'inherit' });
cpSync('src', 'dist', { recursive: true, filter: (path) => !path.endsWith('.ts') || path.endsWith('.d.mts') });
