/**
 * Every capability operation, by group file.
 */
import type { Operation } from '../operation.js';
import { contactsOps } from './contacts.js';
import { meetingsOps } from './meetings.js';

export const OPERATIONS: readonly Operation[] = [...meetingsOps, ...contactsOps];
