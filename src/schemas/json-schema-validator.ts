import { Ajv, type Options } from 'ajv';

/**
 * An Ajv instance as every validator of agentd makes it: Ajv's code optimizer
 * off. The optimizer counts the names each piece of generated code uses in
 * plain objects keyed by those names (`valid12`, `errs_3`, …), and V8 records
 * each distinct first key of a `{}` as one more shape the empty object can
 * turn into, keeping at most 1,536 of them. The API's schemas went past that:
 * from then on every `{}` that gets a property (the request's header object,
 * built by Node on every request, and many more) got a shape of its own, the
 * code reading such objects went megamorphic and each new shape was garbage
 * to collect. Without the optimizer the generated code is a little longer;
 * what it checks is the same. test/integration/object-shapes.test.ts holds
 * the server to it.
 */
export function newAjv(options: Options): Ajv {
  return new Ajv({ ...options, code: { ...options.code, optimize: false } });
}
