import { SerializerSelector } from '@fastify/fast-json-stringify-compiler';

type SerializerFactory = ReturnType<typeof SerializerSelector>;
type RouteSerializer = (data: unknown) => string;
type RouteDefinition = Parameters<ReturnType<SerializerFactory>>[0];

interface ObjectSchema {
  type?: unknown;
  properties?: Record<string, { type?: unknown; items?: unknown }>;
  required?: string[];
}

/** Writes frozen values once: they are shared between requests until their data changes. */
function memoizing(serialize: RouteSerializer): RouteSerializer {
  const written = new WeakMap<object, string>();
  return (data) => {
    if (data === null || typeof data !== 'object' || !Object.isFrozen(data)) return serialize(data);
    let text = written.get(data);
    if (text === undefined) {
      text = serialize(data);
      written.set(data, text);
    }
    return text;
  };
}

/**
 * A page response (`data` first, an array, then the rest such as `pagination`)
 * written as its items' texts and the rest's text, each from its own part of
 * the schema: the items of a page are mostly shared (frozen) values already
 * written for an earlier page or a single read, where the page object around
 * them is new on every request. Null when the schema is not of that shape.
 */
function pageSerializer(route: RouteDefinition, compile: (route: RouteDefinition) => RouteSerializer) {
  const schema = route.schema as ObjectSchema;
  const properties = schema.properties;
  if (schema.type !== 'object' || properties === undefined) return null;
  const [first, ...others] = Object.keys(properties);
  const data = properties.data;
  if (first !== 'data' || data?.type !== 'array' || data.items === undefined || others.length === 0) return null;
  const rest = Object.fromEntries(others.map((name) => [name, properties[name]]));
  const writeItem = memoizing(compile({ ...route, schema: data.items }));
  const writeRest = compile({
    ...route,
    schema: { ...schema, properties: rest, required: (schema.required ?? []).filter((name) => name !== 'data') },
  });
  return (page: { data: unknown[] }) => {
    let text = '{"data":[';
    for (let index = 0; index < page.data.length; index += 1) {
      if (index > 0) text += ',';
      text += writeItem(page.data[index]);
    }
    // The rest starts with its own `{`, which the items' closing bracket and a comma replace.
    return `${text}],${writeRest(page).slice(1)}`;
  };
}

// Routes share most of their response schemas (every route's problem responses, the agent, the run), and
// Fastify asks for a compiler per plugin context: each distinct schema is compiled once and its serializer
// shared (at start-up, 719 compilations were of 73 schemas, 1.2 s of CPU). A serializer depends on its schema,
// the shared schemas it may reference and the options, and on nothing else, so the compiled ones are kept for
// the process: a second app built in it (as tests do) compiles none again.
const build = SerializerSelector();
const compiledBySetting = new Map<string, Map<string, RouteSerializer>>();

/** The serializer of a route's response: the whole, or a page item by item (see `pageSerializer`). */
function routeSerializer(route: RouteDefinition, compile: (route: RouteDefinition) => RouteSerializer) {
  const whole = memoizing(compile(route));
  const page = pageSerializer(route, compile);
  if (page === null) return whole;
  return (data: unknown) => {
    const items = (data as { data?: unknown } | null)?.data;
    if (Object.isFrozen(data) || !Array.isArray(items)) return whole(data);
    return page(data as { data: unknown[] });
  };
}

/**
 * Fastify's own serializer (fast-json-stringify, compiled from each route's
 * response schema, so fields outside the schema never leave), remembering its
 * output for frozen objects. Frozen responses are the ones shared between
 * requests until their data changes (an agent read from the committed-read
 * cache), so each is serialized once rather than on every request; in a page,
 * so is each shared item.
 *
 * Each serializer is compiled when its route first answers with its status, not when the route is
 * registered: a start compiles none (0.4 s of CPU before), and an instance compiles only what it sends.
 */
export function memoizingSerializerFactory(): SerializerFactory {
  return (externalSchemas, options) => {
    let compile: ((route: RouteDefinition) => RouteSerializer) | undefined;
    const compilerOfContext = () => {
      if (compile !== undefined) return compile;
      const compileSchema = build(externalSchemas, options);
      const setting = JSON.stringify([externalSchemas, options]);
      let compiled = compiledBySetting.get(setting);
      if (compiled === undefined) {
        compiled = new Map();
        compiledBySetting.set(setting, compiled);
      }
      const known = compiled;
      compile = (route: RouteDefinition): RouteSerializer => {
        const key = JSON.stringify(route.schema);
        let serializer = known.get(key);
        if (serializer === undefined) {
          serializer = compileSchema(route);
          known.set(key, serializer);
        }
        return serializer;
      };
      return compile;
    };
    return (route) => {
      let serialize: RouteSerializer | undefined;
      return (data: unknown) => (serialize ??= routeSerializer(route, compilerOfContext()))(data);
    };
  };
}
