/**
 * The better-sqlite3 build that works on this Node. Version 12 (node::ObjectWrap) is the one
 * that runs on Node 20, where 13 crashes; from Node 24.19 on, 12 aborts when a statement is
 * garbage-collected (Node's ObjectWrap cleanup hook), which 13 (Node-API, prebuilt, Node 22+)
 * does not. Both have the same API; 13 is installed under the alias better-sqlite3-napi.
 */
import { createRequire } from 'node:module';
import type BetterSqlite3 from 'better-sqlite3';

const require = createRequire(import.meta.url);
const major = Number(process.versions.node.split('.')[0]);

export const Database = (
  major >= 22 ? require('better-sqlite3-napi') : require('better-sqlite3')
) as typeof BetterSqlite3;
