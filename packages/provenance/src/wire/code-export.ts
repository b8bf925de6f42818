import { dumpYaml } from './pyyaml.js';

/** What a code's YAML export reads from its node. */
export interface CodeInput {
  nodeType: string;
  label: string;
  description: string;
  attributes: Record<string, unknown>;
  computerLabel?: string;
}

/** `AbstractCode.Model`'s fields, in order, then each class's own (the legacy `Code` reads its attributes). */
const OWN_FIELDS: Record<string, string[]> = {
  'data.core.code.Code.': ['input_plugin', 'local_executable', 'remote_exec_path', 'is_local'],
  'data.core.code.installed.InstalledCode.': ['computer', 'filepath_executable'],
  'data.core.code.containerized.ContainerizedCode.': [
    'computer',
    'filepath_executable',
    'engine_command',
    'image_name',
  ],
  'data.core.code.portable.PortableCode.': ['filepath_executable'],
};

/** Python's `str()` of an attribute value. */
function pyStr(value: unknown): string {
  if (typeof value === 'boolean') return value ? 'True' : 'False';
  return typeof value === 'string' ? value : JSON.stringify(value);
}

/**
 * `AbstractCode._prepare_yaml`: `yaml.dump({field: str(value)})` over the model's fields, leaving out
 * the unset (`None`) ones; `computer` is the computer's label.
 */
export function codeYaml(code: CodeInput): string {
  const { attributes } = code;
  const values: Record<string, unknown> = {
    label: code.label,
    description: code.description,
    default_calc_job_plugin: attributes.input_plugin,
    use_double_quotes: attributes.use_double_quotes ?? false,
    with_mpi: attributes.with_mpi,
    prepend_text: attributes.prepend_text ?? '',
    append_text: attributes.append_text ?? '',
  };
  for (const field of OWN_FIELDS[code.nodeType] ?? []) {
    values[field] = field === 'computer' ? code.computerLabel : attributes[field];
  }
  const fields = Object.entries(values).filter(([, value]) => value !== undefined && value !== null);
  return dumpYaml(fields.map(([key, value]) => [key, pyStr(value)]));
}
