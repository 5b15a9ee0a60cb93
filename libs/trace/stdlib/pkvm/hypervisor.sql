-- Time CPUs spend in the pKVM hypervisor (protected KVM on Android): the "hyp" slices the
-- importer builds from the hypervisor's hyp_enter / hyp_exit ftrace events, with why each entry
-- happened when the trace says.

-- One row per stay of a CPU in the hypervisor.
CREATE PERFETTO VIEW pkvm_hypervisor_events(
  -- The stay's slice (slice.id); its args hold the reason's fields (id, esr, addr, ...).
  slice_id JOINID(slice.id),
  -- The CPU that entered the hypervisor.
  cpu JOINID(cpu.cpu),
  -- When the CPU entered (trace clock, ns).
  ts TIMESTAMP,
  -- How long it stayed, in ns (-1 if it had not left when the trace ended).
  dur DURATION,
  -- Why it entered (host_hcall, host_smc, host_mem_abort, ...), NULL when no event said.
  reason STRING
) AS
SELECT
  s.id AS slice_id,
  t.cpu AS cpu,
  s.ts AS ts,
  s.dur AS dur,
  EXTRACT_ARG(s.arg_set_id, 'hyp_enter_reason') AS reason
FROM slice AS s
JOIN cpu_track AS t ON t.id = s.track_id
WHERE s.category = 'pkvm_hyp';
