/**
 * Imported first by the service's entry (main.ts) for its side effect: pins the tick-object
 * shapes (tick-shapes.ts) before any other module runs a tick or a GC. The emulator, which
 * shares no code with the service, has its own copy (packages/platform-emulator).
 */
import { pinTickObjectShapes } from './tick-shapes.js';

pinTickObjectShapes();
