/**
 * The OpenAPI 3.1 document of the whole HTTP surface and the /docs page rendered from it. Routes
 * describe themselves with `documentRoute` (inputs and answers as the zod schemas the route
 * checks and builds), so the document cannot drift from what runs; see openapi/*.ts.
 */
export {
  documentRoute,
  openapiDocs,
  RouteDocs,
  type Holds,
  type MediaDoc,
  type RouteDoc,
  type ResponseDoc,
} from './openapi/route-doc.js';
export { buildOpenApi, OPERATION_ERRORS } from './openapi/build.js';
export { renderDocsPage } from './openapi/docs-page.js';
export { DASHBOARD_DOCS, METRICS_DOC, REFERENCE_DOCS } from './openapi/fixed-routes.js';
