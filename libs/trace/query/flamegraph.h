#pragma once
// trace_processor's generic flamegraph over any tree (its __intrinsic_flamegraph operator): merges
// the rows of a Tree (flamegraph_tree.h) into frames and lays them out for drawing.
//
// Frames. Two rows are the same frame when their name and every grouping column are equal (NULL
// equals only NULL). Children of one merged node that are the same frame merge into one node.
//
// Filters, regexes (POSIX extended, partial match, optionally case-insensitive) tried on a frame's
// name and grouping values (numbers as text: integers in decimal, reals as %.15g; NULL matches
// nothing):
//   HIDE_FRAME  the row is removed: its values fold into its nearest kept ancestor (a removed root
//               loses them) and its name takes no part in the stack filters below;
//   HIDE_STACK  a kept row matching it drops, with everything below it;
//   SHOW_STACK  a row counts only when every SHOW_STACK filter matched a kept row on its path from
//               the root (itself included). Rows which do not count still give their frame a node,
//               so the path to a counting row is drawn, with zero self value.
// Views:
//   TOP_DOWN    nodes grow from the roots (depth 1, 2, ...);
//   BOTTOM_UP   every kept frame with a counting nonzero value starts an upward chain of its
//               ancestors (depth -1, -2, ...): the chain's first node gets the frame's value as
//               self value, every node on it the value as cumulative value;
//   FROM_FRAME  the top-down tree under each row matching the view pattern (a nested match starts
//               a tree of its own);
//   PIVOT       FROM_FRAME, plus an upward chain from each matching row carrying the value of the
//               tree under it.
// Values: each value column (non-negative numbers) gives self_<col> (the node's own rows) and
// cumulative_<col> (its subtree). Nodes whose every cumulative value is zero are dropped.
// Aggregates: SUM (numbers; NULL when nothing was summed), ONE_OR_SUMMARY (the one distinct value,
// or "<first> and <N> others" with N the number of distinct values), CONCAT_WITH_COMMA (every
// value as text, in row order), over the rows folded into the node's own frames (not its subtree).
// Layout: breadth first, siblings widest first (ties in node creation order), each child's
// x_start packed from its parent's; the downward and upward halves are two strips starting at
// x = 0, width the first value column's cumulative value.

#include <cstdint>
#include <deque>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "absl/status/statusor.h"
#include "libs/trace/query/flamegraph_tree.h"

namespace tw::flamegraph {

enum class View { kTopDown, kBottomUp, kPivot, kFromFrame };
enum class Aggregate { kSum, kOneOrSummary, kConcatWithComma };

struct Pattern {
  std::string regex;
  bool case_insensitive = false;
};

struct Query {
  View view = View::kTopDown;
  std::optional<Pattern> view_pattern;  // set exactly for PIVOT and FROM_FRAME
  std::vector<Pattern> show_stack, hide_stack, hide_frame;
  std::vector<std::string> grouping_columns;
  std::vector<std::string> value_columns;  // at least one; the first sets the geometry
  struct AggregateColumn {
    Aggregate kind = Aggregate::kSum;
    std::string input;
    std::string output;  // must equal input
  };
  std::vector<AggregateColumn> aggregates;
};

inline constexpr size_t kMaxShowStackFilters = 61;

// One output column in output row order; strings point into the source tree or the result.
struct ResultColumn {
  Column::Type type = Column::Type::kNull;
  std::vector<int64_t> ints;
  std::vector<double> doubles;
  std::vector<std::string_view> strings;
  std::vector<uint8_t> present;
};

struct Result {
  uint32_t rows = 0;
  std::vector<uint32_t> parent_row;  // kNoRow for the roots of either half
  std::vector<int64_t> depth;
  std::vector<double> x_start;
  std::vector<double> width;         // max(first cumulative value, 0)
  bool geometry_is_int = false;      // the first value column holds integers
  // "name", the grouping columns, self_<v>/cumulative_<v> per value column, the aggregates.
  std::vector<std::string> column_names;
  std::vector<ResultColumn> columns;
  std::deque<std::string> owned_strings;  // text the aggregates produced

  const ResultColumn* Find(std::string_view name) const;
};

// Builds the flamegraph of `tree` (which must outlive the result) for `query`.
absl::StatusOr<Result> Build(const Tree& tree, const Query& query);

}  // namespace tw::flamegraph
