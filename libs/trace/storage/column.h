#pragma once
// Typed, append-only columns of a table. A table is a set of columns of equal length; SQLite sees
// them through the virtual-table module in query/. Values are exposed as one of three SQL
// types (integer, real, text); narrower storage (int32, int8) is an implementation detail.

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "libs/trace/storage/packed_int_vector.h"
#include "libs/trace/storage/string_pool.h"

namespace tw {

class Table;

enum class ColumnType : uint8_t { kInt, kDouble, kString };

// Flags describing what the query layer may assume about a column.
enum ColumnFlags : uint32_t {
  kNone = 0,
  kSorted = 1 << 0,  // non-decreasing in row order (e.g. ts of tables filled in time order)
  kHidden = 1 << 1,  // not part of SELECT *
};

class Column {
 public:
  Column(Table* table, std::string name, ColumnType type, uint32_t flags, std::string_view doc);
  virtual ~Column() = default;
  Column(const Column&) = delete;
  Column& operator=(const Column&) = delete;

  const std::string& name() const { return name_; }
  // What the column means, from the table's declaration (tables/*.h).
  std::string_view doc() const { return doc_; }
  ColumnType type() const { return type_; }
  bool nullable() const { return nullable_; }
  uint32_t flags() const { return flags_; }
  void set_flags(uint32_t f) { flags_ = f; }

  virtual bool IsNull(uint32_t row) const = 0;
  // Only meaningful for the column's own type and non-null cells.
  virtual int64_t GetInt(uint32_t row) const { return 0; }
  virtual double GetDouble(uint32_t row) const { return 0; }
  virtual StringId GetString(uint32_t row) const { return kNullStringId; }
  // Hints the CPU to start loading `row`'s cell: index-driven scans visit rows scattered through
  // the table and call this a few rows ahead, so the cache misses overlap instead of queueing.
  virtual void Prefetch(uint32_t row) const {}
  virtual size_t memory_bytes() const = 0;

 private:
  std::string name_;
  std::string_view doc_;
  ColumnType type_;
  uint32_t flags_;

 protected:
  bool nullable_ = false;
};

// Bit set of NULL cells, allocated only for nullable columns.
class NullBits {
 public:
  void Append(bool is_null) {
    if ((size_ & 63) == 0) words_.push_back(0);
    if (is_null) words_.back() |= uint64_t{1} << (size_ & 63);
    ++size_;
  }
  bool Get(uint32_t i) const { return (words_[i >> 6] >> (i & 63)) & 1; }
  void Set(uint32_t i, bool is_null) {
    if (is_null) {
      words_[i >> 6] |= uint64_t{1} << (i & 63);
    } else {
      words_[i >> 6] &= ~(uint64_t{1} << (i & 63));
    }
  }
  size_t memory_bytes() const { return words_.capacity() * 8; }

 private:
  std::vector<uint64_t> words_;
  uint32_t size_ = 0;
};

// Integer column of type T (int64_t, int32_t, uint32_t, int8_t...), stored per chunk in the
// fewest bytes its values need (PackedIntVector). Nullable columns keep a NullBits;
// non-nullable columns have none. A NULL cell stores the column's previous value rather than 0,
// so it never widens its chunk: thread_state.waker_id, a row id (millions) on the rows that
// have one and NULL on most others, packs in 2 bytes a row instead of 4.
template <typename T>
class IntColumn : public Column {
 public:
  IntColumn(Table* table, std::string name, bool nullable, uint32_t flags, std::string_view doc)
      : Column(table, std::move(name), ColumnType::kInt, flags, doc) {
    nullable_ = nullable;
  }

  void Append(T v) {
    values_.push_back(v);
    if (nullable_) nulls_.Append(false);
  }
  void Append(std::optional<T> v) {
    if (v) {
      Append(*v);
    } else {
      AppendNull();
    }
  }
  void AppendNull() {
    if (!nullable_) {
      values_.push_back(T{});
      return;
    }
    values_.push_back(values_.empty() ? T{} : values_[values_.size() - 1]);
    nulls_.Append(true);
  }
  void Set(uint32_t row, T v) {
    values_.Set(row, v);
    if (nullable_) nulls_.Set(row, false);
  }
  void SetNull(uint32_t row) { nulls_.Set(row, true); }
  // 0 for a NULL cell (what its storage holds is only a filler).
  T operator[](uint32_t row) const { return nullable_ && nulls_.Get(row) ? T{} : values_[row]; }
  std::optional<T> Get(uint32_t row) const {
    if (IsNull(row)) return std::nullopt;
    return values_[row];
  }
  uint32_t size() const { return values_.size(); }

  bool IsNull(uint32_t row) const override { return nullable_ && nulls_.Get(row); }
  int64_t GetInt(uint32_t row) const override { return static_cast<int64_t>(values_[row]); }
  void Prefetch(uint32_t row) const override { __builtin_prefetch(values_.address(row)); }
  size_t memory_bytes() const override { return values_.memory_bytes() + nulls_.memory_bytes(); }

 private:
  PackedIntVector<T> values_;
  NullBits nulls_;
};

class DoubleColumn : public Column {
 public:
  DoubleColumn(Table* table, std::string name, bool nullable, uint32_t flags, std::string_view doc)
      : Column(table, std::move(name), ColumnType::kDouble, flags, doc) {
    nullable_ = nullable;
  }
  void Append(double v) {
    values_.push_back(v);
    if (nullable_) nulls_.Append(false);
  }
  void Append(std::optional<double> v) {
    values_.push_back(v ? *v : 0.0);
    if (nullable_) nulls_.Append(!v.has_value());
  }
  void Set(uint32_t row, double v) {
    values_.Set(row, v);
    if (nullable_) nulls_.Set(row, false);
  }
  double operator[](uint32_t row) const { return values_[row]; }
  bool IsNull(uint32_t row) const override { return nullable_ && nulls_.Get(row); }
  double GetDouble(uint32_t row) const override { return values_[row]; }
  void Prefetch(uint32_t row) const override { __builtin_prefetch(values_.address(row)); }
  size_t memory_bytes() const override { return values_.memory_bytes() + nulls_.memory_bytes(); }

 private:
  PackedDoubleVector values_;
  NullBits nulls_;
};

// String column of interned ids, packed like an IntColumn; kNullStringId is NULL.
class StringColumn : public Column {
 public:
  // Always nullable: the null string id is NULL.
  StringColumn(Table* table, std::string name, bool /*nullable*/, uint32_t flags,
               std::string_view doc)
      : Column(table, std::move(name), ColumnType::kString, flags, doc) {
    nullable_ = true;
  }
  void Append(StringId v) { values_.push_back(v); }
  void Set(uint32_t row, StringId v) { values_.Set(row, v); }
  StringId operator[](uint32_t row) const { return values_[row]; }
  bool IsNull(uint32_t row) const override { return values_[row] == kNullStringId; }
  StringId GetString(uint32_t row) const override { return values_[row]; }
  void Prefetch(uint32_t row) const override { __builtin_prefetch(values_.address(row)); }
  size_t memory_bytes() const override { return values_.memory_bytes(); }

 private:
  PackedIntVector<StringId> values_;
};

}  // namespace tw
