#pragma once
// Tables are declared once, as data: a name, a doc, and per column a name, a type, flags, a
// default and a doc. TW_DEFINE_TABLE turns a declaration into the table class: typed column
// members (what trackers write and the query layer reads), a `Row` struct with a named field and
// default per column, and `Insert(const Row&)`. The virtual table SQLite sees (query/table_vtab)
// and the schema docs (`tracewise schema`, the agent's lookup_sql_schema) read the same columns.
//
// A declaration is an X-macro taking two callbacks, TABLE and COLUMN:
//
//   #define TW_FOO_TABLE(TABLE, COLUMN)   (every line of the macro ends in a backslash)
//     TABLE(FooTable, foo, "One row per foo the trace saw.")
//     COLUMN(ts, Int64, kSorted, {}, "When the foo happened (trace clock, ns).")
//     COLUMN(utid, OptUint32, kNone, {}, "The thread it happened on (thread.id).")
//   TW_DEFINE_TABLE(TW_FOO_TABLE)
//
// Column types (the C++ storage; SQL sees INTEGER, DOUBLE or TEXT): Int64, Uint32, Int32, Int8
// and Double, each with an Opt variant that may be NULL, and String (an interned StringId; the
// null id is NULL). Flags: kNone, kSorted (non-decreasing in row order: ranges binary-search),
// kHidden (not in SELECT *). The default is what Insert() stores when a Row leaves the field
// unset: `{}` is 0 / NULL / the null string.
//
// Then `storage.foo.Insert({.ts = t, .utid = u})` appends a row (designated initializers in
// column order; unnamed fields take their defaults) and returns its id.

#include <cstdint>
#include <optional>

#include "libs/trace/storage/column.h"
#include "libs/trace/storage/table.h"

namespace tw::column_type {

// Each type names its column class, the value a Row holds, and whether NULL is possible.
template <typename Storage, bool kIsNullable>
struct IntType {
  using ColumnClass = IntColumn<Storage>;
  using Value = std::conditional_t<kIsNullable, std::optional<Storage>, Storage>;
  static constexpr bool kNullable = kIsNullable;
};

using Int64 = IntType<int64_t, false>;
using OptInt64 = IntType<int64_t, true>;
using Uint32 = IntType<uint32_t, false>;
using OptUint32 = IntType<uint32_t, true>;
using Int32 = IntType<int32_t, false>;
using OptInt32 = IntType<int32_t, true>;
using Int8 = IntType<int8_t, false>;
using OptInt8 = IntType<int8_t, true>;

struct Double {
  using ColumnClass = DoubleColumn;
  using Value = double;
  static constexpr bool kNullable = false;
};
struct OptDouble {
  using ColumnClass = DoubleColumn;
  using Value = std::optional<double>;
  static constexpr bool kNullable = true;
};
struct String {
  using ColumnClass = StringColumn;
  using Value = StringId;
  static constexpr bool kNullable = true;  // the null id
};

}  // namespace tw::column_type

// --- expansions of a declaration (implementation details of TW_DEFINE_TABLE) ---------------

#define TW_TABLE_DECL_IGNORE_(...)

#define TW_TABLE_DECL_CLASS_(Class, sql_name, doc) \
  class Class : public ::tw::Table {               \
   public:                                         \
    Class() : ::tw::Table(#sql_name, doc) {}

#define TW_TABLE_DECL_MEMBER_(name, type, flags, def, doc)                                   \
  ::tw::column_type::type::ColumnClass name{this, #name, ::tw::column_type::type::kNullable, \
                                            ::tw::ColumnFlags::flags, doc};

#define TW_TABLE_DECL_ROW_FIELD_(name, type, flags, def, doc) \
  ::tw::column_type::type::Value name = def;

#define TW_TABLE_DECL_APPEND_(name, type, flags, def, doc) name.Append(row.name);

#define TW_TABLE_DECL_STORAGE_MEMBER_(Class, sql_name, doc) Class sql_name;
#define TW_TABLE_DECL_STORAGE_POINTER_(Class, sql_name, doc) &sql_name,

// Defines the table class of declaration DECL (see the top of this file).
// clang-format off
#define TW_DEFINE_TABLE(DECL)                                                    \
  DECL(TW_TABLE_DECL_CLASS_, TW_TABLE_DECL_IGNORE_)                              \
  DECL(TW_TABLE_DECL_IGNORE_, TW_TABLE_DECL_MEMBER_)                             \
  /* One row's values, in column order; unset fields take the declared default. */ \
  struct Row {                                                                   \
    DECL(TW_TABLE_DECL_IGNORE_, TW_TABLE_DECL_ROW_FIELD_)                        \
  };                                                                             \
  /* Appends `row` and returns its id. */                                        \
  uint32_t Insert(const Row& row) {                                              \
    DECL(TW_TABLE_DECL_IGNORE_, TW_TABLE_DECL_APPEND_)                           \
    return CommitRow();                                                          \
  }                                                                              \
  };
// clang-format on

// In TraceStorage: the member holding declaration DECL's table (named as the SQL table), and
// its entry in a braced list of Table pointers.
#define TW_STORAGE_TABLE_MEMBER(DECL) DECL(TW_TABLE_DECL_STORAGE_MEMBER_, TW_TABLE_DECL_IGNORE_)
#define TW_STORAGE_TABLE_POINTER(DECL) DECL(TW_TABLE_DECL_STORAGE_POINTER_, TW_TABLE_DECL_IGNORE_)
