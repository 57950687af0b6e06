/**
 * One JSON-schema validator for every MCP server this process builds: the SDK would otherwise
 * create (and compile into) a fresh Ajv instance for each per-request server.
 */
import { AjvJsonSchemaValidator } from '@modelcontextprotocol/server/validators/ajv';

export const JSON_SCHEMA_VALIDATOR = new AjvJsonSchemaValidator();
