#include "libs/trace/query/flamegraph.h"

#include <regex.h>

#include <algorithm>
#include <cinttypes>
#include <cstdio>
#include <cstring>
#include <memory>
#include <utility>

#include "absl/container/flat_hash_map.h"
#include "absl/strings/str_cat.h"
#include "libs/common/status_macros.h"
#include "libs/trace/query/flamegraph_nodes.h"
#include "libs/trace/query/flamegraph_text.h"

namespace tw::flamegraph {

const ResultColumn* Result::Find(std::string_view name) const {
  for (size_t i = 0; i < column_names.size(); ++i) {
    if (column_names[i] == name) return &columns[i];
  }
  return nullptr;
}

namespace {

// A set SHOW_STACK mask can never equal this bit's mask: a stack with a HIDE_STACK match on it
// (and everything below) stops counting.
constexpr uint64_t kHiddenStack = uint64_t{1} << 63;

class CompiledPattern {
 public:
  static absl::StatusOr<std::unique_ptr<CompiledPattern>> Create(const Pattern& p) {
    auto out = std::unique_ptr<CompiledPattern>(new CompiledPattern);
    const int flags = REG_EXTENDED | REG_NOSUB | (p.case_insensitive ? REG_ICASE : 0);
    const int rc = regcomp(&out->re_, p.regex.c_str(), flags);
    if (rc != 0) {
      char message[256];
      regerror(rc, &out->re_, message, sizeof message);
      return absl::InvalidArgumentError(
          absl::StrCat("flamegraph: invalid regex '", p.regex, "': ", message));
    }
    out->compiled_ = true;
    return out;
  }
  ~CompiledPattern() {
    if (compiled_) regfree(&re_);
  }
  bool PartialMatch(const char* text) const { return regexec(&re_, text, 0, nullptr, 0) == 0; }

 private:
  CompiledPattern() = default;
  regex_t re_{};
  bool compiled_ = false;
};

struct Matches {
  uint64_t show_stack = 0;  // bit i: SHOW_STACK filter i matched
  bool view_pattern = false;
  bool hide_stack = false;
  bool hide_frame = false;
};

// What later phases need from a row's root-to-row path.
struct PathState {
  uint64_t stack_bits = 0;  // SHOW_STACK matches of the kept rows on the path, or kHiddenStack
  uint32_t kept = kNoRow;   // nearest kept row: the row itself when kept

  bool Counts(uint64_t required) const { return kept != kNoRow && stack_bits == required; }
  bool StackHidden() const { return (stack_bits & kHiddenStack) != 0; }
};

struct UpwardPath {
  uint32_t first = kNoRow;  // the node of the frame the chain starts from (depth -1)
  uint32_t last = kNoRow;   // the outermost ancestor's node
};

struct Constituent {
  uint32_t frame;
  uint32_t node;  // upward node
};

struct ResolvedAggregate {
  const Column* input;
  Aggregate kind;
  std::string name;
};

// The self and cumulative value of every node (downward nodes, then upward ones) for one column.
template <typename T>
struct Metric {
  std::vector<T> self, cumulative;
};

template <typename T>
bool AddChecked(T v, T* total) {
  if constexpr (std::is_same_v<T, int64_t>) {
    return !__builtin_add_overflow(*total, v, total);
  } else {
    *total += v;
    return true;
  }
}

template <typename T>
const std::vector<T>& Values(const Column& c) {
  if constexpr (std::is_same_v<T, int64_t>) {
    return c.ints;
  } else {
    return c.doubles;
  }
}

// Compressed lists: the items of group g are items[offsets[g] .. offsets[g + 1]).
struct Groups {
  std::vector<uint32_t> offsets, items;
};

class Builder {
 public:
  Builder(const Tree& tree, const Query& query) : tree_(tree), query_(query) {}

  absl::StatusOr<Result> Run();

 private:
  absl::Status Resolve();
  void AssignFrames();
  void AnalyzePaths();
  void BuildDownward();
  void BuildUpward();
  UpwardPath BuildUpwardPath(uint32_t frame, bool with_aggregates);
  template <typename T>
  absl::Status AccumulateMetric(const Column& input, Metric<T>* out);
  void BuildAggregateRouting();
  absl::Status ComputeAggregate(const ResolvedAggregate& a, ResultColumn* per_node);
  bool DownwardViews() const { return query_.view != View::kBottomUp; }
  bool UpwardViews() const {
    return query_.view == View::kBottomUp || query_.view == View::kPivot;
  }
  bool Kept(uint32_t row) const { return states_[row].kept == row; }
  bool CountsDownward(uint32_t row) const {
    return down_node_[row] != kNoRow && states_[row].Counts(required_bits_);
  }

  const Tree& tree_;
  const Query& query_;
  Result result_;

  const Column* name_ = nullptr;
  std::vector<const Column*> grouping_;
  std::vector<const Column*> values_;
  std::vector<ResolvedAggregate> aggregates_;
  std::unique_ptr<CompiledPattern> view_pattern_;
  std::vector<std::unique_ptr<CompiledPattern>> show_, hide_stack_, hide_frame_;
  uint64_t required_bits_ = 0;

  std::vector<uint32_t> frame_;        // row -> frame id (equal name and grouping values)
  std::vector<uint32_t> frame_first_;  // frame id -> its first row
  std::vector<PathState> states_;
  std::vector<uint8_t> view_match_;    // kept rows matching the view pattern

  NodeTree down_, up_;
  std::vector<uint32_t> down_node_;    // row -> downward node receiving its values
  std::vector<UpwardPath> bottom_up_paths_;
  std::vector<std::pair<uint32_t, UpwardPath>> pivot_anchors_;
  std::vector<Constituent> constituents_;

  Groups frame_rows_;   // kept frame -> rows folded into it (stack not hidden)
  Groups node_frames_;  // node -> kept frames it stands for
};

absl::Status Builder::Resolve() {
  auto column = [&](const char* what, const std::string& name) -> absl::StatusOr<const Column*> {
    const int i = tree_.Find(name);
    if (i < 0) {
      return absl::InvalidArgumentError(
          absl::StrCat("flamegraph: ", what, " '", name, "' does not exist"));
    }
    return &tree_.columns[static_cast<size_t>(i)];
  };
  ASSIGN_OR_RETURN(name_, column("column", "name"));
  if (name_->type != Column::Type::kString) {
    return absl::InvalidArgumentError("flamegraph: name column must be a string");
  }
  std::vector<std::string> output_names = {"depth", "name"};
  auto claim = [&](const std::string& n) -> absl::Status {
    if (n.empty() || std::find(output_names.begin(), output_names.end(), n) != output_names.end()) {
      return absl::InvalidArgumentError(
          absl::StrCat("flamegraph: output column '", n, "' is configured twice"));
    }
    output_names.push_back(n);
    return absl::OkStatus();
  };
  for (const std::string& g : query_.grouping_columns) {
    ASSIGN_OR_RETURN(const Column* c, column("grouping column", g));
    RETURN_IF_ERROR(claim(g));
    grouping_.push_back(c);
  }
  if (query_.value_columns.empty()) {
    return absl::InvalidArgumentError("flamegraph: at least one value column is required");
  }
  for (const std::string& v : query_.value_columns) {
    ASSIGN_OR_RETURN(const Column* c, column("value column", v));
    if (!c->numeric()) {
      return absl::InvalidArgumentError("flamegraph: value columns must be numeric");
    }
    RETURN_IF_ERROR(claim("self_" + v));
    RETURN_IF_ERROR(claim("cumulative_" + v));
    values_.push_back(c);
  }
  for (const Query::AggregateColumn& a : query_.aggregates) {
    if (a.output != a.input) {
      return absl::InvalidArgumentError(
          "flamegraph: aggregate output must match its source column");
    }
    ASSIGN_OR_RETURN(const Column* c, column("aggregate column", a.input));
    if (a.kind == Aggregate::kSum && c->type != Column::Type::kNull && !c->numeric()) {
      return absl::InvalidArgumentError("flamegraph: SUM aggregate columns must be numeric");
    }
    RETURN_IF_ERROR(claim(a.output));
    aggregates_.push_back({c, a.kind, a.output});
  }
  if (query_.show_stack.size() > kMaxShowStackFilters) {
    return absl::InvalidArgumentError("flamegraph: too many SHOW_STACK filters");
  }
  const bool pattern_view = query_.view == View::kPivot || query_.view == View::kFromFrame;
  if (pattern_view != query_.view_pattern.has_value()) {
    return absl::InvalidArgumentError("flamegraph: PIVOT and FROM_FRAME require a view pattern");
  }
  if (query_.view_pattern) {
    ASSIGN_OR_RETURN(view_pattern_, CompiledPattern::Create(*query_.view_pattern));
  }
  for (auto [patterns, out] : {std::pair{&query_.show_stack, &show_},
                               std::pair{&query_.hide_stack, &hide_stack_},
                               std::pair{&query_.hide_frame, &hide_frame_}}) {
    for (const Pattern& p : *patterns) {
      ASSIGN_OR_RETURN(auto compiled, CompiledPattern::Create(p));
      out->push_back(std::move(compiled));
    }
  }
  required_bits_ = (uint64_t{1} << show_.size()) - 1;
  for (const Column* v : values_) {
    for (uint32_t r = 0; r < tree_.rows; ++r) {
      if (!v->IsNull(r) && v->AsDouble(r) < 0) {
        return absl::InvalidArgumentError("flamegraph: value columns must be non-negative");
      }
    }
  }
  return absl::OkStatus();
}

void Builder::AssignFrames() {
  frame_.resize(tree_.rows);
  if (grouping_.empty()) {
    // The name alone: a dense id per distinct string id (NULL its own frame).
    absl::flat_hash_map<uint32_t, uint32_t> by_name;
    for (uint32_t r = 0; r < tree_.rows; ++r) {
      const uint32_t key = name_->IsNull(r) ? kNoRow : name_->strings[r];
      auto [it, inserted] = by_name.emplace(key, static_cast<uint32_t>(frame_first_.size()));
      if (inserted) frame_first_.push_back(r);
      frame_[r] = it->second;
    }
    return;
  }
  absl::flat_hash_map<std::string, uint32_t> by_key;
  std::string key;
  for (uint32_t r = 0; r < tree_.rows; ++r) {
    key.clear();
    AppendCellKey(*name_, r, &key);
    for (const Column* g : grouping_) AppendCellKey(*g, r, &key);
    auto [it, inserted] = by_key.emplace(key, static_cast<uint32_t>(frame_first_.size()));
    if (inserted) frame_first_.push_back(r);
    frame_[r] = it->second;
  }
}

void Builder::AnalyzePaths() {
  const bool any_pattern = view_pattern_ || !show_.empty() || !hide_stack_.empty() ||
                           !hide_frame_.empty();
  std::vector<Matches> matches(frame_first_.size());
  if (any_pattern) {
    std::string text;
    for (size_t f = 0; f < frame_first_.size(); ++f) {
      const uint32_t row = frame_first_[f];
      Matches& m = matches[f];
      auto match = [&](const Column& c) {
        if (!CellText(c, row, tree_.strings, &text)) return;
        if (view_pattern_ && view_pattern_->PartialMatch(text.c_str())) m.view_pattern = true;
        for (size_t i = 0; i < show_.size(); ++i) {
          if (show_[i]->PartialMatch(text.c_str())) m.show_stack |= uint64_t{1} << i;
        }
        for (const auto& p : hide_stack_) m.hide_stack |= p->PartialMatch(text.c_str());
        for (const auto& p : hide_frame_) m.hide_frame |= p->PartialMatch(text.c_str());
      };
      match(*name_);
      for (const Column* g : grouping_) match(*g);
    }
  }
  states_.resize(tree_.rows);
  if (view_pattern_) view_match_.assign(tree_.rows, 0);
  for (uint32_t r = 0; r < tree_.rows; ++r) {
    const uint32_t p = tree_.parent[r];
    const PathState inherited = p == kNoRow ? PathState{} : states_[p];
    const Matches& m = matches[frame_[r]];
    if (m.hide_frame) {
      states_[r] = inherited;  // folds into the nearest kept ancestor
      continue;
    }
    states_[r].kept = r;
    if (view_pattern_ && m.view_pattern) view_match_[r] = 1;
    states_[r].stack_bits = m.hide_stack ? kHiddenStack : (m.show_stack | inherited.stack_bits);
  }
}

void Builder::BuildDownward() {
  down_node_.assign(tree_.rows, kNoRow);
  if (!DownwardViews()) return;
  for (uint32_t r = 0; r < tree_.rows; ++r) {
    const uint32_t p = tree_.parent[r];
    const uint32_t parent_node = p == kNoRow ? kNoRow : down_node_[p];
    if (!Kept(r)) {
      down_node_[r] = parent_node;
      continue;
    }
    const bool kept_ancestor = p != kNoRow && states_[p].kept != kNoRow;
    const bool starts = (view_pattern_ && view_match_[r]) ||
                        (query_.view == View::kTopDown && !kept_ancestor);
    if (!starts && parent_node == kNoRow) continue;
    down_node_[r] = down_.Intern(starts ? kNoRow : parent_node, frame_[r], r);
  }
}

UpwardPath Builder::BuildUpwardPath(uint32_t frame, bool with_aggregates) {
  UpwardPath path;
  uint32_t node = kNoRow;
  while (frame != kNoRow) {
    node = up_.Intern(node, frame_[frame], frame);
    if (path.first == kNoRow) path.first = node;
    if (with_aggregates) constituents_.push_back({frame, node});
    const uint32_t p = tree_.parent[frame];
    frame = p == kNoRow ? kNoRow : states_[p].kept;
  }
  path.last = node;
  return path;
}

void Builder::BuildUpward() {
  if (query_.view == View::kPivot) {
    for (uint32_t r = 0; r < tree_.rows; ++r) {
      if (!view_match_[r]) continue;
      const bool with_aggregates = !aggregates_.empty() && states_[r].Counts(required_bits_);
      pivot_anchors_.push_back({r, BuildUpwardPath(r, with_aggregates)});
    }
    return;
  }
  if (query_.view != View::kBottomUp) return;
  // A chain starts from every kept frame receiving a counting nonzero value.
  std::vector<uint8_t> active(tree_.rows, 0);
  for (const Column* v : values_) {
    for (uint32_t r = 0; r < tree_.rows; ++r) {
      if (!v->IsNull(r) && v->AsDouble(r) != 0 && states_[r].Counts(required_bits_)) {
        active[states_[r].kept] = 1;
      }
    }
  }
  bottom_up_paths_.assign(tree_.rows, UpwardPath{});
  for (uint32_t r = 0; r < tree_.rows; ++r) {
    if (active[r]) bottom_up_paths_[r] = BuildUpwardPath(r, true);
  }
}

template <typename T>
absl::Status PropagateCumulative(const NodeTree& nodes, T* cumulative) {
  // Children are created after their parents, so one backward pass sums every subtree.
  for (uint32_t n = nodes.size(); n-- > 0;) {
    const uint32_t p = nodes.parent(n);
    if (p != kNoRow && !AddChecked(cumulative[n], &cumulative[p])) {
      return absl::InvalidArgumentError("flamegraph: integer value overflow");
    }
  }
  return absl::OkStatus();
}

template <typename T>
absl::Status Builder::AccumulateMetric(const Column& input, Metric<T>* out) {
  const std::vector<T>& values = Values<T>(input);
  const uint32_t down_size = down_.size();
  out->self.assign(down_size + up_.size(), T{});
  out->cumulative.assign(down_size + up_.size(), T{});
  const absl::Status overflow = absl::InvalidArgumentError("flamegraph: integer value overflow");
  T* self = out->self.data();
  T* cumulative = out->cumulative.data();
  if (DownwardViews()) {
    for (uint32_t r = 0; r < tree_.rows; ++r) {
      if (input.IsNull(r) || !CountsDownward(r)) continue;
      const uint32_t node = down_node_[r];
      if (!AddChecked(values[r], &self[node]) || !AddChecked(values[r], &cumulative[node])) {
        return overflow;
      }
    }
    RETURN_IF_ERROR(PropagateCumulative(down_, cumulative));
  }
  if (!UpwardViews()) return absl::OkStatus();
  T* up_self = self + down_size;
  T* up_cumulative = cumulative + down_size;
  auto add_chain = [&](const UpwardPath& path, T v) {
    return AddChecked(v, &up_self[path.first]) && AddChecked(v, &up_cumulative[path.last]);
  };
  if (query_.view == View::kBottomUp) {
    for (uint32_t r = 0; r < tree_.rows; ++r) {
      if (input.IsNull(r) || values[r] == T{} || !states_[r].Counts(required_bits_)) continue;
      if (!add_chain(bottom_up_paths_[states_[r].kept], values[r])) return overflow;
    }
  } else {
    // Pivot: each anchor carries the downward total of the tree it starts.
    std::vector<T> weight(tree_.rows, T{});
    for (uint32_t r = 0; r < tree_.rows; ++r) {
      if (input.IsNull(r) || !CountsDownward(r)) continue;
      if (!AddChecked(values[r], &weight[states_[r].kept])) return overflow;
    }
    for (uint32_t r = tree_.rows; r-- > 0;) {
      if (!Kept(r) || down_node_[r] == kNoRow || down_.parent(down_node_[r]) == kNoRow) continue;
      if (!AddChecked(weight[r], &weight[states_[tree_.parent[r]].kept])) return overflow;
    }
    for (const auto& [frame, path] : pivot_anchors_) {
      if (!add_chain(path, weight[frame])) return overflow;
    }
  }
  return PropagateCumulative(up_, up_cumulative);
}

Groups GroupBy(uint32_t groups, const std::vector<std::pair<uint32_t, uint32_t>>& pairs) {
  Groups g;
  g.offsets.assign(groups + 1, 0);
  for (const auto& [group, item] : pairs) g.offsets[group + 1]++;
  for (uint32_t i = 0; i < groups; ++i) g.offsets[i + 1] += g.offsets[i];
  g.items.resize(pairs.size());
  std::vector<uint32_t> fill(g.offsets.begin(), g.offsets.end() - 1);
  for (const auto& [group, item] : pairs) g.items[fill[group]++] = item;  // stable
  return g;
}

void Builder::BuildAggregateRouting() {
  std::vector<std::pair<uint32_t, uint32_t>> pairs;
  for (uint32_t r = 0; r < tree_.rows; ++r) {
    if (states_[r].kept != kNoRow && !states_[r].StackHidden()) pairs.push_back({states_[r].kept, r});
  }
  frame_rows_ = GroupBy(tree_.rows, pairs);
  pairs.clear();
  const uint32_t down_size = down_.size();
  if (DownwardViews()) {
    for (uint32_t f = 0; f < tree_.rows; ++f) {
      if (Kept(f) && CountsDownward(f)) pairs.push_back({down_node_[f], f});
    }
  }
  for (const Constituent& c : constituents_) pairs.push_back({down_size + c.node, c.frame});
  node_frames_ = GroupBy(down_size + up_.size(), pairs);
}

absl::Status Builder::ComputeAggregate(const ResolvedAggregate& a, ResultColumn* out) {
  const uint32_t nodes = down_.size() + up_.size();
  out->present.assign(nodes, 0);
  const Column& in = *a.input;
  if (in.type == Column::Type::kNull) return absl::OkStatus();  // nothing to aggregate, ever
  auto for_each_value = [&](uint32_t node, auto&& fn) {
    for (uint32_t i = node_frames_.offsets[node]; i < node_frames_.offsets[node + 1]; ++i) {
      const uint32_t f = node_frames_.items[i];
      for (uint32_t j = frame_rows_.offsets[f]; j < frame_rows_.offsets[f + 1]; ++j) {
        const uint32_t row = frame_rows_.items[j];
        if (!in.IsNull(row)) fn(row);
      }
    }
  };
  if (a.kind == Aggregate::kSum) {
    out->type = in.type;
    if (in.type == Column::Type::kInt) out->ints.assign(nodes, 0);
    else out->doubles.assign(nodes, 0);
    bool overflow = false;
    for (uint32_t n = 0; n < nodes; ++n) {
      for_each_value(n, [&](uint32_t row) {
        out->present[n] = 1;
        if (in.type == Column::Type::kInt) {
          overflow |= !AddChecked(in.ints[row], &out->ints[n]);
        } else {
          out->doubles[n] += in.doubles[row];
        }
      });
    }
    if (overflow) return absl::InvalidArgumentError("flamegraph: integer aggregate overflow");
    return absl::OkStatus();
  }
  out->type = Column::Type::kString;
  out->strings.assign(nodes, {});
  std::string text;
  std::vector<uint64_t> distinct;
  for (uint32_t n = 0; n < nodes; ++n) {
    text.clear();
    distinct.clear();
    uint32_t first_row = kNoRow;
    for_each_value(n, [&](uint32_t row) {
      if (a.kind == Aggregate::kConcatWithComma) {
        if (!text.empty()) text.push_back(',');
        AppendAggregateText(in, row, tree_.strings, &text);
      } else {
        if (first_row == kNoRow) first_row = row;
        distinct.push_back(DistinctKey(in, row));
      }
    });
    if (a.kind == Aggregate::kOneOrSummary) {
      if (first_row == kNoRow) continue;
      std::sort(distinct.begin(), distinct.end());
      const size_t count =
          static_cast<size_t>(std::unique(distinct.begin(), distinct.end()) - distinct.begin());
      if (count == 1 && in.type == Column::Type::kString) {
        out->strings[n] = tree_.strings.Get(in.strings[first_row]);
        out->present[n] = 1;
        continue;
      }
      AppendAggregateText(in, first_row, tree_.strings, &text);
      if (count > 1) absl::StrAppend(&text, " and ", count, " others");
    } else if (text.empty()) {
      continue;
    }
    result_.owned_strings.push_back(text);
    out->strings[n] = result_.owned_strings.back();
    out->present[n] = 1;
  }
  return absl::OkStatus();
}

// The kept nodes of both halves in creation order (downward first), with depth and parent.
struct Packed {
  std::vector<uint32_t> source;          // combined node id
  std::vector<uint32_t> representative;  // the tree row naming the node
  std::vector<uint32_t> parent;          // packed index or kNoRow
  std::vector<int64_t> depth;
};

void AppendPacked(const NodeTree& nodes, uint32_t offset, bool upward,
                  const std::vector<uint8_t>& keep, Packed* out) {
  std::vector<uint32_t> packed_index(nodes.size(), kNoRow);
  for (uint32_t n = 0; n < nodes.size(); ++n) {
    if (!keep[offset + n]) continue;
    const uint32_t p = nodes.parent(n);
    const uint32_t packed_parent = p == kNoRow ? kNoRow : packed_index[p];
    const int64_t step = upward ? -1 : 1;
    packed_index[n] = static_cast<uint32_t>(out->source.size());
    out->source.push_back(offset + n);
    out->representative.push_back(nodes.representative(n));
    out->parent.push_back(packed_parent);
    out->depth.push_back(packed_parent == kNoRow ? step : out->depth[packed_parent] + step);
  }
}

// Render order and x positions: breadth first from the roots (the two strips merged by x, the
// downward one first on ties), children widest first, ties in packed order.
struct Layout {
  std::vector<uint32_t> node;        // output row -> packed index
  std::vector<uint32_t> parent_row;  // output row -> parent output row
  std::vector<double> x;
};

Layout ComputeLayout(const Packed& packed, const std::vector<double>& width) {
  const uint32_t n = static_cast<uint32_t>(packed.source.size());
  std::vector<uint32_t> by_width(n);
  for (uint32_t i = 0; i < n; ++i) by_width[i] = i;
  std::stable_sort(by_width.begin(), by_width.end(),
                   [&](uint32_t a, uint32_t b) { return width[a] > width[b]; });
  std::vector<uint32_t> child_offset(n + 1, 0);
  for (uint32_t i = 0; i < n; ++i) {
    if (packed.parent[i] != kNoRow) child_offset[packed.parent[i] + 1]++;
  }
  for (uint32_t i = 0; i < n; ++i) child_offset[i + 1] += child_offset[i];
  std::vector<uint32_t> fill(child_offset.begin(), child_offset.end() - 1);
  std::vector<uint32_t> children(child_offset[n]);
  std::vector<uint32_t> down_roots, up_roots;
  for (uint32_t i : by_width) {
    const uint32_t p = packed.parent[i];
    if (p != kNoRow) children[fill[p]++] = i;
    else if (packed.depth[i] >= 0) down_roots.push_back(i);
    else up_roots.push_back(i);
  }
  std::vector<double> x(n, 0);
  double strip = 0;
  for (uint32_t r : down_roots) { x[r] = strip; strip += width[r]; }
  strip = 0;
  for (uint32_t r : up_roots) { x[r] = strip; strip += width[r]; }

  Layout out;
  out.node.reserve(n);
  out.parent_row.reserve(n);
  out.x.reserve(n);
  auto emit = [&](uint32_t node, uint32_t parent_row) {
    out.node.push_back(node);
    out.parent_row.push_back(parent_row);
    out.x.push_back(x[node]);
  };
  for (size_t d = 0, u = 0; d < down_roots.size() || u < up_roots.size();) {
    if (u >= up_roots.size() || (d < down_roots.size() && x[down_roots[d]] <= x[up_roots[u]])) {
      emit(down_roots[d++], kNoRow);
    } else {
      emit(up_roots[u++], kNoRow);
    }
  }
  for (uint32_t row = 0; row < out.node.size(); ++row) {
    const uint32_t node = out.node[row];
    double offset = out.x[row];
    for (uint32_t i = child_offset[node]; i < child_offset[node + 1]; ++i) {
      x[children[i]] = offset;
      offset += width[children[i]];
      emit(children[i], row);
    }
  }
  return out;
}

ResultColumn Gather(const Column& c, const StringTable& strings,
                    const std::vector<uint32_t>& rows) {
  ResultColumn out;
  out.type = c.type;
  out.present.resize(rows.size());
  for (size_t i = 0; i < rows.size(); ++i) out.present[i] = c.present[rows[i]];
  switch (c.type) {
    case Column::Type::kNull:
      break;
    case Column::Type::kInt:
      out.ints.resize(rows.size());
      for (size_t i = 0; i < rows.size(); ++i) out.ints[i] = c.ints[rows[i]];
      break;
    case Column::Type::kDouble:
      out.doubles.resize(rows.size());
      for (size_t i = 0; i < rows.size(); ++i) out.doubles[i] = c.doubles[rows[i]];
      break;
    case Column::Type::kString:
      out.strings.resize(rows.size());
      for (size_t i = 0; i < rows.size(); ++i) {
        if (out.present[i]) out.strings[i] = strings.Get(c.strings[rows[i]]);
      }
      break;
  }
  return out;
}

ResultColumn GatherResult(ResultColumn in, const std::vector<uint32_t>& nodes) {
  ResultColumn out;
  out.type = in.type;
  out.present.resize(nodes.size());
  for (size_t i = 0; i < nodes.size(); ++i) out.present[i] = in.present[nodes[i]];
  auto gather = [&](auto& from, auto& to) {
    if (from.empty()) return;
    to.resize(nodes.size());
    for (size_t i = 0; i < nodes.size(); ++i) to[i] = from[nodes[i]];
  };
  gather(in.ints, out.ints);
  gather(in.doubles, out.doubles);
  gather(in.strings, out.strings);
  return out;
}

absl::StatusOr<Result> Builder::Run() {
  if (tree_.rows == 0) return std::move(result_);
  RETURN_IF_ERROR(Resolve());
  AssignFrames();
  AnalyzePaths();
  BuildDownward();
  BuildUpward();
  const uint32_t nodes = down_.size() + up_.size();

  // Values per node, and which nodes stay: those with any nonzero cumulative value.
  std::vector<ResultColumn> per_node;
  std::vector<uint8_t> keep(nodes, 0);
  for (const Column* v : values_) {
    ResultColumn self, cumulative;
    self.type = cumulative.type = v->type;
    self.present.assign(nodes, 1);
    cumulative.present.assign(nodes, 1);
    if (v->type == Column::Type::kInt) {
      Metric<int64_t> m;
      RETURN_IF_ERROR(AccumulateMetric(*v, &m));
      for (uint32_t n = 0; n < nodes; ++n) keep[n] |= m.cumulative[n] != 0;
      self.ints = std::move(m.self);
      cumulative.ints = std::move(m.cumulative);
    } else {
      Metric<double> m;
      RETURN_IF_ERROR(AccumulateMetric(*v, &m));
      for (uint32_t n = 0; n < nodes; ++n) keep[n] |= !(m.cumulative[n] == 0);
      self.doubles = std::move(m.self);
      cumulative.doubles = std::move(m.cumulative);
    }
    per_node.push_back(std::move(self));
    per_node.push_back(std::move(cumulative));
  }
  if (!aggregates_.empty()) {
    BuildAggregateRouting();
    for (const ResolvedAggregate& a : aggregates_) {
      per_node.emplace_back();
      RETURN_IF_ERROR(ComputeAggregate(a, &per_node.back()));
    }
  }

  Packed packed;
  AppendPacked(down_, 0, false, keep, &packed);
  AppendPacked(up_, down_.size(), true, keep, &packed);
  const ResultColumn& first_cumulative = per_node[1];
  std::vector<double> width(packed.source.size());
  for (size_t i = 0; i < width.size(); ++i) {
    const uint32_t n = packed.source[i];
    const double v = first_cumulative.type == Column::Type::kInt
                         ? static_cast<double>(first_cumulative.ints[n])
                         : first_cumulative.doubles[n];
    width[i] = std::max(v, 0.0);
  }
  const Layout layout = ComputeLayout(packed, width);

  const size_t rows = layout.node.size();
  result_.rows = static_cast<uint32_t>(rows);
  result_.geometry_is_int = values_[0]->type == Column::Type::kInt;
  result_.parent_row = layout.parent_row;
  result_.x_start = layout.x;
  std::vector<uint32_t> representative(rows), source(rows);
  result_.depth.resize(rows);
  result_.width.resize(rows);
  for (size_t i = 0; i < rows; ++i) {
    const uint32_t p = layout.node[i];
    representative[i] = packed.representative[p];
    source[i] = packed.source[p];
    result_.depth[i] = packed.depth[p];
    result_.width[i] = width[p];
  }
  result_.column_names.push_back("name");
  result_.columns.push_back(Gather(*name_, tree_.strings, representative));
  for (size_t g = 0; g < grouping_.size(); ++g) {
    result_.column_names.push_back(query_.grouping_columns[g]);
    result_.columns.push_back(Gather(*grouping_[g], tree_.strings, representative));
  }
  size_t next = 0;
  for (const std::string& v : query_.value_columns) {
    result_.column_names.push_back("self_" + v);
    result_.columns.push_back(GatherResult(std::move(per_node[next++]), source));
    result_.column_names.push_back("cumulative_" + v);
    result_.columns.push_back(GatherResult(std::move(per_node[next++]), source));
  }
  for (const ResolvedAggregate& a : aggregates_) {
    result_.column_names.push_back(a.name);
    result_.columns.push_back(GatherResult(std::move(per_node[next++]), source));
  }
  return std::move(result_);
}

}  // namespace

absl::StatusOr<Result> Build(const Tree& tree, const Query& query) {
  return Builder(tree, query).Run();
}

}  // namespace tw::flamegraph
