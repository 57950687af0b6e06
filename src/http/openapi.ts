/**
 * The OpenAPI 3.1 document of the whole HTTP surface and the /docs page rendered from it. Each
 * route carries its description in its own declaration (`config.doc`: inputs and answers as the
 * zod schemas the route checks and builds), so the document cannot drift from what runs; see
 * openapi/*.ts.
 */
export {
  openapiDocs,
  routeAuth,
  RouteDocs,
  type Holds,
  type LimitClass,
  type MediaDoc,
  type RouteAuth,
  type RouteDoc,
  type RouteDocBody,
  type ResponseDoc,
} from './openapi/route-doc.js';
export { buildOpenApi, OPERATION_ERRORS } from './openapi/build.js';
export { renderDocsPage } from './openapi/docs-page.js';
