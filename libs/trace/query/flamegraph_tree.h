#pragma once
// The input of a flamegraph (flamegraph.h): a tree given as rows of (id, parent_id, name, value,
// any other columns), held as typed columns in parent-before-child order.
//
// Each column takes the type of the values it saw: all NULL → kNull; integers only → kInt;
// integers and reals → kDouble; text only → kString. Text mixed with numbers, or blobs, are an
// error. Rows keep their input order when every parent precedes its children; otherwise they are
// reordered topologically: for each row in input order, its not-yet-placed ancestors are placed
// root first, then the row. Errors: id not an integer, duplicate ids, a parent_id naming no row,
// a cycle.

#include <cstdint>
#include <deque>
#include <string>
#include <string_view>
#include <vector>

#include "absl/container/flat_hash_map.h"
#include "absl/status/statusor.h"

namespace tw::flamegraph {

inline constexpr uint32_t kNoRow = 0xffffffffu;

// Interned text: equal strings share an id, so frame identity is an integer comparison.
class StringTable {
 public:
  uint32_t Intern(std::string_view s);
  std::string_view Get(uint32_t id) const { return strings_[id]; }

 private:
  std::deque<std::string> strings_;  // deque: views into it stay valid as it grows
  absl::flat_hash_map<std::string_view, uint32_t> ids_;
};

struct Column {
  enum class Type : uint8_t { kNull, kInt, kDouble, kString };
  Type type = Type::kNull;
  std::vector<int64_t> ints;       // kInt
  std::vector<double> doubles;     // kDouble
  std::vector<uint32_t> strings;   // kString: StringTable ids
  std::vector<uint8_t> present;    // 1 where the cell is not NULL (every type)

  bool IsNull(uint32_t row) const { return present[row] == 0; }
  bool numeric() const { return type == Type::kInt || type == Type::kDouble; }
  double AsDouble(uint32_t row) const {
    return type == Type::kInt ? static_cast<double>(ints[row]) : doubles[row];
  }
};

struct Tree {
  uint32_t rows = 0;
  std::vector<uint32_t> parent;  // row index of the parent (always < the row), kNoRow for roots
  std::vector<std::string> names;
  std::vector<Column> columns;   // columns[0] id, [1] parent_id, then the rest, as named
  StringTable strings;

  // Index of the column called `name`, -1 when there is none.
  int Find(std::string_view name) const;
};

// Collects the cells of a tree row by row, then types the columns and orders the rows.
class TreeBuilder {
 public:
  // `names[0]` must be the id column and `names[1]` the parent_id column.
  explicit TreeBuilder(std::vector<std::string> names);

  void AddNull(size_t column);
  void AddInt(size_t column, int64_t v);
  void AddDouble(size_t column, double v);
  void AddString(size_t column, std::string_view v);
  absl::Status AddBlob(size_t column);

  absl::StatusOr<Tree> Finish() &&;

 private:
  // A cell before its column's type is known: the number's bits or the string id.
  struct Pending {
    std::vector<uint64_t> bits;
    std::vector<uint8_t> kind;  // Column::Type of each cell
    bool saw_int = false, saw_double = false, saw_string = false;
  };
  std::vector<std::string> names_;
  std::vector<Pending> pending_;
  StringTable strings_;
};

}  // namespace tw::flamegraph
