#!/usr/bin/env node
// Runs the compiled code (dist/, built by `npm install` through the prepare script, or `npm run build`).
import '../dist/main.js';
