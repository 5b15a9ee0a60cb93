-- GPUs and the groups of their counters.

-- One row per GPU of the machine (ugpu = id), described by gpu_info packets when the trace has
-- them.
CREATE PERFETTO VIEW gpu(
  -- The GPU's id (ugpu).
  id ID,
  gpu LONG,
  name STRING,
  vendor STRING,
  model STRING,
  architecture STRING,
  uuid STRING,
  pci_bdf STRING,
  machine_id JOINID(machine.id),
  arg_set_id ARGSETID
) AS
SELECT id, gpu, name, vendor, model, architecture, uuid, pci_bdf, machine_id, arg_set_id
FROM __intrinsic_gpu;

-- One row per (group, GPU counter track): which counter groups each GPU counter belongs to.
CREATE PERFETTO VIEW gpu_counter_group(
  -- Row id.
  id ID,
  group_id LONG,
  track_id JOINID(track.id),
  name STRING,
  description STRING
) AS
SELECT id, group_id, track_id, name, description FROM __intrinsic_gpu_counter_group;
