#include "libs/skills/expression.h"

#include <cmath>
#include <cstdlib>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "libs/common/status_macros.h"
#include "libs/skills/step_result.h"
#include "libs/trace/query/result_format.h"

namespace tw::skills {

// ---------------------------------------------------------------------------------------------
// Values

ExprValue ExprValue::FromSql(const SqlValue& value) {
  switch (value.type) {
    case SqlValue::Type::kNull:
      return Null();
    case SqlValue::Type::kInt:
      return ExprValue{value.int_value};
    case SqlValue::Type::kDouble:
      return ExprValue{value.double_value};
    case SqlValue::Type::kString:
      return ExprValue{value.string_value};
  }
  return Null();
}

bool ExprValue::Truthy() const {
  if (auto* b = std::get_if<bool>(&v)) return *b;
  if (auto* i = std::get_if<int64_t>(&v)) return *i != 0;
  if (auto* d = std::get_if<double>(&v)) return *d != 0 && !std::isnan(*d);
  if (auto* s = std::get_if<std::string>(&v)) return !s->empty();
  if (auto* l = std::get_if<std::shared_ptr<List>>(&v)) return !(*l)->items.empty();
  if (auto* r = std::get_if<Rows>(&v)) return !r->result->rows.empty();
  if (is_null()) return false;
  return true;  // a result, a row, an object
}

const char* ExprValue::TypeName() const {
  switch (v.index()) {
    case 0:
      return "null";
    case 1:
      return "bool";
    case 2:
      return "int";
    case 3:
      return "float";
    case 4:
      return "string";
    case 5:
      return "list";
    case 6:
      return "step result";
    case 7:
      return "rows";
    case 8:
      return "row";
    default:
      return "object";
  }
}

std::string ExprValue::ToString() const {
  if (is_null()) return "null";
  if (auto* b = std::get_if<bool>(&v)) return *b ? "true" : "false";
  if (auto* i = std::get_if<int64_t>(&v)) return absl::StrCat(*i);
  if (auto* d = std::get_if<double>(&v)) {
    // Up to 3 decimals, trailing zeros dropped: what a reader of a finding wants to see.
    std::string s = absl::StrFormat("%.3f", *d);
    while (!s.empty() && s.back() == '0') s.pop_back();
    if (!s.empty() && s.back() == '.') s.pop_back();
    return s;
  }
  if (auto* s = std::get_if<std::string>(&v)) return *s;
  if (auto* l = std::get_if<std::shared_ptr<List>>(&v)) {
    std::string out = "[";
    for (size_t i = 0; i < (*l)->items.size(); ++i) {
      if (i) out += ", ";
      out += (*l)->items[i].ToString();
    }
    return out + "]";
  }
  return absl::StrCat("<", TypeName(), ">");
}

absl::StatusOr<SqlValue> ExprValue::ToSql() const {
  if (is_null()) return SqlValue::Null();
  if (auto* b = std::get_if<bool>(&v)) return SqlValue::Int(*b ? 1 : 0);
  if (auto* i = std::get_if<int64_t>(&v)) return SqlValue::Int(*i);
  if (auto* d = std::get_if<double>(&v)) return SqlValue::Double(*d);
  if (auto* s = std::get_if<std::string>(&v)) return SqlValue::String(*s);
  return absl::InvalidArgumentError(absl::StrCat("a ", TypeName(), " cannot be a SQL parameter"));
}

// ---------------------------------------------------------------------------------------------
// Syntax tree

struct Expression::Node {
  enum class Kind { kLiteral, kList, kRoot, kMember, kIndex, kCall, kNot, kNegate, kBinary };
  Kind kind;
  int offset = 0;
  ExprValue literal;   // kLiteral
  std::string name;    // kRoot (inputs/steps/row), kMember (field), kCall (function), kBinary (op)
  std::vector<std::shared_ptr<const Node>> children;
};

namespace {

using Node = Expression::Node;
using NodePtr = std::shared_ptr<const Node>;

constexpr int kMaxDepth = 64;
constexpr size_t kMaxStringBytes = 1 << 20;  // string concatenation stays bounded

enum class TokKind { kEnd, kInt, kFloat, kString, kIdent, kOp };

struct Token {
  TokKind kind = TokKind::kEnd;
  std::string text;  // identifier / operator / decoded string
  int64_t int_value = 0;
  double float_value = 0;
  int offset = 0;
};

absl::Status ErrorAt(int offset, std::string_view message) {
  return absl::InvalidArgumentError(absl::StrCat("offset ", offset, ": ", std::string(message)));
}

absl::StatusOr<std::vector<Token>> Tokenize(std::string_view s) {
  std::vector<Token> out;
  size_t i = 0;
  while (i < s.size()) {
    const char c = s[i];
    if (c == ' ' || c == '\t' || c == '\n' || c == '\r') {
      ++i;
      continue;
    }
    Token t;
    t.offset = static_cast<int>(i);
    if (std::isdigit(static_cast<unsigned char>(c))) {
      size_t j = i;
      bool is_float = false;
      while (j < s.size() && std::isdigit(static_cast<unsigned char>(s[j]))) ++j;
      if (j + 1 < s.size() && s[j] == '.' && std::isdigit(static_cast<unsigned char>(s[j + 1]))) {
        is_float = true;
        ++j;
        while (j < s.size() && std::isdigit(static_cast<unsigned char>(s[j]))) ++j;
      }
      if (j < s.size() && (s[j] == 'e' || s[j] == 'E')) {
        size_t k = j + 1;
        if (k < s.size() && (s[k] == '+' || s[k] == '-')) ++k;
        if (k < s.size() && std::isdigit(static_cast<unsigned char>(s[k]))) {
          is_float = true;
          j = k;
          while (j < s.size() && std::isdigit(static_cast<unsigned char>(s[j]))) ++j;
        }
      }
      const std::string text(s.substr(i, j - i));
      if (is_float) {
        t.kind = TokKind::kFloat;
        t.float_value = std::strtod(text.c_str(), nullptr);
      } else {
        t.kind = TokKind::kInt;
        errno = 0;
        t.int_value = std::strtoll(text.c_str(), nullptr, 10);
        if (errno == ERANGE) return ErrorAt(t.offset, "integer literal out of range");
      }
      t.text = text;
      i = j;
    } else if (std::isalpha(static_cast<unsigned char>(c)) || c == '_') {
      size_t j = i;
      while (j < s.size() && (std::isalnum(static_cast<unsigned char>(s[j])) || s[j] == '_')) ++j;
      t.kind = TokKind::kIdent;
      t.text = std::string(s.substr(i, j - i));
      i = j;
    } else if (c == '\'' || c == '"') {
      size_t j = i + 1;
      std::string value;
      bool closed = false;
      while (j < s.size()) {
        if (s[j] == c) {
          closed = true;
          ++j;
          break;
        }
        if (s[j] == '\\' && j + 1 < s.size()) {
          const char e = s[j + 1];
          value.push_back(e == 'n' ? '\n' : e == 't' ? '\t' : e);
          j += 2;
          continue;
        }
        value.push_back(s[j++]);
      }
      if (!closed) return ErrorAt(t.offset, "unterminated string");
      t.kind = TokKind::kString;
      t.text = std::move(value);
      i = j;
    } else {
      static constexpr std::string_view kTwoChar[] = {"==", "!=", "<=", ">=", "&&", "||"};
      t.kind = TokKind::kOp;
      bool two = false;
      for (std::string_view op : kTwoChar) {
        if (s.substr(i, 2) == op) {
          t.text = std::string(op);
          two = true;
          break;
        }
      }
      if (two) {
        i += 2;
      } else if (std::string_view("+-*/%<>()[],.!").find(c) != std::string_view::npos) {
        t.text = std::string(1, c);
        ++i;
      } else {
        return ErrorAt(t.offset, absl::StrCat("unexpected character '", std::string(1, c), "'"));
      }
      // Aliases people type out of habit.
      if (t.text == "&&") t.text = "and";
      if (t.text == "||") t.text = "or";
      if (t.text == "!") t.text = "not";
    }
    out.push_back(std::move(t));
  }
  Token end;
  end.offset = static_cast<int>(s.size());
  out.push_back(end);
  return out;
}

class Parser {
 public:
  explicit Parser(std::vector<Token> tokens) : tokens_(std::move(tokens)) {}

  absl::StatusOr<NodePtr> ParseAll() {
    ASSIGN_OR_RETURN(NodePtr root, ParseOr(0));
    if (Peek().kind != TokKind::kEnd) {
      return ErrorAt(Peek().offset, absl::StrCat("unexpected '", Peek().text, "'"));
    }
    return root;
  }

 private:
  const Token& Peek(size_t ahead = 0) const {
    return tokens_[std::min(pos_ + ahead, tokens_.size() - 1)];
  }
  const Token& Take() { return tokens_[std::min(pos_++, tokens_.size() - 1)]; }
  // An operator or a keyword (identifier) with this text.
  bool IsWord(const Token& t, std::string_view w) const {
    return (t.kind == TokKind::kOp || t.kind == TokKind::kIdent) && t.text == w;
  }
  absl::Status Expect(std::string_view op) {
    if (!IsWord(Peek(), op)) {
      return ErrorAt(Peek().offset, absl::StrCat("expected '", std::string(op), "'",
                                                 Peek().kind == TokKind::kEnd
                                                     ? " before the end"
                                                     : absl::StrCat(" at '", Peek().text, "'")));
    }
    ++pos_;
    return absl::OkStatus();
  }
  absl::Status CheckDepth(int depth) {
    if (depth > kMaxDepth) return ErrorAt(Peek().offset, "expression nested too deeply");
    return absl::OkStatus();
  }

  static NodePtr Binary(std::string op, int offset, NodePtr a, NodePtr b) {
    auto n = std::make_shared<Node>();
    n->kind = Node::Kind::kBinary;
    n->name = std::move(op);
    n->offset = offset;
    n->children = {std::move(a), std::move(b)};
    return n;
  }

  absl::StatusOr<NodePtr> ParseOr(int depth) {
    RETURN_IF_ERROR(CheckDepth(depth));
    ASSIGN_OR_RETURN(NodePtr lhs, ParseAnd(depth + 1));
    while (IsWord(Peek(), "or")) {
      const int off = Take().offset;
      ASSIGN_OR_RETURN(NodePtr rhs, ParseAnd(depth + 1));
      lhs = Binary("or", off, lhs, rhs);
    }
    return lhs;
  }
  absl::StatusOr<NodePtr> ParseAnd(int depth) {
    ASSIGN_OR_RETURN(NodePtr lhs, ParseNot(depth + 1));
    while (IsWord(Peek(), "and")) {
      const int off = Take().offset;
      ASSIGN_OR_RETURN(NodePtr rhs, ParseNot(depth + 1));
      lhs = Binary("and", off, lhs, rhs);
    }
    return lhs;
  }
  absl::StatusOr<NodePtr> ParseNot(int depth) {
    RETURN_IF_ERROR(CheckDepth(depth));
    if (IsWord(Peek(), "not")) {
      const int off = Take().offset;
      ASSIGN_OR_RETURN(NodePtr operand, ParseNot(depth + 1));
      auto n = std::make_shared<Node>();
      n->kind = Node::Kind::kNot;
      n->offset = off;
      n->children = {operand};
      return NodePtr(n);
    }
    return ParseComparison(depth + 1);
  }
  absl::StatusOr<NodePtr> ParseComparison(int depth) {
    ASSIGN_OR_RETURN(NodePtr lhs, ParseAdditive(depth + 1));
    static constexpr std::string_view kOps[] = {"==", "!=", "<=", ">=", "<", ">", "in"};
    std::string op;
    const int off = Peek().offset;
    if (IsWord(Peek(), "not") && IsWord(Peek(1), "in")) {
      pos_ += 2;
      op = "not in";
    } else {
      for (std::string_view candidate : kOps) {
        if (IsWord(Peek(), candidate)) {
          op = std::string(candidate);
          ++pos_;
          break;
        }
      }
    }
    if (op.empty()) return lhs;
    ASSIGN_OR_RETURN(NodePtr rhs, ParseAdditive(depth + 1));
    return Binary(op, off, lhs, rhs);
  }
  absl::StatusOr<NodePtr> ParseAdditive(int depth) {
    RETURN_IF_ERROR(CheckDepth(depth));
    ASSIGN_OR_RETURN(NodePtr lhs, ParseMultiplicative(depth + 1));
    while (IsWord(Peek(), "+") || IsWord(Peek(), "-")) {
      const Token& t = Take();
      ASSIGN_OR_RETURN(NodePtr rhs, ParseMultiplicative(depth + 1));
      lhs = Binary(t.text, t.offset, lhs, rhs);
    }
    return lhs;
  }
  absl::StatusOr<NodePtr> ParseMultiplicative(int depth) {
    ASSIGN_OR_RETURN(NodePtr lhs, ParseUnary(depth + 1));
    while (IsWord(Peek(), "*") || IsWord(Peek(), "/") || IsWord(Peek(), "%")) {
      const Token& t = Take();
      ASSIGN_OR_RETURN(NodePtr rhs, ParseUnary(depth + 1));
      lhs = Binary(t.text, t.offset, lhs, rhs);
    }
    return lhs;
  }
  absl::StatusOr<NodePtr> ParseUnary(int depth) {
    RETURN_IF_ERROR(CheckDepth(depth));
    if (IsWord(Peek(), "-")) {
      const int off = Take().offset;
      ASSIGN_OR_RETURN(NodePtr operand, ParseUnary(depth + 1));
      auto n = std::make_shared<Node>();
      n->kind = Node::Kind::kNegate;
      n->offset = off;
      n->children = {operand};
      return NodePtr(n);
    }
    return ParsePostfix(depth + 1);
  }
  absl::StatusOr<NodePtr> ParsePostfix(int depth) {
    ASSIGN_OR_RETURN(NodePtr node, ParsePrimary(depth + 1));
    while (true) {
      if (IsWord(Peek(), ".")) {
        const int off = Take().offset;
        if (Peek().kind != TokKind::kIdent) return ErrorAt(Peek().offset, "expected a name after '.'");
        auto n = std::make_shared<Node>();
        n->kind = Node::Kind::kMember;
        n->offset = off;
        n->name = Take().text;
        n->children = {node};
        node = n;
      } else if (IsWord(Peek(), "[")) {
        const int off = Take().offset;
        ASSIGN_OR_RETURN(NodePtr index, ParseOr(depth + 1));
        RETURN_IF_ERROR(Expect("]"));
        auto n = std::make_shared<Node>();
        n->kind = Node::Kind::kIndex;
        n->offset = off;
        n->children = {node, index};
        node = n;
      } else {
        return node;
      }
    }
  }
  absl::StatusOr<NodePtr> ParsePrimary(int depth) {
    RETURN_IF_ERROR(CheckDepth(depth));
    const Token& t = Take();
    auto n = std::make_shared<Node>();
    n->offset = t.offset;
    switch (t.kind) {
      case TokKind::kEnd:
        return ErrorAt(t.offset, "unexpected end of expression");
      case TokKind::kInt:
        n->kind = Node::Kind::kLiteral;
        n->literal = ExprValue{t.int_value};
        return NodePtr(n);
      case TokKind::kFloat:
        n->kind = Node::Kind::kLiteral;
        n->literal = ExprValue{t.float_value};
        return NodePtr(n);
      case TokKind::kString:
        n->kind = Node::Kind::kLiteral;
        n->literal = ExprValue{t.text};
        return NodePtr(n);
      case TokKind::kOp:
        if (t.text == "(") {
          ASSIGN_OR_RETURN(NodePtr inner, ParseOr(depth + 1));
          RETURN_IF_ERROR(Expect(")"));
          return inner;
        }
        if (t.text == "[") {
          n->kind = Node::Kind::kList;
          if (!IsWord(Peek(), "]")) {
            while (true) {
              ASSIGN_OR_RETURN(NodePtr item, ParseOr(depth + 1));
              n->children.push_back(item);
              if (!IsWord(Peek(), ",")) break;
              ++pos_;
            }
          }
          RETURN_IF_ERROR(Expect("]"));
          return NodePtr(n);
        }
        return ErrorAt(t.offset, absl::StrCat("unexpected '", t.text, "'"));
      case TokKind::kIdent:
        break;
    }
    if (t.text == "true" || t.text == "false") {
      n->kind = Node::Kind::kLiteral;
      n->literal = ExprValue{t.text == "true"};
      return NodePtr(n);
    }
    if (t.text == "null") {
      n->kind = Node::Kind::kLiteral;
      return NodePtr(n);
    }
    if (IsWord(Peek(), "(")) {
      static constexpr std::string_view kFunctions[] = {"len", "abs", "min", "max", "coalesce",
                                                        "json", "if"};
      bool known = false;
      for (std::string_view f : kFunctions) known = known || t.text == f;
      if (!known) return ErrorAt(t.offset, absl::StrCat("unknown function '", t.text, "'"));
      ++pos_;
      n->kind = Node::Kind::kCall;
      n->name = t.text;
      if (!IsWord(Peek(), ")")) {
        while (true) {
          ASSIGN_OR_RETURN(NodePtr arg, ParseOr(depth + 1));
          n->children.push_back(arg);
          if (!IsWord(Peek(), ",")) break;
          ++pos_;
        }
      }
      RETURN_IF_ERROR(Expect(")"));
      const size_t argc = n->children.size();
      if ((t.text == "len" || t.text == "abs" || t.text == "json") && argc != 1) {
        return ErrorAt(t.offset, absl::StrCat(t.text, "() takes one argument"));
      }
      if (t.text == "if" && argc != 3) {
        return ErrorAt(t.offset, "if() takes three arguments: if(condition, then, else)");
      }
      if (argc == 0) return ErrorAt(t.offset, absl::StrCat(t.text, "() needs arguments"));
      return NodePtr(n);
    }
    if (t.text == "inputs" || t.text == "steps" || t.text == "row") {
      n->kind = Node::Kind::kRoot;
      n->name = t.text;
      return NodePtr(n);
    }
    return ErrorAt(t.offset, absl::StrCat("unknown name '", t.text,
                                          "' (expected inputs, steps, row, a literal or a "
                                          "function)"));
  }

  std::vector<Token> tokens_;
  size_t pos_ = 0;
};

// ---------------------------------------------------------------------------------------------
// Evaluation

bool IsNumber(const ExprValue& v) {
  return std::holds_alternative<int64_t>(v.v) || std::holds_alternative<double>(v.v) ||
         std::holds_alternative<bool>(v.v);
}
double AsDouble(const ExprValue& v) {
  if (auto* i = std::get_if<int64_t>(&v.v)) return static_cast<double>(*i);
  if (auto* b = std::get_if<bool>(&v.v)) return *b ? 1 : 0;
  return std::get<double>(v.v);
}
bool BothInts(const ExprValue& a, const ExprValue& b) {
  return std::holds_alternative<int64_t>(a.v) && std::holds_alternative<int64_t>(b.v);
}

absl::Status EvalError(const Node& n, std::string_view message) {
  return ErrorAt(n.offset, message);
}

// Equality across types: numbers compare by value, strings by text, null only equals null;
// anything else of different types is unequal.
bool ValuesEqual(const ExprValue& a, const ExprValue& b) {
  if (a.is_null() || b.is_null()) return a.is_null() && b.is_null();
  if (IsNumber(a) && IsNumber(b)) {
    if (BothInts(a, b)) return std::get<int64_t>(a.v) == std::get<int64_t>(b.v);
    return AsDouble(a) == AsDouble(b);
  }
  auto* sa = std::get_if<std::string>(&a.v);
  auto* sb = std::get_if<std::string>(&b.v);
  if (sa && sb) return *sa == *sb;
  return false;
}

class Evaluator {
 public:
  explicit Evaluator(const ExprScope& scope) : scope_(scope) {}

  absl::StatusOr<ExprValue> Eval(const Node& n) {
    switch (n.kind) {
      case Node::Kind::kLiteral:
        return n.literal;
      case Node::Kind::kList: {
        auto list = std::make_shared<ExprValue::List>();
        for (const auto& c : n.children) {
          ASSIGN_OR_RETURN(ExprValue item, Eval(*c));
          list->items.push_back(std::move(item));
        }
        return ExprValue{list};
      }
      case Node::Kind::kRoot:
        if (n.name == "inputs") return ExprValue{ExprValue::Object{0}};
        if (n.name == "steps") return ExprValue{ExprValue::Object{1}};
        {
          auto row = scope_.CurrentRow();
          if (!row.ok()) return EvalError(n, std::string(row.status().message()));
          return row;
        }
      case Node::Kind::kMember:
        return Member(n);
      case Node::Kind::kIndex:
        return Index(n);
      case Node::Kind::kCall:
        return Call(n);
      case Node::Kind::kNot: {
        ASSIGN_OR_RETURN(ExprValue v, Eval(*n.children[0]));
        return ExprValue{!v.Truthy()};
      }
      case Node::Kind::kNegate: {
        ASSIGN_OR_RETURN(ExprValue v, Eval(*n.children[0]));
        if (v.is_null()) return v;
        if (auto* i = std::get_if<int64_t>(&v.v)) {
          if (*i == INT64_MIN) return EvalError(n, "integer overflow");
          return ExprValue{-*i};
        }
        if (auto* d = std::get_if<double>(&v.v)) return ExprValue{-*d};
        return EvalError(n, absl::StrCat("cannot negate a ", v.TypeName()));
      }
      case Node::Kind::kBinary:
        return Binary(n);
    }
    return EvalError(n, "bad expression");
  }

 private:
  absl::StatusOr<ExprValue> Member(const Node& n) {
    ASSIGN_OR_RETURN(ExprValue base, Eval(*n.children[0]));
    if (base.is_null()) return base;
    if (auto* obj = std::get_if<ExprValue::Object>(&base.v)) {
      auto v = obj->kind == 0 ? scope_.Input(n.name) : scope_.Step(n.name);
      if (!v.ok()) return EvalError(n, std::string(v.status().message()));
      return v;
    }
    if (auto* res = std::get_if<ExprValue::Result>(&base.v)) {
      const StepResult& r = *res->result;
      if (n.name == "rows") return ExprValue{ExprValue::Rows{&r}};
      if (n.name == "row_count") return ExprValue{static_cast<int64_t>(r.rows.size())};
      if (n.name == "status") return ExprValue{std::string(StepStatusName(r.status))};
      if (n.name == "message") return ExprValue{r.message};
      if (n.name == "columns") {
        auto list = std::make_shared<ExprValue::List>();
        for (const auto& c : r.columns) list->items.push_back(ExprValue{c.name});
        return ExprValue{list};
      }
      return EvalError(n, absl::StrCat("a step result has no '", n.name,
                                       "' (use rows, row_count, status, message, columns)"));
    }
    if (auto* row = std::get_if<ExprValue::Row>(&base.v)) {
      const StepResult& r = *row->result;
      const int col = r.ColumnIndex(n.name);
      if (col < 0) {
        return EvalError(n, absl::StrCat("no column '", n.name, "' in the rows of step '",
                                         r.step, "'"));
      }
      return ExprValue::FromSql(r.rows[row->index][static_cast<size_t>(col)]);
    }
    return EvalError(n, absl::StrCat("a ", base.TypeName(), " has no field '", n.name, "'"));
  }

  absl::StatusOr<ExprValue> Index(const Node& n) {
    ASSIGN_OR_RETURN(ExprValue base, Eval(*n.children[0]));
    ASSIGN_OR_RETURN(ExprValue index, Eval(*n.children[1]));
    if (base.is_null() || index.is_null()) return ExprValue::Null();
    auto* i = std::get_if<int64_t>(&index.v);
    if (!i) return EvalError(n, absl::StrCat("an index must be an int, not a ", index.TypeName()));
    auto resolve = [&](size_t size) -> int64_t {
      const int64_t k = *i < 0 ? static_cast<int64_t>(size) + *i : *i;
      return (k < 0 || k >= static_cast<int64_t>(size)) ? -1 : k;
    };
    if (auto* rows = std::get_if<ExprValue::Rows>(&base.v)) {
      const int64_t k = resolve(rows->result->rows.size());
      if (k < 0) return ExprValue::Null();
      return ExprValue{ExprValue::Row{rows->result, static_cast<size_t>(k)}};
    }
    if (auto* list = std::get_if<std::shared_ptr<ExprValue::List>>(&base.v)) {
      const int64_t k = resolve((*list)->items.size());
      if (k < 0) return ExprValue::Null();
      return (*list)->items[static_cast<size_t>(k)];
    }
    return EvalError(n, absl::StrCat("cannot index a ", base.TypeName()));
  }

  absl::StatusOr<ExprValue> Call(const Node& n) {
    std::vector<ExprValue> args;
    for (const auto& c : n.children) {
      ASSIGN_OR_RETURN(ExprValue a, Eval(*c));
      args.push_back(std::move(a));
    }
    if (n.name == "len") {
      const ExprValue& a = args[0];
      if (a.is_null()) return ExprValue{int64_t{0}};
      if (auto* s = std::get_if<std::string>(&a.v)) return ExprValue{static_cast<int64_t>(s->size())};
      if (auto* l = std::get_if<std::shared_ptr<ExprValue::List>>(&a.v)) {
        return ExprValue{static_cast<int64_t>((*l)->items.size())};
      }
      if (auto* r = std::get_if<ExprValue::Rows>(&a.v)) {
        return ExprValue{static_cast<int64_t>(r->result->rows.size())};
      }
      if (auto* r = std::get_if<ExprValue::Result>(&a.v)) {
        return ExprValue{static_cast<int64_t>(r->result->rows.size())};
      }
      return EvalError(n, absl::StrCat("len() of a ", a.TypeName()));
    }
    if (n.name == "abs") {
      const ExprValue& a = args[0];
      if (a.is_null()) return a;
      if (auto* i = std::get_if<int64_t>(&a.v)) {
        if (*i == INT64_MIN) return EvalError(n, "integer overflow");
        return ExprValue{*i < 0 ? -*i : *i};
      }
      if (auto* d = std::get_if<double>(&a.v)) return ExprValue{std::fabs(*d)};
      return EvalError(n, absl::StrCat("abs() of a ", a.TypeName()));
    }
    if (n.name == "json") {
      std::string out;
      RETURN_IF_ERROR(AppendJson(n, args[0], &out));
      return ExprValue{std::move(out)};
    }
    if (n.name == "if") return args[0].Truthy() ? args[1] : args[2];
    if (n.name == "coalesce") {
      for (auto& a : args) {
        if (!a.is_null()) return a;
      }
      return ExprValue::Null();
    }
    // min / max over numbers, nulls ignored.
    const bool is_min = n.name == "min";
    ExprValue best;
    for (auto& a : args) {
      if (a.is_null()) continue;
      if (!IsNumber(a)) return EvalError(n, absl::StrCat(n.name, "() of a ", a.TypeName()));
      if (best.is_null()) {
        best = a;
        continue;
      }
      const bool less = BothInts(a, best) ? std::get<int64_t>(a.v) < std::get<int64_t>(best.v)
                                          : AsDouble(a) < AsDouble(best);
      const bool greater = BothInts(a, best) ? std::get<int64_t>(a.v) > std::get<int64_t>(best.v)
                                             : AsDouble(a) > AsDouble(best);
      if (is_min ? less : greater) best = a;
    }
    return best;
  }

  // JSON text of a value: rows become an array of objects (column: value), a row an object, a
  // list an array. How earlier results reach SQL as one bound parameter (json_each(:x)).
  absl::Status AppendJson(const Node& n, const ExprValue& v, std::string* out) {
    if (out->size() > kMaxStringBytes * 16) return EvalError(n, "json() result too large");
    auto cell = [&](const SqlValue& c) {
      switch (c.type) {
        case SqlValue::Type::kNull:
          *out += "null";
          break;
        case SqlValue::Type::kInt:
          *out += absl::StrCat(c.int_value);
          break;
        case SqlValue::Type::kDouble:
          *out += std::isfinite(c.double_value) ? absl::StrFormat("%.17g", c.double_value) : "null";
          break;
        case SqlValue::Type::kString:
          *out += JsonQuote(c.string_value);
          break;
      }
    };
    auto row = [&](const StepResult& r, size_t i) {
      *out += "{";
      for (size_t c = 0; c < r.columns.size(); ++c) {
        if (c) *out += ",";
        *out += JsonQuote(r.columns[c].name);
        *out += ":";
        cell(r.rows[i][c]);
      }
      *out += "}";
    };
    if (auto* rows = std::get_if<ExprValue::Rows>(&v.v)) {
      *out += "[";
      for (size_t i = 0; i < rows->result->rows.size(); ++i) {
        if (i) *out += ",";
        row(*rows->result, i);
      }
      *out += "]";
      return absl::OkStatus();
    }
    if (auto* r = std::get_if<ExprValue::Row>(&v.v)) {
      row(*r->result, r->index);
      return absl::OkStatus();
    }
    if (auto* l = std::get_if<std::shared_ptr<ExprValue::List>>(&v.v)) {
      *out += "[";
      for (size_t i = 0; i < (*l)->items.size(); ++i) {
        if (i) *out += ",";
        RETURN_IF_ERROR(AppendJson(n, (*l)->items[i], out));
      }
      *out += "]";
      return absl::OkStatus();
    }
    if (auto* b = std::get_if<bool>(&v.v)) {
      *out += *b ? "true" : "false";
      return absl::OkStatus();
    }
    auto scalar = v.ToSql();
    if (!scalar.ok()) return EvalError(n, absl::StrCat("json() of a ", v.TypeName()));
    cell(*scalar);
    return absl::OkStatus();
  }

  absl::StatusOr<ExprValue> Binary(const Node& n) {
    const std::string& op = n.name;
    if (op == "and" || op == "or") {
      ASSIGN_OR_RETURN(ExprValue a, Eval(*n.children[0]));
      const bool at = a.Truthy();
      if (op == "and" && !at) return ExprValue{false};
      if (op == "or" && at) return ExprValue{true};
      ASSIGN_OR_RETURN(ExprValue b, Eval(*n.children[1]));
      return ExprValue{b.Truthy()};
    }
    ASSIGN_OR_RETURN(ExprValue a, Eval(*n.children[0]));
    ASSIGN_OR_RETURN(ExprValue b, Eval(*n.children[1]));
    if (op == "==") return ExprValue{ValuesEqual(a, b)};
    if (op == "!=") return ExprValue{!ValuesEqual(a, b)};
    if (op == "in" || op == "not in") {
      if (b.is_null()) return ExprValue::Null();
      bool found = false;
      if (auto* l = std::get_if<std::shared_ptr<ExprValue::List>>(&b.v)) {
        for (const auto& item : (*l)->items) found = found || ValuesEqual(a, item);
      } else if (auto* s = std::get_if<std::string>(&b.v)) {
        auto* needle = std::get_if<std::string>(&a.v);
        if (!needle) return EvalError(n, absl::StrCat("'in' a string needs a string, not a ", a.TypeName()));
        found = s->find(*needle) != std::string::npos;
      } else if (auto* r = std::get_if<ExprValue::Rows>(&b.v)) {
        // `x in steps.s.rows` tests the first column of each row.
        for (const auto& row : r->result->rows) {
          found = found || (!row.empty() && ValuesEqual(a, ExprValue::FromSql(row[0])));
        }
      } else {
        return EvalError(n, absl::StrCat("'in' needs a list, rows or a string, not a ", b.TypeName()));
      }
      return ExprValue{op == "in" ? found : !found};
    }
    if (a.is_null() || b.is_null()) return ExprValue::Null();
    if (op == "<" || op == "<=" || op == ">" || op == ">=") {
      int cmp;
      if (IsNumber(a) && IsNumber(b)) {
        if (BothInts(a, b)) {
          const int64_t x = std::get<int64_t>(a.v), y = std::get<int64_t>(b.v);
          cmp = x < y ? -1 : x > y ? 1 : 0;
        } else {
          const double x = AsDouble(a), y = AsDouble(b);
          if (std::isnan(x) || std::isnan(y)) return ExprValue{false};
          cmp = x < y ? -1 : x > y ? 1 : 0;
        }
      } else if (std::holds_alternative<std::string>(a.v) && std::holds_alternative<std::string>(b.v)) {
        cmp = std::get<std::string>(a.v).compare(std::get<std::string>(b.v));
      } else {
        return EvalError(n, absl::StrCat("cannot compare a ", a.TypeName(), " with a ", b.TypeName()));
      }
      if (op == "<") return ExprValue{cmp < 0};
      if (op == "<=") return ExprValue{cmp <= 0};
      if (op == ">") return ExprValue{cmp > 0};
      return ExprValue{cmp >= 0};
    }
    // Arithmetic.
    // Text joins text, and a number next to text joins as it is written ('took ' + 12.5).
    if (op == "+" && (std::holds_alternative<std::string>(a.v) || std::holds_alternative<std::string>(b.v)) &&
        !std::holds_alternative<bool>(a.v) && !std::holds_alternative<bool>(b.v)) {
      const std::string x = a.ToString();
      const std::string y = b.ToString();
      if (x.size() + y.size() > kMaxStringBytes) return EvalError(n, "string too long");
      return ExprValue{x + y};
    }
    if (!IsNumber(a) || !IsNumber(b)) {
      return EvalError(n, absl::StrCat("cannot apply '", op, "' to a ", a.TypeName(), " and a ",
                                       b.TypeName()));
    }
    if (op == "/") {
      // Always real division: `janky / total` must not silently round to 0.
      const double y = AsDouble(b);
      if (y == 0) return ExprValue::Null();
      return ExprValue{AsDouble(a) / y};
    }
    if (BothInts(a, b)) {
      const int64_t x = std::get<int64_t>(a.v), y = std::get<int64_t>(b.v);
      int64_t r = 0;
      bool overflow = false;
      if (op == "+") overflow = __builtin_add_overflow(x, y, &r);
      if (op == "-") overflow = __builtin_sub_overflow(x, y, &r);
      if (op == "*") overflow = __builtin_mul_overflow(x, y, &r);
      if (op == "%") {
        if (y == 0) return ExprValue::Null();
        if (x == INT64_MIN && y == -1) return ExprValue{int64_t{0}};
        r = x % y;
      }
      if (overflow) return EvalError(n, "integer overflow");
      return ExprValue{r};
    }
    const double x = AsDouble(a), y = AsDouble(b);
    if (op == "+") return ExprValue{x + y};
    if (op == "-") return ExprValue{x - y};
    if (op == "*") return ExprValue{x * y};
    if (y == 0) return ExprValue::Null();
    return ExprValue{std::fmod(x, y)};
  }

  const ExprScope& scope_;
};

void CollectReferences(const Node& n, std::vector<ExprReference>* out) {
  // Recognise the chains that name something: inputs.X, steps.X[.rows[i].col], row.col.
  if (n.kind == Node::Kind::kMember) {
    const Node& base = *n.children[0];
    if (base.kind == Node::Kind::kRoot) {
      if (base.name == "inputs") out->push_back({ExprReference::Kind::kInput, n.name, "", n.offset});
      if (base.name == "steps") out->push_back({ExprReference::Kind::kStep, n.name, "", n.offset});
      if (base.name == "row") out->push_back({ExprReference::Kind::kRow, n.name, "", n.offset});
      return;
    }
    // <...>.rows[i].col where <...> is steps.X
    if (base.kind == Node::Kind::kIndex) {
      const Node& rows = *base.children[0];
      if (rows.kind == Node::Kind::kMember && rows.name == "rows") {
        const Node& step = *rows.children[0];
        if (step.kind == Node::Kind::kMember && step.children[0]->kind == Node::Kind::kRoot &&
            step.children[0]->name == "steps") {
          out->push_back({ExprReference::Kind::kStep, step.name, n.name, n.offset});
          CollectReferences(*base.children[1], out);  // the index expression
          return;
        }
      }
    }
  }
  for (const auto& c : n.children) CollectReferences(*c, out);
}

}  // namespace

Expression::Expression() = default;
Expression::~Expression() = default;
Expression::Expression(Expression&&) noexcept = default;
Expression& Expression::operator=(Expression&&) noexcept = default;
Expression::Expression(const Expression&) = default;
Expression& Expression::operator=(const Expression&) = default;

absl::StatusOr<Expression> Expression::Parse(std::string_view text) {
  ASSIGN_OR_RETURN(std::vector<Token> tokens, Tokenize(text));
  Parser parser(std::move(tokens));
  ASSIGN_OR_RETURN(NodePtr root, parser.ParseAll());
  Expression e;
  e.text_ = std::string(text);
  e.root_ = std::move(root);
  return e;
}

absl::StatusOr<ExprValue> Expression::Evaluate(const ExprScope& scope) const {
  if (!root_) return ExprValue::Null();
  Evaluator evaluator(scope);
  return evaluator.Eval(*root_);
}

absl::StatusOr<bool> Expression::EvaluateCondition(const ExprScope& scope) const {
  ASSIGN_OR_RETURN(ExprValue v, Evaluate(scope));
  return v.Truthy();
}

std::vector<ExprReference> Expression::References() const {
  std::vector<ExprReference> out;
  if (root_) CollectReferences(*root_, &out);
  return out;
}

// ---------------------------------------------------------------------------------------------
// Templates

absl::StatusOr<Template> Template::Parse(std::string_view text) {
  Template t;
  t.text_ = std::string(text);
  size_t pos = 0;
  while (true) {
    const size_t open = text.find("{{", pos);
    if (open == std::string_view::npos) {
      t.literals_.emplace_back(text.substr(pos));
      break;
    }
    const size_t close = text.find("}}", open + 2);
    if (close == std::string_view::npos) {
      return absl::InvalidArgumentError(absl::StrCat("offset ", open, ": unclosed '{{'"));
    }
    t.literals_.emplace_back(text.substr(pos, open - pos));
    auto expr = Expression::Parse(text.substr(open + 2, close - open - 2));
    if (!expr.ok()) {
      return absl::InvalidArgumentError(absl::StrCat("in '{{' at offset ", open, ": ",
                                                     std::string(expr.status().message())));
    }
    t.holes_.push_back(*std::move(expr));
    pos = close + 2;
  }
  return t;
}

absl::StatusOr<std::string> Template::Render(const ExprScope& scope) const {
  std::string out;
  for (size_t i = 0; i < literals_.size(); ++i) {
    out += literals_[i];
    if (i < holes_.size()) {
      ASSIGN_OR_RETURN(ExprValue v, holes_[i].Evaluate(scope));
      out += v.ToString();
    }
  }
  return out;
}

std::vector<ExprReference> Template::References() const {
  std::vector<ExprReference> out;
  for (const auto& h : holes_) {
    auto refs = h.References();
    out.insert(out.end(), refs.begin(), refs.end());
  }
  return out;
}

}  // namespace tw::skills
