-- Linux perf sampling as a call tree: where the sampled threads were, summed over every
-- traced_perf sample that carried a callstack — the data behind a flame graph of CPU time.

-- Samples per callstack leaf: how many samples stopped in each callsite.
CREATE PERFETTO TABLE _linux_perf_leaf_counts AS
SELECT callsite_id AS id, count(*) AS self_count
FROM perf_sample
WHERE callsite_id IS NOT NULL
GROUP BY callsite_id;

-- Each leaf's samples credited to the leaf and to every callsite above it.
CREATE PERFETTO TABLE _linux_perf_cumulative_counts AS
WITH RECURSIVE up(id, n) AS (
  SELECT id, self_count FROM _linux_perf_leaf_counts
  UNION ALL
  SELECT c.parent_id, up.n
  FROM up
  JOIN stack_profile_callsite AS c ON c.id = up.id
  WHERE c.parent_id IS NOT NULL
)
SELECT id, sum(n) AS cumulative_count
FROM up
GROUP BY id;

-- The call tree of all perf samples: one row per callsite on the path from a root frame to a
-- sampled leaf (a callstack, i.e. a unique chain of frames up to the root), with how many
-- samples stopped there and how many passed through it. Native C++ names are demangled. A frame
-- whose symbols list several inlined functions stays one node, named after its own function.
CREATE PERFETTO TABLE linux_perf_samples_summary_tree(
  -- The id of the callstack (stack_profile_callsite.id).
  id LONG,
  -- The id of the callstack one frame up (its caller); NULL at a root frame.
  parent_id LONG,
  -- The function name of the frame of this callstack.
  name STRING,
  -- The name of the mapping containing the frame: a native binary, library, JAR or APK.
  mapping_name STRING,
  -- The source file of the function, if the frame is symbolized.
  source_file STRING,
  -- The line in the source file, if the frame is symbolized.
  line_number LONG,
  -- The number of samples with this callstack as the leaf (where the thread was).
  self_count LONG,
  -- The number of samples with this callstack anywhere on their callstack.
  cumulative_count LONG
) AS
WITH single_symbol AS (
  SELECT symbol_set_id, min(id) AS id
  FROM stack_profile_symbol
  GROUP BY symbol_set_id
  HAVING count(*) = 1
)
SELECT
  c.id,
  c.parent_id,
  coalesce(
    demangle(coalesce(s.name, f.deobfuscated_name, f.name)),
    s.name, f.deobfuscated_name, f.name, 'unknown'
  ) AS name,
  m.name AS mapping_name,
  s.source_file,
  s.line_number,
  coalesce(l.self_count, 0) AS self_count,
  t.cumulative_count
FROM _linux_perf_cumulative_counts AS t
JOIN stack_profile_callsite AS c ON c.id = t.id
JOIN stack_profile_frame AS f ON f.id = c.frame_id
JOIN stack_profile_mapping AS m ON m.id = f.mapping
LEFT JOIN _linux_perf_leaf_counts AS l ON l.id = c.id
LEFT JOIN single_symbol AS ss ON ss.symbol_set_id = f.symbol_set_id
LEFT JOIN stack_profile_symbol AS s ON s.id = ss.id
ORDER BY c.id;
