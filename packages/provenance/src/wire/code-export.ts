import { dumpYaml } from './pyyaml.js';

/** What a code's YAML export reads from its node. */
export interface CodeInput {
  nodeType: string;
  label: string;
  description: string;
  attributes: Record<string, unknown>;
  computerLabel?: string;
}

/** Each class's own fields after the common ones (the legacy `Code` adds none). */
const OWN_FIELDS: Record<string, string[]> = {
  'data.core.code.installed.InstalledCode.': ['computer', 'filepath_executable'],
  'data.core.code.containerized.ContainerizedCode.': [
    'computer',
    'filepath_executable',
    'engine_command',
    'image_name',
  ],
  'data.core.code.portable.PortableCode.': ['filepath_executable'],
};

/** Python's `str()` of a non-boolean attribute value. */
function pyStr(value: unknown): string {
  return typeof value === 'string' ? value : JSON.stringify(value);
}

/**
 * `AbstractCode._prepare_yaml` of aiida-core 2.9: `yaml.dump` of the code's CLI model fields with their
 * types (booleans plain), unset (`None`) ones left out, `computer` as the computer's label. The order of
 * the common fields is AiiDA's for the legacy `Code` (recorded answers); `with_mpi` and the other classes'
 * own fields follow the model's declaration order.
 */
export function codeYaml(code: CodeInput): string {
  const { attributes } = code;
  const values: Record<string, unknown> = {
    label: code.label,
    description: code.description,
    use_double_quotes: attributes.use_double_quotes ?? false,
    with_mpi: attributes.with_mpi,
    wrap_cmdline_params: attributes.wrap_cmdline_params ?? false,
    prepend_text: attributes.prepend_text ?? '',
    append_text: attributes.append_text ?? '',
    default_calc_job_plugin: attributes.input_plugin,
  };
  for (const field of OWN_FIELDS[code.nodeType] ?? []) {
    values[field] = field === 'computer' ? code.computerLabel : attributes[field];
  }
  const fields = Object.entries(values).filter(([, value]) => value !== undefined && value !== null);
  return dumpYaml(fields.map(([key, value]) => [key, typeof value === 'boolean' ? value : pyStr(value)]));
}
