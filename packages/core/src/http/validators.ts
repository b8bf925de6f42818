import { Ajv } from 'ajv';
import addFormats from 'ajv-formats';
import type { FastifySchemaCompiler } from 'fastify';

function makeAjv(coerceTypes: boolean | 'array'): Ajv {
  const ajv = new Ajv({ coerceTypes, useDefaults: true, removeAdditional: false, allErrors: false, strict: false });
  addFormats.default(ajv);
  return ajv;
}

const bodyAjv = makeAjv(false);
const paramsAjv = makeAjv('array');

/**
 * Bodies are validated as sent (a string where a number belongs is an error, unknown fields are errors
 * where the schema forbids them); path, query and headers are strings on the wire and are coerced.
 */
export const validatorCompiler: FastifySchemaCompiler<object> = ({ schema, httpPart }) => {
  const validate = (httpPart === 'body' ? bodyAjv : paramsAjv).compile(schema);
  return (data: unknown) =>
    validate(data)
      ? { value: data }
      : { error: Object.assign(new Error('validation failed'), { validation: validate.errors }) };
};
