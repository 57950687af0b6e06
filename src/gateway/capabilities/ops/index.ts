/**
 * Every capability operation, by group file.
 */
import type { Operation } from '../operation.js';
import { contactsOps } from './contacts.js';

export const OPERATIONS: readonly Operation[] = [...contactsOps];
