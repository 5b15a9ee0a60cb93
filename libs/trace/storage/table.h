#pragma once
// A named table: the columns declared by a subclass, in declaration order, plus the implicit
// `id` column (the row number). Subclasses declare typed column members and an Insert().

#include <cstdint>
#include <string>
#include <vector>

#include "libs/trace/storage/column.h"

namespace tw {

class Table {
 public:
  explicit Table(std::string name) : name_(std::move(name)) {}
  virtual ~Table() = default;
  Table(const Table&) = delete;
  Table& operator=(const Table&) = delete;

  const std::string& name() const { return name_; }
  uint32_t row_count() const { return rows_; }
  const std::vector<Column*>& columns() const { return columns_; }
  // Other names the `id` column answers to (e.g. `utid` for thread, `slice_id` for slice).
  const std::vector<std::string>& id_aliases() const { return id_aliases_; }
  size_t memory_bytes() const;

  void RegisterColumn(Column* c) { columns_.push_back(c); }
  // Called after a value was appended to every column; returns the new row's id.
  uint32_t CommitRow() { return rows_++; }

 protected:
  void AddIdAlias(std::string alias) { id_aliases_.push_back(std::move(alias)); }

 private:
  std::string name_;
  std::vector<Column*> columns_;
  std::vector<std::string> id_aliases_;
  uint32_t rows_ = 0;
};

inline Column::Column(Table* table, std::string name, ColumnType type, uint32_t flags)
    : name_(std::move(name)), type_(type), flags_(flags) {
  table->RegisterColumn(this);
}

inline size_t Table::memory_bytes() const {
  size_t total = 0;
  for (const Column* c : columns_) total += c->memory_bytes();
  return total;
}

}  // namespace tw
