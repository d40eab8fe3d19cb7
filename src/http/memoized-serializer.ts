import { SerializerSelector } from '@fastify/fast-json-stringify-compiler';

type SerializerFactory = ReturnType<typeof SerializerSelector>;

/**
 * Fastify's own serializer (fast-json-stringify, compiled from each route's
 * response schema, so fields outside the schema never leave), remembering its
 * output for frozen objects. Frozen responses are the ones shared between
 * requests until their data changes (an agent read from the committed-read
 * cache), so each is serialized once rather than on every request.
 */
export function memoizingSerializerFactory(): SerializerFactory {
  const build = SerializerSelector();
  return (externalSchemas, options) => {
    const compile = build(externalSchemas, options);
    return (route) => {
      const serialize = compile(route);
      const written = new WeakMap<object, string>();
      return (data: unknown) => {
        if (data === null || typeof data !== 'object' || !Object.isFrozen(data)) return serialize(data);
        let text = written.get(data);
        if (text === undefined) {
          text = serialize(data);
          written.set(data, text);
        }
        return text;
      };
    };
  };
}
