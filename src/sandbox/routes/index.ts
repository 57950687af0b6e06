/**
 * Every emulated API group, in registration order.
 */
import type { SandboxModule } from '../context.js';
import { meetingsModule } from './meetings.js';
import { usersModule } from './users.js';

export const SANDBOX_MODULES: SandboxModule[] = [usersModule, meetingsModule] as SandboxModule[];
