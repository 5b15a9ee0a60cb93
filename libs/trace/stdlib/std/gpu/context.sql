-- The graphics contexts GPU work ran in (gpu_context).

-- One row per graphics context (GL context, VkDevice, CUDA context, ...) that render stage
-- events named through interned context data: the process that owns it and its API.
CREATE PERFETTO VIEW gpu_context(
  -- The row's id.
  id ID,
  -- The graphics context handle.
  context_id LONG,
  -- The process that owns the context (its pid), if known.
  pid LONG,
  -- The graphics API: OPEN_GL, VULKAN, OPEN_CL, CUDA, HIP or UNDEFINED, if known.
  api STRING
) AS
SELECT id, context_id, pid, api FROM __intrinsic_gpu_context;
