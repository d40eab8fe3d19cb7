/**
 * Forms generated from JSON Schemas: the config of a plugin or the settings
 * of a platform as controls, their secrets as write-only fields, and the
 * list and key/value editors they are built from.
 */
export {
  draftOf,
  labelOf,
  pointersOf,
  valueOf,
  type Draft,
  type DraftProblem,
  type JsonSchema,
} from './json-schema.js';
export { SchemaField } from './schema-field.js';
export { SecretFields, secretRowsOf, secretsOf, type SecretRow } from './secret-fields.js';
export { ListEditor } from './list-editor.js';
