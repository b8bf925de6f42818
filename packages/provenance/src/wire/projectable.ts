/** `/<resource>/projectable_properties`: the reference's static field descriptions. */
interface Field {
  display_name: string;
  help_text: string;
  is_display: boolean;
  is_foreign_key: boolean;
  type: string;
  related_column?: string;
  related_resource?: string;
  valid_choices?: Record<string, { doc: string }>;
}

const field = (display_name: string, help_text: string, is_display: boolean, type = 'str'): Field => ({
  display_name,
  help_text,
  is_display,
  is_foreign_key: false,
  type,
});

const creatorId = (relatedResource: string): Field => ({
  display_name: 'Id of creator',
  help_text: 'Id of the user that created the node',
  is_display: false,
  is_foreign_key: true,
  related_column: 'id',
  related_resource: relatedResource,
  type: 'int',
});

const UUID_FIELD = field('Unique ID', 'Universally Unique Identifier', true, 'unicode');
const NODE_COMMON = {
  creator: field('Creator', 'User that created the node', true),
  ctime: field('Creation time', 'Creation time of the node', true, 'datetime.datetime'),
  mtime: field('Last Modification time', 'Last modification time', true, 'datetime.datetime'),
  process_type: field('Process type', 'Process type', false),
  uuid: UUID_FIELD,
};

/** The plugins' docstrings as aiida-core 2.9 ships them (`get_entry_point_from_string(...).__doc__`). */
const SCHEDULERS: Record<string, { doc: string }> = {
  'core.direct': { doc: 'Support for the direct execution bypassing schedulers.' },
  'core.lsf': {
    doc: 'Support for the IBM LSF scheduler\n\n    https://www-01.ibm.com/support/knowledgecenter/SSETD4_9.1.2/lsf_welcome.html\n    ',
  },
  'core.pbspro': { doc: 'Support for the PBSPro scheduler (http://www.pbsworks.com/).' },
  'core.sge': {
    doc: 'Support for the Sun Grid Engine scheduler and its variants/forks (Son of Grid Engine, Oracle Grid Engine, ...)',
  },
  'core.slurm': { doc: 'Support for the SLURM scheduler (http://slurm.schedmd.com/).' },
  'core.torque': { doc: 'Support for the Torque scheduler.' },
};

const TRANSPORTS: Record<string, { doc: string }> = {
  'core.local': {
    doc: 'Support copy and command execution on the same host on which AiiDA is running via direct file copy and\n    execution commands.\n\n    Note that the environment variables are copied from the submitting process, so you might need to clean it\n    with a ``prepend_text``. For example, the AiiDA daemon sets a ``PYTHONPATH``, so you might want to add\n    ``unset PYTHONPATH`` if you plan on running calculations that use Python.\n    ',
  },
  'core.ssh': {
    doc: '(Deprecated!) Support connection, command execution and data transfer\n    to remote computers via SSH+SFTP (using paramiko).',
  },
  'core.ssh_async': {
    doc: '(Recommended)  Asynchronous SSH transport plugin. Supports both OpenSSH and AsyncSSH as backends.',
  },
};

export const PROJECTABLE_PROPERTIES: Record<string, { fields: Record<string, Field>; ordering: string[] }> = {
  nodes: {
    fields: {
      ...NODE_COMMON,
      label: field('Label', 'User-assigned label', false),
      node_type: field('Type', 'Node type', true),
      user_id: creatorId('users'),
    },
    ordering: ['uuid', 'label', 'node_type', 'ctime', 'mtime', 'creator'],
  },
  processes: {
    fields: {
      ...NODE_COMMON,
      'attributes.process_label': field('Name', 'Process label attribute', true),
      'attributes.process_state': field('Process state', 'Process state attribute', true),
      user_id: creatorId('_dbusers'),
    },
    ordering: ['uuid', 'attributes.process_label', 'ctime', 'mtime', 'creator', 'attributes.process_state'],
  },
  computers: {
    fields: {
      description: field('Description', 'short description of the Computer', false),
      hostname: field('Host', 'Name of the host', true),
      id: field('Id', 'Id of the object', false, 'int'),
      label: field('Label', 'Label of the computer', true),
      scheduler_type: { ...field('Scheduler', 'Scheduler type', true), valid_choices: SCHEDULERS },
      transport_type: { ...field('Transport type', 'Transport Type', false), valid_choices: TRANSPORTS },
      uuid: UUID_FIELD,
    },
    ordering: ['uuid', 'label', 'hostname', 'description', 'scheduler_type', 'transport_type'],
  },
  users: {
    fields: {
      first_name: field('First name', 'First name of the user', true),
      id: field('Id', 'Id of the object', true, 'int'),
      institution: field('Institution', 'Affiliation of the user', true),
      last_name: field('Last name', 'Last name of the user', true),
    },
    ordering: ['id', 'first_name', 'last_name', 'institution'],
  },
  groups: {
    fields: {
      description: field('Description', 'Short description of the group', false),
      id: field('Id', 'Id of the object', false, 'int'),
      label: field('Label', 'Name of the object', true),
      type_string: field('Type_string', 'Type of the group', true),
      user_id: creatorId('users'),
      uuid: { ...UUID_FIELD, is_display: false },
    },
    ordering: ['id', 'label', 'type_string', 'description', 'user_id', 'uuid'],
  },
};
