#include "libs/trace/query/flamegraph_text.h"

#include <cinttypes>
#include <cstdio>
#include <cstring>

namespace tw::flamegraph {
namespace {

uint64_t DoubleBits(double v) {
  if (v == 0) return 0;  // -0.0 and 0.0 are one value
  uint64_t bits;
  std::memcpy(&bits, &v, sizeof bits);
  return bits;
}

}  // namespace

bool CellText(const Column& c, uint32_t row, const StringTable& strings, std::string* out) {
  if (c.IsNull(row)) return false;
  char buf[40];
  switch (c.type) {
    case Column::Type::kNull:
      return false;
    case Column::Type::kString:
      out->assign(strings.Get(c.strings[row]));
      return true;
    case Column::Type::kInt:
      std::snprintf(buf, sizeof buf, "%" PRId64, c.ints[row]);
      break;
    case Column::Type::kDouble:
      std::snprintf(buf, sizeof buf, "%.15g", c.doubles[row]);
      break;
  }
  out->assign(buf);
  return true;
}

void AppendAggregateText(const Column& c, uint32_t row, const StringTable& strings,
                         std::string* out) {
  std::string text;
  if (!CellText(c, row, strings, &text)) return;
  out->append(text);
  // SQLite prints an integral real with ".0"; infinities and NaN stay as they are.
  if (c.type == Column::Type::kDouble && text.find_first_of(".eEnN") == std::string::npos) {
    out->append(".0");
  }
}

void AppendCellKey(const Column& c, uint32_t row, std::string* key) {
  uint64_t bits = 0;
  char tag = 'n';
  if (!c.IsNull(row)) {
    switch (c.type) {
      case Column::Type::kNull:
        break;
      case Column::Type::kInt:
        tag = 'i';
        bits = static_cast<uint64_t>(c.ints[row]);
        break;
      case Column::Type::kDouble:
        tag = 'd';
        bits = DoubleBits(c.doubles[row]);
        break;
      case Column::Type::kString:
        tag = 's';
        bits = c.strings[row];
        break;
    }
  }
  key->push_back(tag);
  key->append(reinterpret_cast<const char*>(&bits), sizeof bits);
}

uint64_t DistinctKey(const Column& c, uint32_t row) {
  switch (c.type) {
    case Column::Type::kInt:
      return static_cast<uint64_t>(c.ints[row]);
    case Column::Type::kDouble:
      return DoubleBits(c.doubles[row]);
    case Column::Type::kString:
      return c.strings[row];
    case Column::Type::kNull:
      break;
  }
  return 0;
}

}  // namespace tw::flamegraph
