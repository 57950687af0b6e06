/**
 * Imported first by each process entry (main.ts, sandbox/main.ts) for its side effect: pins the
 * tick-object shapes (tick-shapes.ts) before any other module runs a tick or a GC.
 */
import { pinTickObjectShapes } from './tick-shapes.js';

pinTickObjectShapes();
