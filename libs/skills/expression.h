#pragma once
// The small expression language of skills (`when:` conditions, rule conditions, `{{ }}` in
// templates, step parameters). Our own, deliberately tiny:
//
//   literals     1  -2  1.5  'text'  "text"  true  false  null  [1, 2, 'a']
//   references   inputs.pid   steps.frames.rows[0].jank_count   steps.frames.row_count
//                row.dur (the current row inside for_each bodies and per-row rules)
//   functions    len(x)  abs(x)  min(a, b, ...)  max(a, b, ...)  coalesce(a, b, ...)
//                json(x): JSON text of rows / a row / a list / a value (to pass results to SQL)
//                if(c, a, b): a when c is true, else b (both are evaluated; neither has effects)
//   operators    * / %   + -   == != < <= > >=   in   not in   not   and   or
//
// Expressions are parsed once (at skill load time, so a malformed one is a validation error
// with its position) and evaluated against a scope. Evaluation has no side effects, runs in time
// linear in the expression's size (there are no loops or user functions) and never throws:
// type errors are returned as statuses. Null propagates through arithmetic and ordering
// comparisons and counts as false; an out-of-range row index gives null so guards such as
// `len(steps.x.rows) > 0 and steps.x.rows[0].n > 3` read naturally.

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

#include "absl/status/statusor.h"
#include "libs/trace/query/sql_value.h"

namespace tw::skills {

struct StepResult;  // step_result.h

// A value during evaluation. Rows and results are referenced, never copied.
struct ExprValue {
  struct List {
    std::vector<ExprValue> items;
  };
  struct Result {  // a whole step result: .rows, .row_count, .columns, .status
    const StepResult* result;
  };
  struct Rows {  // a step result's rows: [i], len()
    const StepResult* result;
  };
  struct Row {  // one row: .column
    const StepResult* result;
    size_t index;
  };
  struct Object {  // `inputs` / `steps`: resolved by the scope
    int kind;
  };
  std::variant<std::monostate, bool, int64_t, double, std::string, std::shared_ptr<List>, Result,
               Rows, Row, Object>
      v;

  static ExprValue Null() { return {}; }
  static ExprValue FromSql(const SqlValue& value);
  bool is_null() const { return std::holds_alternative<std::monostate>(v); }
  // Truthiness for conditions: null/false/0/""/empty list are false.
  bool Truthy() const;
  // For messages and templates: numbers as written, strings bare, null as "null".
  std::string ToString() const;
  // Scalars only (null, bool, int, double, string); others are INVALID_ARGUMENT.
  absl::StatusOr<SqlValue> ToSql() const;
  const char* TypeName() const;
};

// What names mean during evaluation.
class ExprScope {
 public:
  virtual ~ExprScope() = default;
  // `inputs.<name>`. NOT_FOUND if there is no such input.
  virtual absl::StatusOr<ExprValue> Input(std::string_view name) const = 0;
  // `steps.<id>`: null if the step did not run (skipped, failed optional); NOT_FOUND if no step
  // with that id ran or is known.
  virtual absl::StatusOr<ExprValue> Step(std::string_view id) const = 0;
  // `row`: the current row; NOT_FOUND outside a per-row context.
  virtual absl::StatusOr<ExprValue> CurrentRow() const = 0;
};

// A reference an expression makes, for validation: `steps.<step>` (with `column` set when the
// expression reads `.rows[...].<column>`), `inputs.<input>`, or `row.<column>`.
struct ExprReference {
  enum class Kind { kInput, kStep, kRow };
  Kind kind;
  std::string name;    // input name, step id, or (kRow) column
  std::string column;  // kStep: the column read from its rows, if any
  int offset = 0;      // in the expression text
};

class Expression {
 public:
  // Errors: INVALID_ARGUMENT "offset N: message".
  static absl::StatusOr<Expression> Parse(std::string_view text);

  Expression();
  ~Expression();
  Expression(Expression&&) noexcept;
  Expression& operator=(Expression&&) noexcept;
  Expression(const Expression&);
  Expression& operator=(const Expression&);

  absl::StatusOr<ExprValue> Evaluate(const ExprScope& scope) const;
  // Evaluate, then Truthy().
  absl::StatusOr<bool> EvaluateCondition(const ExprScope& scope) const;

  const std::string& text() const { return text_; }
  bool empty() const { return root_ == nullptr; }
  std::vector<ExprReference> References() const;

  struct Node;

 private:
  std::string text_;
  std::shared_ptr<const Node> root_;  // immutable once parsed, so copies share it
};

// A string with `{{ expression }}` holes, e.g. "Frame {{ row.frame_id }} took {{ row.dur_ms }} ms".
class Template {
 public:
  // Errors: INVALID_ARGUMENT for an unclosed `{{` or a bad expression ("offset N: ...").
  static absl::StatusOr<Template> Parse(std::string_view text);
  absl::StatusOr<std::string> Render(const ExprScope& scope) const;
  const std::string& text() const { return text_; }
  std::vector<ExprReference> References() const;

 private:
  std::string text_;
  // Alternating literal text and expressions: literal[i], then expression[i] if present.
  std::vector<std::string> literals_;
  std::vector<Expression> holes_;
};

}  // namespace tw::skills
