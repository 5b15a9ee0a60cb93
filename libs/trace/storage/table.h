#pragma once
// A named table: the columns of its declaration (tables/*.h, see table_declaration.h) in
// declaration order, plus the implicit `id` column (the row number).

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "libs/trace/storage/column.h"

namespace tw {

class Table {
 public:
  Table(std::string name, std::string_view doc) : name_(std::move(name)), doc_(doc) {}
  virtual ~Table() = default;
  Table(const Table&) = delete;
  Table& operator=(const Table&) = delete;

  const std::string& name() const { return name_; }
  // What a row of the table is, from its declaration.
  std::string_view doc() const { return doc_; }
  uint32_t row_count() const { return rows_; }
  const std::vector<Column*>& columns() const { return columns_; }
  size_t memory_bytes() const;

  void RegisterColumn(Column* c) { columns_.push_back(c); }
  // Called after a value was appended to every column; returns the new row's id.
  uint32_t CommitRow() { return rows_++; }

 private:
  std::string name_;
  std::string_view doc_;
  std::vector<Column*> columns_;
  uint32_t rows_ = 0;
};

inline Column::Column(Table* table, std::string name, ColumnType type, uint32_t flags,
                      std::string_view doc)
    : name_(std::move(name)), doc_(doc), type_(type), flags_(flags) {
  table->RegisterColumn(this);
}

inline size_t Table::memory_bytes() const {
  size_t total = 0;
  for (const Column* c : columns_) total += c->memory_bytes();
  return total;
}

}  // namespace tw
