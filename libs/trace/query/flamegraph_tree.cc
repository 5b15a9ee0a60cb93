#include "libs/trace/query/flamegraph_tree.h"

#include <cstring>
#include <utility>

#include "absl/strings/str_cat.h"

namespace tw::flamegraph {

uint32_t StringTable::Intern(std::string_view s) {
  auto it = ids_.find(s);
  if (it != ids_.end()) return it->second;
  const uint32_t id = static_cast<uint32_t>(strings_.size());
  strings_.emplace_back(s);
  ids_.emplace(strings_.back(), id);
  return id;
}

int Tree::Find(std::string_view name) const {
  for (size_t i = 0; i < names.size(); ++i) {
    if (names[i] == name) return static_cast<int>(i);
  }
  return -1;
}

TreeBuilder::TreeBuilder(std::vector<std::string> names)
    : names_(std::move(names)), pending_(names_.size()) {}

void TreeBuilder::AddNull(size_t column) {
  pending_[column].bits.push_back(0);
  pending_[column].kind.push_back(static_cast<uint8_t>(Column::Type::kNull));
}

void TreeBuilder::AddInt(size_t column, int64_t v) {
  Pending& p = pending_[column];
  p.bits.push_back(static_cast<uint64_t>(v));
  p.kind.push_back(static_cast<uint8_t>(Column::Type::kInt));
  p.saw_int = true;
}

void TreeBuilder::AddDouble(size_t column, double v) {
  Pending& p = pending_[column];
  uint64_t bits;
  std::memcpy(&bits, &v, sizeof bits);
  p.bits.push_back(bits);
  p.kind.push_back(static_cast<uint8_t>(Column::Type::kDouble));
  p.saw_double = true;
}

void TreeBuilder::AddString(size_t column, std::string_view v) {
  Pending& p = pending_[column];
  p.bits.push_back(strings_.Intern(v));
  p.kind.push_back(static_cast<uint8_t>(Column::Type::kString));
  p.saw_string = true;
}

absl::Status TreeBuilder::AddBlob(size_t column) {
  return absl::InvalidArgumentError(
      absl::StrCat("flamegraph: column '", names_[column], "' holds a blob"));
}

namespace {

absl::StatusOr<Column> TypeColumn(const std::string& name, const std::vector<uint64_t>& bits,
                                  const std::vector<uint8_t>& kinds, bool saw_int,
                                  bool saw_double, bool saw_string) {
  if (saw_string && (saw_int || saw_double)) {
    return absl::InvalidArgumentError(
        absl::StrCat("flamegraph: column '", name, "' mixes text and numbers"));
  }
  Column c;
  const size_t n = bits.size();
  c.present.resize(n);
  for (size_t i = 0; i < n; ++i) c.present[i] = kinds[i] != uint8_t(Column::Type::kNull);
  if (saw_string) {
    c.type = Column::Type::kString;
    c.strings.resize(n);
    for (size_t i = 0; i < n; ++i) c.strings[i] = c.present[i] ? uint32_t(bits[i]) : 0;
  } else if (saw_double) {
    c.type = Column::Type::kDouble;
    c.doubles.resize(n);
    for (size_t i = 0; i < n; ++i) {
      if (kinds[i] == uint8_t(Column::Type::kInt)) {
        c.doubles[i] = static_cast<double>(static_cast<int64_t>(bits[i]));
      } else if (kinds[i] == uint8_t(Column::Type::kDouble)) {
        std::memcpy(&c.doubles[i], &bits[i], sizeof(double));
      }
    }
  } else if (saw_int) {
    c.type = Column::Type::kInt;
    c.ints.resize(n);
    for (size_t i = 0; i < n; ++i) c.ints[i] = static_cast<int64_t>(bits[i]);
  }
  return c;
}

template <typename T>
void Permute(std::vector<T>& v, const std::vector<uint32_t>& order) {
  if (v.empty()) return;
  std::vector<T> out(order.size());
  for (size_t i = 0; i < order.size(); ++i) out[i] = v[order[i]];
  v = std::move(out);
}

}  // namespace

absl::StatusOr<Tree> TreeBuilder::Finish() && {
  Tree tree;
  tree.names = std::move(names_);
  tree.strings = std::move(strings_);
  const uint32_t rows = pending_.empty() ? 0 : static_cast<uint32_t>(pending_[0].bits.size());
  tree.rows = rows;
  for (size_t c = 0; c < pending_.size(); ++c) {
    Pending& p = pending_[c];
    auto column = TypeColumn(tree.names[c], p.bits, p.kind, p.saw_int, p.saw_double, p.saw_string);
    if (!column.ok()) return column.status();
    tree.columns.push_back(std::move(*column));
    p = Pending();
  }
  if (rows == 0) return tree;

  const Column& id = tree.columns[0];
  const Column& parent_id = tree.columns[1];
  if (id.type != Column::Type::kInt) {
    return absl::InvalidArgumentError("flamegraph: id column must be integer");
  }
  if (parent_id.type != Column::Type::kInt && parent_id.type != Column::Type::kNull) {
    return absl::InvalidArgumentError("flamegraph: parent_id column must be integer");
  }
  absl::flat_hash_map<int64_t, uint32_t> row_of_id;
  row_of_id.reserve(rows);
  for (uint32_t r = 0; r < rows; ++r) {
    if (id.IsNull(r)) return absl::InvalidArgumentError("flamegraph: id must not be NULL");
    if (!row_of_id.emplace(id.ints[r], r).second) {
      return absl::InvalidArgumentError("flamegraph: duplicate id");
    }
  }
  std::vector<uint32_t> parent(rows, kNoRow);
  bool parents_first = true;
  if (parent_id.type == Column::Type::kInt) {
    for (uint32_t r = 0; r < rows; ++r) {
      if (parent_id.IsNull(r)) continue;
      auto it = row_of_id.find(parent_id.ints[r]);
      if (it == row_of_id.end()) {
        return absl::InvalidArgumentError("flamegraph: parent_id not found in id column");
      }
      parent[r] = it->second;
      parents_first &= it->second < r;
    }
  }
  if (parents_first) {
    tree.parent = std::move(parent);
    return tree;
  }

  // Topological order: from each row in input order, climb to the first placed (or missing)
  // ancestor, then place the climbed path root first.
  enum : uint8_t { kUnseen, kOnPath, kPlaced };
  std::vector<uint8_t> state(rows, kUnseen);
  std::vector<uint32_t> order;
  order.reserve(rows);
  std::vector<uint32_t> new_index(rows, kNoRow);
  std::vector<uint32_t> path;
  for (uint32_t start = 0; start < rows; ++start) {
    path.clear();
    uint32_t r = start;
    while (r != kNoRow && state[r] == kUnseen) {
      state[r] = kOnPath;
      path.push_back(r);
      r = parent[r];
    }
    if (r != kNoRow && state[r] == kOnPath) {
      return absl::InvalidArgumentError("flamegraph: cycle in the parent relation");
    }
    for (size_t i = path.size(); i-- > 0;) {
      new_index[path[i]] = static_cast<uint32_t>(order.size());
      state[path[i]] = kPlaced;
      order.push_back(path[i]);
    }
  }
  tree.parent.resize(rows);
  for (uint32_t i = 0; i < rows; ++i) {
    const uint32_t p = parent[order[i]];
    tree.parent[i] = p == kNoRow ? kNoRow : new_index[p];
  }
  for (Column& c : tree.columns) {
    Permute(c.ints, order);
    Permute(c.doubles, order);
    Permute(c.strings, order);
    Permute(c.present, order);
  }
  return tree;
}

}  // namespace tw::flamegraph
